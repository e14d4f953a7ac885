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
  if (C.Count != wire::kNoCount)
    Args.push_back("count=" + std::to_string(C.Count));
  if (C.Datatype != kNoName)
    Args.push_back(M.names().text(C.Datatype));
  if (C.Op != kNoName)
    Args.push_back(M.names().text(C.Op));
  if (C.Root != wire::kNoRoot)
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
  constexpr size_t kMaxWidth = 46;
  std::vector<size_t> Width(Ranks.size(), 0);
  for (size_t Col = 0; Col < Ranks.size(); ++Col) {
    Width[Col] = 6 + std::to_string(Ranks[Col]).size();
    for (auto &Row : Cells) {
      if (Row[Col].size() > kMaxWidth)
        Row[Col] = Row[Col].substr(0, kMaxWidth - 3) + "...";
      Width[Col] = std::max(Width[Col], Row[Col].size());
    }
  }
  std::ostringstream Out;
  Out << "last collectives on " << M.label(CommId) << " (" << C.Size << " ranks), by sequence number";
  if (Ranks.size() < C.Members.size())
    Out << "; " << Ranks.size() << " of " << C.Members.size() << " ranks shown";
  Out << ":\n";
  auto Line = [&](const std::string &Mark, const std::string &Seq, const std::vector<std::string> &Row) {
    std::string Text = Mark + std::string(7 - std::min<size_t>(7, Mark.size() + Seq.size()), ' ') + Seq;
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
  if (D->Kind == DivergenceKind::Deadlock) {
    for (const auto &P : D->Points)
      Calls.push_back({P.Rank, P.Comm, P.Seq, Made(P.Rank)});
    return Calls;
  }
  const auto &P = D->Points.front();
  for (const auto &[R, T] : M.comms().at(P.Comm).Members)
    Calls.push_back({R, P.Comm, P.Seq, Made(R)});
  return Calls;
}

std::string renderDiagnosis(const Matcher &M, const std::vector<Location> &Sites,
                            double StallTimeoutSeconds) {
  const Divergence &D = *M.divergence();
  std::vector<DivergingCall> Calls = divergingCalls(M);
  std::ostringstream Out;
  auto NoteAt = [&](const Call *C, const std::string &Text) {
    Out << where(Sites, C) << ": note: " << Text << "\n";
  };
  const auto &P = D.Points.front();
  std::string Comm = M.label(P.Comm), Number = "#" + std::to_string(P.Seq);
  std::vector<int> Waiting;
  for (const auto &C : Calls)
    if (C.What)
      Waiting.push_back(C.Rank);
  Out << "lockstep: error: ";
  switch (D.Kind) {
  case DivergenceKind::Mismatch: {
    const Call *A = &D.Calls.at(D.Culprits[0]), *B = &D.Calls.at(D.Culprits[1]);
    Out << "collective " << Number << " on " << Comm << " differs between ranks (" << D.Field
        << "): rank " << D.Culprits[0] << " calls " << describeCall(M, *A) << ", rank "
        << D.Culprits[1] << " calls " << describeCall(M, *B) << " [mismatch]\n";
    NoteAt(A, "rank " + std::to_string(D.Culprits[0]) + " calls " + nameOf(M, A) +
                  " here (collective " + Number + ")");
    NoteAt(B, "rank " + std::to_string(D.Culprits[1]) + " calls " + nameOf(M, B) +
                  " here (collective " + Number + ")");
    break;
  }
  case DivergenceKind::Left: {
    // Every rank that left first, the first to leave included.
    const std::vector<int> &Gone = D.Culprits;
    std::vector<int> Callers;
    const Call *First = nullptr;
    for (const auto &C : Calls)
      if (C.What && std::find(Gone.begin(), Gone.end(), C.Rank) == Gone.end()) {
        Callers.push_back(C.Rank);
        First = First ? First : C.What;
      }
    std::vector<std::string> Hows;
    for (int R : Gone) {
      const Call *There = M.call(P.Comm, R, P.Seq);
      Hows.push_back("rank " + std::to_string(R) + " " +
                     (There && M.names().function(There->Func).Operation == "finalize"
                          ? "called " + nameOf(M, There)
                          : howLeft(M.ranks()[size_t(R)])));
    }
    for (size_t I = 0; I < Hows.size(); ++I)
      Out << (I == 0 ? "" : I + 1 == Hows.size() ? " and " : ", ") << Hows[I];
    Out << " after " << P.Seq - 1 << " collective" << plural(P.Seq - 1, "", "s") << " on " << Comm
        << "; ";
    if (Callers.empty())
      Out << "the other ranks were still running and can never complete collective " << Number;
    else
      Out << ranksWord(Callers) << " called " << nameOf(M, First) << " " << Number << ", which "
          << plural(Gone.size(), "it", "they") << " never called";
    Out << " [rank-left]\n";
    for (const auto &C : Calls)
      if (C.What && std::find(Gone.begin(), Gone.end(), C.Rank) == Gone.end())
        NoteAt(C.What, "rank " + std::to_string(C.Rank) + " waits in " +
                           nameOf(M, C.What) + " here (collective " + Number + ")");
    for (int R : Gone)
      if (const Call *Last = M.call(P.Comm, R, P.Seq - 1))
        NoteAt(Last, "rank " + std::to_string(R) + "'s last collective on " + Comm + " (#" +
                         std::to_string(P.Seq - 1) + ") was " + nameOf(M, Last) + " here");
    break;
  }
  case DivergenceKind::Deadlock: {
    Out << "deadlock: ";
    for (size_t I = 0; I < Calls.size(); ++I) {
      const auto &C = Calls[I];
      int Next = Calls[(I + 1) % Calls.size()].Rank;
      Out << (I ? "; " : "") << "rank " << C.Rank << " waits in " << nameOf(M, C.What)
          << " #" << C.Seq << " on " << M.label(C.Comm) << ", which rank " << Next << " has not called";
    }
    Out << " [deadlock]\n";
    for (const auto &C : Calls)
      NoteAt(C.What, "rank " + std::to_string(C.Rank) + " waits in " + nameOf(M, C.What) +
                         " here (collective #" + std::to_string(C.Seq) + " on " + M.label(C.Comm) + ")");
    break;
  }
  case DivergenceKind::Stall: {
    const Call *First = nullptr;
    for (const auto &C : Calls)
      First = First ? First : C.What;
    // Members without a record of the point: those that never called it,
    // and those that did (says their heartbeat) but whose record was lost.
    std::vector<int> Missing, Unknown;
    const CommState &State = M.comms().at(P.Comm);
    for (int R : D.Culprits)
      (State.Members.at(R).known() < P.Seq ? Missing : Unknown).push_back(R);
    std::ostringstream Seconds;
    Seconds << StallTimeoutSeconds;
    Out << "no progress for " << Seconds.str() << " s on " << Comm << ": ";
    std::vector<std::string> Parts;
    if (!Waiting.empty())
      Parts.push_back(ranksWord(Waiting) + " wait" + plural(Waiting.size(), "s", "") + " in " +
                      nameOf(M, First) + " " + Number);
    if (!Missing.empty())
      Parts.push_back(ranksWord(Missing) + " " + plural(Missing.size(), "has", "have") +
                      " not called " + (Waiting.empty() ? Number : "it"));
    if (!Unknown.empty())
      Parts.push_back(ranksWord(Unknown) + " " + plural(Unknown.size(), "is", "are") + " inside " +
                      Number + ", but the record of what " + plural(Unknown.size(), "it", "they") +
                      " called was dropped");
    for (size_t I = 0; I < Parts.size(); ++I)
      Out << (I ? "; " : "") << Parts[I];
    Out << " [stall]\n";
    for (const auto &C : Calls)
      if (C.What)
        NoteAt(C.What, "rank " + std::to_string(C.Rank) + " waits in " + nameOf(M, C.What) +
                           " here (collective " + Number + ")");
    break;
  }
  }
  std::map<uint64_t, std::set<uint64_t>> Marked;
  for (const auto &Point : D.Points)
    Marked[Point.Comm].insert(Point.Seq);
  for (const auto &[CommId, Seqs] : Marked)
    Out << "\n" << table(M, Sites, CommId, Seqs);
  return Out.str();
}

} // namespace lockstep::run
