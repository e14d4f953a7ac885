#include "Diagnosis.h"

#include <algorithm>
#include <climits>
#include <set>
#include <sstream>

namespace lockstep::run {

const char *kindName(DivergenceKind K) {
  switch (K) {
  case DivergenceKind::Mismatch:
    return "mismatch";
  case DivergenceKind::Left:
    return "rank-left";
  case DivergenceKind::Deadlock:
    return "deadlock";
  case DivergenceKind::Stall:
    return "stall";
  }
  return "?";
}

std::string describeCall(const Matcher &M, const Call &C) {
  const Function &F = M.names().function(C.Func);
  std::vector<std::string> Args;
  if (C.Count != wire::NoCount)
    Args.push_back("count=" + std::to_string(C.Count));
  if (C.Datatype != NoName)
    Args.push_back(M.names().text(C.Datatype));
  if (C.Op != NoName)
    Args.push_back(M.names().text(C.Op));
  if (C.Root != wire::NoRoot)
    Args.push_back("root=" + std::to_string(C.Root));
  std::string Text = F.Name;
  if (!Args.empty()) {
    Text += "(";
    for (size_t I = 0; I < Args.size(); ++I)
      Text += (I ? ", " : "") + Args[I];
    Text += ")";
  }
  return Text;
}

std::string rankList(std::vector<int> Ranks) {
  std::sort(Ranks.begin(), Ranks.end());
  Ranks.erase(std::unique(Ranks.begin(), Ranks.end()), Ranks.end());
  if (Ranks.size() > 2 && Ranks.back() - Ranks.front() == int(Ranks.size()) - 1)
    return std::to_string(Ranks.front()) + "-" + std::to_string(Ranks.back());
  std::string S;
  for (size_t I = 0; I < Ranks.size(); ++I)
    S += (I ? ", " : "") + std::to_string(Ranks[I]);
  return S;
}

namespace {

std::string plural(size_t N, const char *One, const char *Many) { return N == 1 ? One : Many; }

std::string ranksWord(const std::vector<int> &R) {
  return plural(R.size(), "rank ", "ranks ") + rankList(R);
}

/// How a departed rank left, in words.
std::string howLeft(const RankState &R) {
  std::string How = !R.Exit.empty() ? R.Exit
                    : R.SaidBye     ? "exited"
                    : R.Connected   ? "disconnected without a goodbye (crashed or killed)"
                                    : "ended before reporting anything (crashed or killed)";
  return R.LeftMpiOpen ? How + " without calling MPI_Finalize" : How;
}

std::string where(const std::vector<Location> &Sites, const Call *C) {
  return C && C->Site < Sites.size() ? Sites[C->Site].text() : "<unknown>";
}

/// The function's name, or a placeholder when the call fell out of the trace.
std::string nameOf(const Matcher &M, const Call *C) {
  return C ? M.names().function(C->Func).Name : "<a collective no longer traced>";
}

/// The side-by-side trace of one communicator.
std::string table(const Matcher &M, const std::vector<Location> &Sites, uint64_t CommId,
                  const std::set<uint64_t> &Marked) {
  const CommState &C = M.comms().at(CommId);
  std::vector<int> Ranks = shownRanks(M, CommId, 8);
  uint64_t Focus = Marked.empty() ? 1 : *Marked.begin();
  uint64_t Lo = Focus > 4 ? Focus - 4 : 1, Hi = Focus;
  for (int R : Ranks)
    Hi = std::max(Hi, std::min(C.Members.at(R).Count, Focus + 2));
  uint64_t DetectedNs = M.divergence() ? M.divergence()->DetectedNs : UINT64_MAX;
  // Two text lines per row: the call, then its site.
  std::vector<std::vector<std::string>> Cells; // [row*2 + line][column]
  for (uint64_t Seq = Lo; Seq <= Hi; ++Seq) {
    std::vector<std::string> Top, Bottom;
    for (int R : Ranks) {
      const MemberTrace &T = C.Members.at(R);
      const RankState &State = M.ranks()[size_t(R)];
      bool LeftBefore = State.Departed && State.DepartedNs <= DetectedNs;
      if (const Call *Made = M.call(CommId, R, Seq)) {
        Top.push_back(describeCall(M, *Made));
        Bottom.push_back(Made->Site < Sites.size() ? Sites[Made->Site].brief() : "");
      } else if (Seq <= T.Count) {
        Top.push_back("...");
        Bottom.push_back("");
      } else if (Seq == T.Count + 1 && (LeftBefore || Marked.count(Seq))) {
        Top.push_back(LeftBefore ? "(" + howLeft(State) + ")" : "(not called)");
        Bottom.push_back("");
      } else {
        Top.push_back("");
        Bottom.push_back("");
      }
    }
    Cells.push_back(Top);
    Cells.push_back(Bottom);
  }
  constexpr size_t MaxWidth = 46;
  std::vector<size_t> Width(Ranks.size(), 0);
  for (size_t Col = 0; Col < Ranks.size(); ++Col) {
    Width[Col] = 6 + std::to_string(Ranks[Col]).size();
    for (auto &Row : Cells) {
      if (Row[Col].size() > MaxWidth)
        Row[Col] = Row[Col].substr(0, MaxWidth - 3) + "...";
      Width[Col] = std::max(Width[Col], Row[Col].size());
    }
  }
  std::ostringstream Out;
  Out << "last collectives on " << M.label(CommId) << " (" << C.Size
      << " ranks), by sequence number";
  if (Ranks.size() < C.Members.size())
    Out << "; " << Ranks.size() << " of " << C.Members.size() << " ranks shown";
  Out << ":\n";
  auto Line = [&](const std::string &Mark, const std::string &Seq,
                  const std::vector<std::string> &Row) {
    std::string Text =
        Mark + std::string(7 - std::min<size_t>(7, Mark.size() + Seq.size()), ' ') + Seq;
    for (size_t Col = 0; Col < Row.size(); ++Col)
      Text += "   " + Row[Col] + std::string(Width[Col] - Row[Col].size(), ' ');
    while (!Text.empty() && Text.back() == ' ')
      Text.pop_back();
    Out << Text << "\n";
  };
  std::vector<std::string> Header;
  for (int R : Ranks)
    Header.push_back("rank " + std::to_string(R));
  Line("", "#", Header);
  for (uint64_t Seq = Lo; Seq <= Hi; ++Seq) {
    size_t Row = size_t(Seq - Lo) * 2;
    Line(Marked.count(Seq) ? ">>" : "", std::to_string(Seq), Cells[Row]);
    Line("", "", Cells[Row + 1]);
  }
  return Out.str();
}

} // namespace

std::vector<int> shownRanks(const Matcher &M, uint64_t Comm, size_t Max) {
  const CommState &C = M.comms().at(Comm);
  std::vector<int> Shown;
  if (const auto &D = M.divergence())
    for (int R : D->Culprits)
      if (C.Members.count(R) && Shown.size() < Max)
        Shown.push_back(R);
  for (const auto &[R, _] : C.Members)
    if (Shown.size() < Max && std::find(Shown.begin(), Shown.end(), R) == Shown.end())
      Shown.push_back(R);
  std::sort(Shown.begin(), Shown.end());
  return Shown;
}

std::vector<DivergingCall> divergingCalls(const Matcher &M) {
  std::vector<DivergingCall> Calls;
  const auto &D = M.divergence();
  if (!D)
    return Calls;
  auto Made = [&](int R) {
    auto It = D->Calls.find(R);
    return It == D->Calls.end() ? nullptr : &It->second;
  };
  if (D->K == DivergenceKind::Deadlock) {
    for (const auto &P : D->Points)
      Calls.push_back({P.Rank, P.Comm, P.Seq, Made(P.Rank)});
    return Calls;
  }
  const auto &P = D->Points.front();
  for (const auto &[R, T] : M.comms().at(P.Comm).Members)
    Calls.push_back({R, P.Comm, P.Seq, Made(R)});
  return Calls;
}

namespace {

/// What the four kinds of diagnosis share: the first divergent point, the
/// calls the ranks made there, and where notes go.
struct Report {
  const Matcher &M;
  const std::vector<Location> &Sites;
  const Divergence &D;
  std::vector<DivergingCall> Calls;
  std::ostringstream &Out;
  std::string Comm, Number;

  const Divergence::Point &point() const { return D.Points.front(); }
  void note(const Call *C, const std::string &Text) {
    Out << where(Sites, C) << ": note: " << Text << "\n";
  }
  void noteWaiting(const DivergingCall &C) {
    note(C.What, "rank " + std::to_string(C.Rank) + " waits in " + nameOf(M, C.What) +
                     " here (collective " + Number + ")");
  }
};

void renderMismatch(Report &R) {
  const Call *A = &R.D.Calls.at(R.D.Culprits[0]), *B = &R.D.Calls.at(R.D.Culprits[1]);
  R.Out << "collective " << R.Number << " on " << R.Comm << " differs between ranks (" << R.D.Field
        << "): rank " << R.D.Culprits[0] << " calls " << describeCall(R.M, *A) << ", rank "
        << R.D.Culprits[1] << " calls " << describeCall(R.M, *B) << " [mismatch]\n";
  R.note(A, "rank " + std::to_string(R.D.Culprits[0]) + " calls " + nameOf(R.M, A) +
                " here (collective " + R.Number + ")");
  R.note(B, "rank " + std::to_string(R.D.Culprits[1]) + " calls " + nameOf(R.M, B) +
                " here (collective " + R.Number + ")");
}

void renderLeft(Report &R) {
  const auto &P = R.point();
  // Every rank that left first, the first to leave included.
  const std::vector<int> &Gone = R.D.Culprits;
  auto Stayed = [&](const DivergingCall &C) {
    return C.What && std::find(Gone.begin(), Gone.end(), C.Rank) == Gone.end();
  };
  std::vector<int> Callers;
  const Call *First = nullptr;
  for (const auto &C : R.Calls)
    if (Stayed(C)) {
      Callers.push_back(C.Rank);
      First = First ? First : C.What;
    }
  std::vector<std::string> Hows;
  for (int Rank : Gone) {
    const Call *There = R.M.call(P.Comm, Rank, P.Seq);
    Hows.push_back("rank " + std::to_string(Rank) + " " +
                   (There && R.M.names().function(There->Func).Operation == "finalize"
                        ? "called " + nameOf(R.M, There)
                        : howLeft(R.M.ranks()[size_t(Rank)])));
  }
  for (size_t I = 0; I < Hows.size(); ++I)
    R.Out << (I == 0 ? "" : I + 1 == Hows.size() ? " and " : ", ") << Hows[I];
  R.Out << " after " << P.Seq - 1 << " collective" << plural(P.Seq - 1, "", "s") << " on " << R.Comm
        << "; ";
  if (Callers.empty())
    R.Out << "the other ranks were still running and can never complete collective " << R.Number;
  else
    R.Out << ranksWord(Callers) << " called " << nameOf(R.M, First) << " " << R.Number << ", which "
          << plural(Gone.size(), "it", "they") << " never called";
  R.Out << " [rank-left]\n";
  for (const auto &C : R.Calls)
    if (Stayed(C))
      R.noteWaiting(C);
  for (int Rank : Gone)
    if (const Call *Last = R.M.call(P.Comm, Rank, P.Seq - 1))
      R.note(Last, "rank " + std::to_string(Rank) + "'s last collective on " + R.Comm + " (#" +
                       std::to_string(P.Seq - 1) + ") was " + nameOf(R.M, Last) + " here");
}

void renderDeadlock(Report &R) {
  R.Out << "deadlock: ";
  for (size_t I = 0; I < R.Calls.size(); ++I) {
    const auto &C = R.Calls[I];
    int Next = R.Calls[(I + 1) % R.Calls.size()].Rank;
    R.Out << (I ? "; " : "") << "rank " << C.Rank << " waits in " << nameOf(R.M, C.What) << " #"
          << C.Seq << " on " << R.M.label(C.Comm) << ", which rank " << Next << " has not called";
  }
  R.Out << " [deadlock]\n";
  for (const auto &C : R.Calls)
    R.note(C.What, "rank " + std::to_string(C.Rank) + " waits in " + nameOf(R.M, C.What) +
                       " here (collective #" + std::to_string(C.Seq) + " on " + R.M.label(C.Comm) +
                       ")");
}

void renderStall(Report &R, double StallTimeoutSeconds) {
  const auto &P = R.point();
  const Call *First = nullptr;
  std::vector<int> Waiting;
  for (const auto &C : R.Calls)
    if (C.What) {
      Waiting.push_back(C.Rank);
      First = First ? First : C.What;
    }
  // Members without a record of the point: those that never called it,
  // and those that did (says their heartbeat) but whose record was lost.
  std::vector<int> Missing, Unknown;
  const CommState &State = R.M.comms().at(P.Comm);
  for (int Rank : R.D.Culprits)
    (State.Members.at(Rank).known() < P.Seq ? Missing : Unknown).push_back(Rank);
  std::ostringstream Seconds;
  Seconds << StallTimeoutSeconds;
  R.Out << "no progress for " << Seconds.str() << " s on " << R.Comm << ": ";
  std::vector<std::string> Parts;
  if (!Waiting.empty())
    Parts.push_back(ranksWord(Waiting) + " wait" + plural(Waiting.size(), "s", "") + " in " +
                    nameOf(R.M, First) + " " + R.Number);
  if (!Missing.empty())
    Parts.push_back(ranksWord(Missing) + " " + plural(Missing.size(), "has", "have") +
                    " not called " + (Waiting.empty() ? R.Number : "it"));
  if (!Unknown.empty())
    Parts.push_back(ranksWord(Unknown) + " " + plural(Unknown.size(), "is", "are") + " inside " +
                    R.Number + ", but the record of what " + plural(Unknown.size(), "it", "they") +
                    " called was dropped");
  for (size_t I = 0; I < Parts.size(); ++I)
    R.Out << (I ? "; " : "") << Parts[I];
  R.Out << " [stall]\n";
  for (const auto &C : R.Calls)
    if (C.What)
      R.noteWaiting(C);
}

} // namespace

std::string renderDiagnosis(const Matcher &M, const std::vector<Location> &Sites,
                            double StallTimeoutSeconds) {
  const Divergence &D = *M.divergence();
  std::ostringstream Out;
  const auto &P = D.Points.front();
  Report R{M, Sites, D, divergingCalls(M), Out, M.label(P.Comm), "#" + std::to_string(P.Seq)};
  Out << "lockstep: error: ";
  switch (D.K) {
  case DivergenceKind::Mismatch:
    renderMismatch(R);
    break;
  case DivergenceKind::Left:
    renderLeft(R);
    break;
  case DivergenceKind::Deadlock:
    renderDeadlock(R);
    break;
  case DivergenceKind::Stall:
    renderStall(R, StallTimeoutSeconds);
    break;
  }
  std::map<uint64_t, std::set<uint64_t>> Marked;
  for (const auto &Point : D.Points)
    Marked[Point.Comm].insert(Point.Seq);
  for (const auto &[CommId, Seqs] : Marked)
    Out << "\n" << table(M, Sites, CommId, Seqs);
  return Out.str();
}

} // namespace lockstep::run
