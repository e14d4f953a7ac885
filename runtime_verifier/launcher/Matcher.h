// The coordinator's model of the job: which ranks belong to which
// communicator, the k-th collective of each communicator on each member,
// and the first divergence. Fed with validated messages by the
// Coordinator; knows nothing about sockets or processes, so it is tested
// on its own.
#pragma once

#include "../common/Wire.h"

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace lockstep::run {

/// Job-wide names: every connection's ids are translated into these.
struct Function {
  std::string Name, Operation;
  uint64_t Flags = 0;
};
struct Site {
  std::string Module, Symbol;
  uint64_t Offset = 0;
};
class Names {
public:
  uint32_t function(const Function &F);
  uint32_t text(const std::string &S);
  uint32_t site(const Site &S);
  const Function &function(uint32_t Id) const { return Functions[Id]; }
  const std::string &text(uint32_t Id) const { return Texts[Id]; }
  const Site &site(uint32_t Id) const { return Sites[Id]; }
  size_t siteCount() const { return Sites.size(); }

private:
  std::vector<Function> Functions;
  std::vector<std::string> Texts;
  std::vector<Site> Sites;
  std::map<std::string, uint32_t> FunctionIds, TextIds, SiteIds;
};

constexpr uint32_t NoName = wire::None;

/// One collective call, with job-wide ids.
struct Call {
  uint64_t Seq = 0;
  uint32_t Func = 0, Datatype = NoName, Op = NoName, Site = 0, Flags = 0;
  int32_t Root = wire::NoRoot;
  int64_t Count = wire::NoCount;
  uint64_t TimeNs = 0; // when the rank made the call, on the coordinator's clock
};

struct MemberTrace {
  uint32_t RankInComm = 0;
  bool Registered = false; // the member itself reported the communicator
  uint64_t Count = 0;      // calls received so far (the last sequence number)
  uint64_t Claimed = 0;    // calls the rank's heartbeat counts, records lost or not
  uint64_t Returned = 0;   // of those, calls that returned (heartbeat)
  uint64_t LastChangeNs = 0;
  uint64_t Lost = 0;       // sequence numbers skipped (the rank's ring was full)
  std::deque<Call> Recent; // the last Matcher::Recent calls
  /// Where the rank is: its records, or its heartbeat when records were lost.
  uint64_t known() const { return Count > Claimed ? Count : Claimed; }
};

struct CommState {
  uint64_t Id = 0;
  uint32_t Size = 0;
  wire::Api Api = wire::Api::Mpi;
  uint64_t Parent = 0, ParentSeq = 0;
  int Ordinal = 0;                    // order of first registration, for labels
  std::map<int, MemberTrace> Members; // by job rank
  struct Pending {
    Call Reference;
    int ReferenceRank = -1;
    uint32_t Reported = 0;
    uint64_t FirstNs = 0;
  };
  std::map<uint64_t, Pending> Open; // collectives not yet reported by every member
  /// Collectives below this number were not all compared: one member's
  /// reports fell more than MaxOpen behind another's, and matching started
  /// afresh here (0: never).
  uint64_t ResyncFrom = 0;
  int Departed = 0; // members gone: until one is, no call can leave one behind
};

struct RankState {
  bool Connected = false, Departed = false, Untracked = false, SaidBye = false;
  bool LeftMpiOpen = false;   // said goodbye with MPI initialized and not finalized
  bool MpiUnverified = false; // its MPI_COMM_WORLD was not the job's (started without --mpi)
  uint64_t DepartedNs = 0, Dropped = 0, Calls = 0;
  std::string Exit; // "exited with code 1", "killed by SIGKILL", ...
  std::optional<std::pair<uint64_t, uint64_t>> Latest; // (communicator, sequence number)
};

enum class DivergenceKind { Mismatch, Left, Deadlock, Stall };

/// The first divergence. Rows name the collective(s) in question: one for a
/// mismatch, a departure or a stall, one per rank of a deadlock cycle.
struct Divergence {
  DivergenceKind K = DivergenceKind::Mismatch;
  struct Point {
    uint64_t Comm = 0, Seq = 0;
    int Rank = -1; // deadlock: the rank waiting at (Comm, Seq)
  };
  std::vector<Point> Points;
  std::string Field;         // mismatch: what differs ("operation", "count", ...);
                             // rank-left: "finalize" when the ranks left through MPI_Finalize
  std::vector<int> Culprits; // mismatch: the two ranks compared; left: who left first;
                             // stall: members without a record of the point
  std::map<int, Call> Calls; // by rank: its call at the diverging point, when it made one
  uint64_t CauseNs = 0, DetectedNs = 0;
};

class Matcher {
public:
  static constexpr size_t Recent = 16;
  static constexpr size_t MaxOpen = 1 << 16;
  /// A rank-left is reported this long after it is seen: time for the
  /// reports in flight and for ranks that leave at the same moment, so that
  /// every rank that left first is named (and none the launcher killed later).
  static constexpr uint64_t LeftGraceNs = 250'000'000;
  /// Deadlock cycles are looked for at most this often: the search costs
  /// members x ranks, and a cycle does not go away.
  static constexpr uint64_t DeadlockPeriodNs = 100'000'000;

  Matcher(int WorldSize, uint64_t StallTimeoutNs);

  Names &names() { return Dictionary; }
  const Names &names() const { return Dictionary; }

  /// Each fails with why the message breaks the protocol (the coordinator
  /// then drops the connection). Calls after the first divergence are not
  /// recorded: the traces stay as they were when it was found.
  Error addComm(int Rank, const wire::Comm &C, uint64_t NowNs);
  Error addCall(int Rank, uint64_t CommId, const Call &C, uint64_t NowNs);

  void connected(int Rank);
  /// The rank said goodbye (its connection closes next).
  void bye(int Rank, const wire::Bye &B);
  /// The rank is gone: \p Bye when it said goodbye first.
  void departed(int Rank, bool Bye, uint64_t NowNs);
  /// The rank's reports can no longer be trusted (protocol violation).
  void untrack(int Rank);
  void setExit(int Rank, const std::string &How) { Ranks[size_t(Rank)].Exit = How; }
  /// What the rank's heartbeat says it has done.
  void heartbeat(int Rank, const wire::Beat &B, uint64_t NowNs);
  /// True when some of the rank's records never reached the coordinator.
  bool incomplete(int Rank) const;

  /// Time-based checks: the stall timeout, deadlock cycles, rank-left.
  void tick(uint64_t NowNs);
  /// The job is down: a rank-left still in its grace period is reported.
  void finish(uint64_t NowNs);

  const std::optional<Divergence> &divergence() const { return Found; }
  const std::map<uint64_t, CommState> &comms() const { return Comms; }
  const std::vector<RankState> &ranks() const { return Ranks; }
  int worldSize() const { return int(Ranks.size()); }
  /// Job ranks that made at least one call at each site.
  const std::map<uint32_t, std::set<int>> &siteRanks() const { return SiteRanks; }
  /// "MPI_COMM_WORLD", "MPI communicator 2", "NCCL communicator 1".
  std::string label(uint64_t CommId) const;
  /// What differs between two calls ("" when they match).
  std::optional<std::string> difference(const Call &A, const Call &B) const;
  /// The call \p Rank made as collective \p Seq of \p CommId, if still known.
  const Call *call(uint64_t CommId, int Rank, uint64_t Seq) const;

private:
  void report(Divergence D, uint64_t NowNs);
  void checkLeft(CommState &C, uint64_t NowNs);
  void checkAbandoned(uint64_t NowNs);
  void leave(uint64_t Comm, uint64_t Seq, int First, uint64_t CauseNs, uint64_t NowNs,
             bool Finalize);
  void reportLeft(uint64_t NowNs);
  bool leftBroken(int Rank) const;
  void checkDeadlock(uint64_t NowNs);
  void checkStall(uint64_t NowNs);
  void resync(CommState &C, uint64_t Seq);
  bool live(int Rank) const;

  Names Dictionary;
  std::vector<RankState> Ranks;
  std::map<uint64_t, CommState> Comms;
  std::map<uint32_t, std::set<int>> SiteRanks;
  std::optional<Divergence> Found;
  std::optional<Divergence> PendingLeft; // seen, reported after LeftGraceNs
  uint64_t PendingSinceNs = 0;
  uint64_t StallNs;
  bool Changed = false; // since the last deadlock check
  uint64_t NextDeadlockCheckNs = 0;
  int NextOrdinal = 1;
};

} // namespace lockstep::run
