#include "Matcher.h"

#include <algorithm>
#include <climits>
#include <functional>

namespace lockstep::run {

namespace {

template <class T>
uint32_t intern(std::vector<T> &Items, std::map<std::string, uint32_t> &Ids, const std::string &Key,
                const T &Item) {
  auto [It, New] = Ids.emplace(Key, uint32_t(Items.size()));
  if (New)
    Items.push_back(Item);
  return It->second;
}

/// Operations that no member can finish before every member has entered
/// them (given a nonzero count): a rank inside one waits for all the others.
bool waitsForAll(const Function &F, const Call &C) {
  if (!(F.Flags & wire::HostBlocking) || (F.Flags & wire::NonblockingCall))
    return false;
  if (F.Operation == "barrier")
    return true;
  static const std::set<std::string> Data = {"allreduce", "allgather", "alltoall",
                                             "reduce_scatter"};
  return Data.count(F.Operation) && C.Count > 0;
}
} // namespace

uint32_t Names::function(const Function &F) {
  return intern(Functions, FunctionIds,
                F.Name + '\0' + F.Operation + '\0' + std::to_string(F.Flags), F);
}
uint32_t Names::text(const std::string &S) { return intern(Texts, TextIds, S, S); }
uint32_t Names::site(const Site &S) {
  return intern(Sites, SiteIds, S.Module + '\0' + std::to_string(S.Offset), S);
}

Matcher::Matcher(int WorldSize, uint64_t StallTimeoutNs)
    : Ranks(size_t(WorldSize)), StallNs(StallTimeoutNs) {}

bool Matcher::live(int Rank) const {
  const RankState &R = Ranks[size_t(Rank)];
  return !R.Departed && !R.Untracked;
}

std::string Matcher::label(uint64_t CommId) const {
  auto It = Comms.find(CommId);
  if (It == Comms.end())
    return "communicator ?";
  const CommState &C = It->second;
  if (C.Id == wire::MpiWorldId && C.Api == wire::Api::Mpi)
    return "MPI_COMM_WORLD";
  return std::string(C.Api == wire::Api::Mpi ? "MPI" : "NCCL") + " communicator " +
         std::to_string(C.Ordinal);
}

Error Matcher::addComm(int Rank, const wire::Comm &In, uint64_t NowNs) {
  if (Ranks[size_t(Rank)].Untracked)
    return Error::success();
  if (In.Id == 0)
    return Error("communicator id 0");
  auto [It, New] = Comms.try_emplace(In.Id);
  CommState &C = It->second;
  if (New) {
    C.Id = In.Id;
    C.Size = In.Size;
    C.Api = wire::Api(In.Api);
    C.Parent = In.Parent;
    C.ParentSeq = In.ParentSeq;
    C.Ordinal = NextOrdinal++;
    // MPI_COMM_WORLD holds every rank, registered or not: a rank that dies
    // before its first MPI call is still missed by the others.
    if (In.Id == wire::MpiWorldId && In.Api == uint8_t(wire::Api::Mpi) &&
        int(In.Size) == worldSize())
      for (int R = 0; R < worldSize(); ++R) {
        C.Members[R].RankInComm = uint32_t(R);
        C.Departed += Ranks[size_t(R)].Departed;
      }
  } else if (C.Size != In.Size || C.Api != wire::Api(In.Api)) {
    return Error("communicator " + label(In.Id) + " has " + std::to_string(C.Size) +
                 " members for another rank, " + std::to_string(In.Size) + " for this one");
  }
  MemberTrace &M = C.Members[Rank];
  if (M.Registered && M.RankInComm != In.RankInComm)
    return Error("communicator " + label(In.Id) + " registered twice");
  if (M.Registered)
    return Error::success();
  for (const auto &[Other, T] : C.Members)
    if (Other != Rank && T.RankInComm == In.RankInComm)
      return Error("rank " + std::to_string(In.RankInComm) + " of " + label(In.Id) +
                   " is claimed by job ranks " + std::to_string(Other) + " and " +
                   std::to_string(Rank));
  if (C.Members.size() > C.Size)
    return Error("more members than the size of " + label(In.Id));
  M.Registered = true;
  M.RankInComm = In.RankInComm;
  M.LastChangeNs = NowNs;
  return Error::success();
}

Error Matcher::addCall(int Rank, uint64_t CommId, const Call &In, uint64_t NowNs) {
  RankState &R = Ranks[size_t(Rank)];
  if (R.Untracked || Found)
    return Error::success();
  auto It = Comms.find(CommId);
  if (It == Comms.end() || !It->second.Members.count(Rank) || !It->second.Members[Rank].Registered)
    return Error("a call on a communicator this rank has not registered");
  CommState &C = It->second;
  MemberTrace &M = C.Members[Rank];
  if (In.Seq <= M.Count)
    return Error("sequence number " + std::to_string(In.Seq) + " on " + label(CommId) + " after " +
                 std::to_string(M.Count));
  M.Lost += In.Seq - M.Count - 1;
  if (In.Seq - M.Count - 1 > MaxOpen)
    resync(C, In.Seq); // the rank lost that many calls: too far behind to match
  if (In.Seq >= C.ResyncFrom) {
    for (uint64_t Missing = std::max(M.Count + 1, C.ResyncFrom); Missing < In.Seq; ++Missing)
      if (++C.Open[Missing].Reported >= C.Size)
        C.Open.erase(Missing);
    CommState::Pending &P = C.Open[In.Seq];
    if (P.ReferenceRank < 0) {
      P.Reference = In;
      P.ReferenceRank = Rank;
      P.FirstNs = In.TimeNs;
    } else if (std::optional<std::string> Field = difference(P.Reference, In)) {
      // MPI_Finalize against another collective: that rank is leaving.
      bool RefLeaves = Dictionary.function(P.Reference.Func).Operation == "finalize";
      if (RefLeaves || Dictionary.function(In.Func).Operation == "finalize") {
        leave(CommId, In.Seq, RefLeaves ? P.ReferenceRank : Rank, std::max(P.FirstNs, In.TimeNs),
              NowNs, true);
      } else {
        Divergence D;
        D.K = DivergenceKind::Mismatch;
        D.Points = {{CommId, In.Seq, -1}};
        D.Field = *Field;
        D.Culprits = {std::min(P.ReferenceRank, Rank), std::max(P.ReferenceRank, Rank)};
        D.Calls = {{P.ReferenceRank, P.Reference}, {Rank, In}};
        D.CauseNs = std::max(P.FirstNs, In.TimeNs);
        report(D, NowNs);
      }
    }
    if (++P.Reported >= C.Size)
      C.Open.erase(In.Seq);
    if (C.Open.size() > MaxOpen)
      resync(C, In.Seq);
  }
  M.Count = In.Seq;
  M.LastChangeNs = NowNs;
  M.Recent.push_back(In);
  if (M.Recent.size() > Recent)
    M.Recent.pop_front();
  R.Latest = {{CommId, In.Seq}};
  ++R.Calls;
  SiteRanks[In.Site].insert(Rank);
  Changed = true;
  checkLeft(C, NowNs);
  return Error::success();
}

void Matcher::resync(CommState &C, uint64_t Seq) {
  // Matching starts afresh above every member's last report, so that no
  // collective is compared against a half-known past; the stall detector,
  // which works on counts, is not affected.
  uint64_t Top = Seq;
  for (const auto &[R, T] : C.Members)
    Top = std::max(Top, T.Count);
  C.ResyncFrom = Top + 1;
  C.Open.clear();
}

void Matcher::heartbeat(int Rank, const wire::Beat &B, uint64_t NowNs) {
  RankState &R = Ranks[size_t(Rank)];
  R.Dropped = std::max(R.Dropped, B.Dropped);
  for (const wire::Beat::Lane &L : B.Lanes) {
    auto It = Comms.find(L.Comm);
    if (It == Comms.end())
      continue; // its registration is still in flight, or was dropped
    auto M = It->second.Members.find(Rank);
    if (M == It->second.Members.end() || !M->second.Registered)
      continue;
    MemberTrace &T = M->second;
    if (L.Calls > T.Claimed || L.Returned != T.Returned) {
      T.Claimed = std::max(T.Claimed, L.Calls);
      T.Returned = L.Returned;
      T.LastChangeNs = NowNs;
      Changed = true;
    }
  }
}

bool Matcher::incomplete(int Rank) const {
  if (Ranks[size_t(Rank)].Dropped)
    return true;
  for (const auto &[Id, C] : Comms)
    if (auto M = C.Members.find(Rank); M != C.Members.end() && M->second.Lost)
      return true;
  return false;
}

void Matcher::connected(int Rank) { Ranks[size_t(Rank)].Connected = true; }

void Matcher::bye(int Rank, const wire::Bye &B) {
  RankState &R = Ranks[size_t(Rank)];
  R.Dropped = B.Dropped;
  R.LeftMpiOpen = B.Flags & wire::LeftMpiOpen;
  R.MpiUnverified = B.Flags & wire::MpiUnverified;
}

void Matcher::departed(int Rank, bool Bye, uint64_t NowNs) {
  RankState &R = Ranks[size_t(Rank)];
  if (R.Departed)
    return;
  R.Departed = true;
  R.SaidBye = Bye;
  R.DepartedNs = NowNs;
  Changed = true;
  for (auto &[Id, C] : Comms)
    if (C.Members.count(Rank)) {
      ++C.Departed;
      checkLeft(C, NowNs);
    }
}

void Matcher::untrack(int Rank) {
  Ranks[size_t(Rank)].Untracked = true;
  Changed = true;
}

const Call *Matcher::call(uint64_t CommId, int Rank, uint64_t Seq) const {
  auto It = Comms.find(CommId);
  if (It == Comms.end())
    return nullptr;
  auto M = It->second.Members.find(Rank);
  if (M == It->second.Members.end())
    return nullptr;
  for (const Call &C : M->second.Recent)
    if (C.Seq == Seq)
      return &C;
  return nullptr;
}

std::optional<std::string> Matcher::difference(const Call &A, const Call &B) const {
  const Function &FA = Dictionary.function(A.Func), &FB = Dictionary.function(B.Func);
  if (FA.Operation != FB.Operation)
    return "operation";
  if ((FA.Flags ^ FB.Flags) & wire::NonblockingCall)
    return "blocking and nonblocking";
  if (A.Root != wire::NoRoot && B.Root != wire::NoRoot && A.Root != B.Root)
    return "root";
  if (A.Count != wire::NoCount && B.Count != wire::NoCount && A.Count != B.Count)
    return "count";
  if (A.Datatype != NoName && B.Datatype != NoName && A.Datatype != B.Datatype)
    return "datatype";
  if (A.Op != NoName && B.Op != NoName && A.Op != B.Op)
    return "reduction operator";
  return std::nullopt;
}

void Matcher::report(Divergence D, uint64_t NowNs) {
  if (Found)
    return;
  D.DetectedNs = NowNs;
  for (const auto &P : D.Points) {
    if (P.Rank >= 0) {
      if (const Call *C = call(P.Comm, P.Rank, P.Seq))
        D.Calls.emplace(P.Rank, *C);
      continue;
    }
    for (const auto &[R, _] : Comms.at(P.Comm).Members)
      if (const Call *C = call(P.Comm, R, P.Seq))
        D.Calls.emplace(R, *C);
  }
  Found = std::move(D);
}

void Matcher::checkLeft(CommState &C, uint64_t NowNs) {
  // Runs on every call and every departure: linear in the members at most,
  // and only once a member is gone and nothing has been found yet.
  if (C.Departed == 0 || Found || PendingLeft)
    return;
  uint64_t Top = 0;
  for (const auto &[R, T] : C.Members)
    if (!Ranks[size_t(R)].Untracked)
      Top = std::max(Top, T.known());
  for (const auto &[Gone, Trace] : C.Members) {
    const RankState &G = Ranks[size_t(Gone)];
    uint64_t Next = Trace.known() + 1;
    if (!G.Departed || G.Untracked || Top < Next)
      continue;
    auto Open = C.Open.find(Next);
    return leave(C.Id, Next, Gone,
                 std::max(G.DepartedNs, Open != C.Open.end() ? Open->second.FirstNs : NowNs), NowNs,
                 false);
  }
}

bool Matcher::leftBroken(int Rank) const {
  // MPI ends a job whose rank leaves without MPI_Finalize: whoever is still
  // running will be killed or hang, whether or not it called anything yet.
  const RankState &R = Ranks[size_t(Rank)];
  if (!R.Departed || !R.Connected || R.Untracked || (R.SaidBye && !R.LeftMpiOpen))
    return false;
  for (const auto &[Id, C] : Comms) {
    // A member it never registered is MPI_COMM_WORLD, whose members are
    // known from the start: killed early, it may not have said more.
    auto M = C.Members.find(Rank);
    if (C.Api != wire::Api::Mpi || M == C.Members.end())
      continue;
    const Call *Last = M->second.Recent.empty() ? nullptr : &M->second.Recent.back();
    if (Last && Dictionary.function(Last->Func).Operation == "finalize")
      return false; // crashed or killed after MPI_Finalize: nothing to break
    return true;
  }
  return false;
}

void Matcher::checkAbandoned(uint64_t NowNs) {
  int First = -1;
  for (int R = 0; R < worldSize(); ++R)
    if (leftBroken(R) &&
        (First < 0 || Ranks[size_t(R)].DepartedNs < Ranks[size_t(First)].DepartedNs))
      First = R;
  if (First < 0)
    return;
  const RankState &G = Ranks[size_t(First)];
  bool Abandoned = false; // someone was still running when it left
  for (int R = 0; R < worldSize(); ++R)
    Abandoned |= R != First && !Ranks[size_t(R)].Untracked && Ranks[size_t(R)].Connected &&
                 (!Ranks[size_t(R)].Departed ||
                  (Ranks[size_t(R)].DepartedNs >= G.DepartedNs && leftBroken(R)));
  if (!Abandoned)
    return;
  // The point: the next collective on its widest MPI communicator.
  const CommState *Where = nullptr;
  for (const auto &[Id, C] : Comms)
    if (C.Api == wire::Api::Mpi && C.Members.count(First) && (!Where || C.Size > Where->Size))
      Where = &C;
  leave(Where->Id, Where->Members.at(First).known() + 1, First, G.DepartedNs, NowNs, false);
}

void Matcher::leave(uint64_t Comm, uint64_t Seq, int First, uint64_t CauseNs, uint64_t NowNs,
                    bool Finalize) {
  if (Found || PendingLeft)
    return;
  Divergence D;
  D.K = DivergenceKind::Left;
  D.Points = {{Comm, Seq, -1}};
  D.Culprits = {First};
  D.Field = Finalize ? "finalize" : "";
  D.CauseNs = CauseNs;
  PendingLeft = D;
  PendingSinceNs = NowNs;
}

void Matcher::reportLeft(uint64_t NowNs) {
  // Named: the first to leave, and every member that left too without
  // calling the point, or called MPI_Finalize there, before now.
  Divergence D = *PendingLeft;
  PendingLeft.reset();
  const auto &P = D.Points.front();
  const CommState &C = Comms.at(P.Comm);
  for (const auto &[R, T] : C.Members) {
    const Call *There = call(P.Comm, R, P.Seq);
    bool Finalized = There && Dictionary.function(There->Func).Operation == "finalize";
    if (R != D.Culprits.front() && ((Ranks[size_t(R)].Departed && T.known() < P.Seq) || Finalized))
      D.Culprits.push_back(R);
  }
  std::sort(D.Culprits.begin(), D.Culprits.end());
  report(D, NowNs);
}

void Matcher::checkDeadlock(uint64_t NowNs) {
  // A rank whose latest call waits for all members cannot have finished it
  // while a member has not entered it; ranks waiting for each other in a
  // cycle never will (sound even with reports in flight: each rank's
  // reports arrive in the order it made the calls).
  // On one communicator a rank only waits for members that are behind it,
  // and they for members further behind: a cycle needs two communicators.
  std::set<uint64_t> Lanes;
  for (int R = 0; R < worldSize() && Lanes.size() < 2; ++R)
    if (live(R) && Ranks[size_t(R)].Latest)
      Lanes.insert(Ranks[size_t(R)].Latest->first);
  if (Lanes.size() < 2)
    return;
  std::map<int, std::vector<int>> Waits;
  for (int R = 0; R < worldSize(); ++R) {
    if (!live(R) || !Ranks[size_t(R)].Latest)
      continue;
    auto [CommId, Seq] = *Ranks[size_t(R)].Latest;
    const Call *C = call(CommId, R, Seq);
    if (!C || !waitsForAll(Dictionary.function(C->Func), *C))
      continue;
    for (const auto &[M, T] : Comms.at(CommId).Members)
      if (M != R && T.Count < Seq && live(M))
        Waits[R].push_back(M);
  }
  std::map<int, int> State; // 1: on the path, 2: done
  std::vector<int> Path;
  std::function<bool(int)> Visit = [&](int R) {
    State[R] = 1;
    Path.push_back(R);
    auto Edges = Waits.find(R);
    for (int M : Edges == Waits.end() ? std::vector<int>{} : Edges->second) {
      if (State[M] == 1) {
        Path.erase(Path.begin(), std::find(Path.begin(), Path.end(), M));
        return true;
      }
      if (State[M] == 0 && Visit(M))
        return true;
    }
    State[R] = 2;
    Path.pop_back();
    return false;
  };
  for (const auto &[R, _] : Waits) {
    if (State[R] != 0 || !Visit(R))
      continue;
    Divergence D;
    D.K = DivergenceKind::Deadlock;
    for (int Member : Path) {
      auto [CommId, Seq] = *Ranks[size_t(Member)].Latest;
      D.Points.push_back({CommId, Seq, Member});
      D.CauseNs = std::max(D.CauseNs, call(CommId, Member, Seq)->TimeNs);
    }
    D.Culprits = Path;
    return report(D, NowNs);
  }
}

void Matcher::checkStall(uint64_t NowNs) {
  // Works on where each member is (records, or heartbeats where records
  // were lost), so a hang is found even when the reports of the diverging
  // calls never arrived.
  if (StallNs == 0)
    return;
  auto QuietSince = [&](uint64_t Ns) { return NowNs - std::min(NowNs, Ns) >= StallNs; };
  for (const auto &[Id, C] : Comms) {
    uint64_t Bottom = UINT64_MAX, Top = 0;
    for (const auto &[R, T] : C.Members)
      if (live(R)) {
        Bottom = std::min(Bottom, T.known());
        Top = std::max(Top, T.known());
      }
    if (Top == 0)
      continue;
    // The point: the first collective some member has not called, or, when
    // all are level, the one they are all inside.
    uint64_t Seq = Top > Bottom ? Bottom + 1 : Top;
    bool LaggardsQuiet = true, LeaderWaited = false, AllInside = true;
    uint64_t CauseNs = 0;
    std::vector<int> Unrecorded;
    for (const auto &[R, T] : C.Members) {
      if (!live(R))
        continue;
      AllInside &= T.Returned < T.known();
      if (T.known() < Seq || !call(Id, R, Seq))
        Unrecorded.push_back(R);
      if (T.known() < Seq || Top == Bottom) {
        LaggardsQuiet &= QuietSince(T.LastChangeNs);
        CauseNs = std::max(CauseNs, T.LastChangeNs);
      } else {
        // Its last move came after it reached Seq: quiet that long means
        // it has been past Seq at least that long.
        LeaderWaited |= QuietSince(T.LastChangeNs);
      }
    }
    if (auto Open = C.Open.find(Seq); Open != C.Open.end() && Open->second.ReferenceRank >= 0) {
      LeaderWaited |= QuietSince(Open->second.FirstNs);
      CauseNs = std::max(CauseNs, Open->second.FirstNs);
    }
    bool Stalled = Top > Bottom ? LaggardsQuiet && LeaderWaited : LaggardsQuiet && AllInside;
    if (!Stalled)
      continue;
    Divergence D;
    D.K = DivergenceKind::Stall;
    D.Points = {{Id, Seq, -1}};
    D.Culprits = Unrecorded;
    D.CauseNs = CauseNs;
    return report(D, NowNs);
  }
}

void Matcher::finish(uint64_t NowNs) {
  if (Found)
    return;
  checkAbandoned(NowNs);
  if (PendingLeft)
    reportLeft(NowNs);
}

void Matcher::tick(uint64_t NowNs) {
  if (Found)
    return;
  checkAbandoned(NowNs);
  if (PendingLeft) { // the better diagnosis of what follows: nothing else is looked for
    if (NowNs - PendingSinceNs >= LeftGraceNs)
      reportLeft(NowNs);
    return;
  }
  if (Changed && NowNs >= NextDeadlockCheckNs) {
    Changed = false;
    NextDeadlockCheckNs = NowNs + DeadlockPeriodNs;
    checkDeadlock(NowNs);
  }
  checkStall(NowNs);
}

} // namespace lockstep::run
