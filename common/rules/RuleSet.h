// The rules data model: what lockstep knows about collectives, rank sources
// and uniform sources. Filled only by RulesLoader; read by the engine and by
// the runtime verifier's wrapper generator. Knows nothing about Clang.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lockstep::rules {

/// Where a value lives in a call: an argument index, the implicit object of
/// a method call ("receiver"), or a field of an argument ("1.rootRank").
struct ArgRef {
  enum class Kind { Absent, Argument, Receiver };
  Kind K = Kind::Absent;
  unsigned Index = 0;
  std::string Field;
};

struct CollectiveRule {
  std::string Name;      // qualified: "MPI_Bcast", "c10d::ProcessGroup::broadcast"
  std::string Api;       // the "api" of the file that declared it
  std::string Operation; // "allreduce", "barrier", "comm_split", ...
  bool Blocking = true;
  // Whether a member that enters it waits for the others. `MPI_Comm_free` is
  // collective but local in practice: a rank that skips it, or makes it in
  // another order, stalls no one, so it is no event a rank can hang in.
  bool Synchronizes = true;
  // The call only starts the operation, which then progresses without this
  // rank (MPI's nonblocking collectives, completed by a request): a rank
  // that starts it waits for no one, so its order against collectives on
  // other communicators cannot hang the job. Not NCCL's or c10d's
  // asynchronous calls: their kernels wait on the device, in stream order.
  bool StartsLocally = false;
  ArgRef Comm, Root, Count, Datatype, Op, Send, Recv;
  // A size every rank must pass alike, though it is no count of elements
  // (MPI_File_set_size, MPI_File_preallocate: the file's new size).
  ArgRef Size;
  ArgRef Color, NewComm; // communicator creation: the split colour, the new handle
  // The library also parts the ranks by where they run (MPI_Comm_split_type:
  // one part per node), so the parts and their sizes differ between ranks
  // whatever colour argument they agree on.
  bool PartsByPlacement = false;
  // A sub-grid of a Cartesian communicator (MPI_Cart_sub): which dimensions
  // it keeps; its members share their coordinates in the others.
  ArgRef RemainDims;
  // A call collective over the members of a group, not over `comm`
  // (MPI_Comm_create_group): only its callers take part.
  ArgRef Group;
  // Every rank of `comm` calls it, and only the members of this group (a
  // rank set) receive `new_comm`; the others receive a null handle
  // (MPI_Comm_create).
  ArgRef MemberGroup;
  // A file or window the call creates on `comm` (new_handle), or acts on
  // (handle): the collective runs on the communicator it was created on.
  ArgRef Handle, NewHandle;
  std::vector<unsigned> UniformOutputs; // arguments every rank leaves equal
  // A rank that passes the in-place marker (MPI_IN_PLACE) as `buffer` does
  // not read its own count and datatype there: what it contributes is
  // described by `count` and `datatype` instead (the receive side).
  struct InPlaceForm {
    std::string Marker;
    ArgRef Buffer, Count, Datatype;
  };
  std::optional<InPlaceForm> InPlace;
  std::string Origin; // the rules file
};

enum class GroupRole { Begin, End };

struct GroupMarkerRule {
  std::string Name;
  GroupRole Role = GroupRole::Begin;
  std::string Origin;
};

/// A function that produces a rank (rank source) or a value equal on every
/// rank (uniform source), through an out-parameter or its return value.
struct ValueSourceRule {
  std::string Function;
  std::optional<unsigned> OutArg;
  bool Returns = false;
  bool WorldSize = false; // uniform sources only: the value is the world size
  std::string Origin;
};

/// A function whose result each rank reads for itself (a clock, a random
/// number, a host or device query, a received message): values computed from
/// it differ between ranks until a collective agrees on them.
struct PerRankSourceRule {
  std::string Function;
  std::vector<unsigned> OutArgs; // the arguments it writes the data through
  bool Returns = false;          // it returns the data
  std::string Why;               // what the data is, for the notes: "a clock reading"
  // Only where this argument differs between ranks (a read at a per-rank
  // offset, `MPI_File_read_at_all(fh, rank * n, ...)`); always when unset.
  std::optional<unsigned> When;
  std::string Origin;
};

/// A function that builds a set of ranks (an MPI group) from a
/// communicator or from another set: all the members of `source`, or those
/// it lists (or does not list) in `ranks`, `count` ranks or `count`
/// (first, last, stride) triples. Membership of a communicator created from
/// a set (a collective's `member_group`) follows from it.
struct RankSetRule {
  enum class Members { All, Listed, Unlisted, ListedRanges, UnlistedRanges };
  std::string Function;
  Members Of = Members::All;
  unsigned Source = 0; // the communicator (All) or the set it picks from
  unsigned Count = 0, Ranks = 0;
  unsigned NewSet = 0; // where it writes the set
  std::string Origin;
};

/// A function that copies memory (`memcpy`, `cudaMemcpy`): what argument
/// `To` points to holds, after it, what argument `From` points to. A value
/// an allreduce agreed on device memory stays agreed once copied to the host.
struct CopyRule {
  std::string Function;
  unsigned To = 0, From = 0;
  std::string Origin;
};

/// An uneven-input join protocol: inside its region, ranks that run out of
/// input early shadow the collectives of `shadows` until every rank joins.
/// The region is the lifetime of a `guard` object, or the code between calls
/// to `begin` and `end`.
struct JoinProtocolRule {
  std::string Name;
  std::string Guard;      // qualified class name, or empty
  std::string Begin, End; // qualified function names, or empty
  std::vector<std::string> Shadows;
  std::string Origin;
};

/// The results of an API's calls that report success or failure: a status
/// check on them (`r != ncclSuccess`) decides an error path, not divergence.
/// The calls are those returning `type` (a typedef or enum name) or those
/// whose name matches `functions` (a regular expression); success is the
/// enumerator `success` of that type, or `value` when given (`MPI_SUCCESS`
/// is a macro: the AST sees only its value). With `"failure": "null"`
/// instead, the calls return a pointer that is null when they failed
/// (`fopen`, `malloc`).
struct StatusRule {
  std::string Type;
  std::string Functions;
  std::string Success;
  std::optional<long long> Value;
  bool NullFails = false;
  std::string Origin;
};

struct EnvironmentRules {
  std::vector<std::string> Readers;            // getenv and friends
  std::vector<std::string> RankVariables;      // RANK, LOCAL_RANK, ...
  std::vector<std::string> WorldSizeVariables; // WORLD_SIZE, ...
  std::vector<std::string> Converters;         // atoi and friends: keep the value they parse
};

struct NamingRules {
  std::string RankPattern;      // ECMAScript regex, matched case-insensitively
  std::string WorldSizePattern; // idem
  std::string Origin;
};

struct RuleSet {
  std::vector<CollectiveRule> Collectives;
  std::vector<GroupMarkerRule> GroupMarkers;
  std::vector<ValueSourceRule> RankSources;
  std::vector<ValueSourceRule> UniformSources;
  std::vector<PerRankSourceRule> PerRankSources;
  std::vector<JoinProtocolRule> JoinProtocols;
  std::vector<StatusRule> Statuses;
  std::vector<CopyRule> Copies;
  std::vector<RankSetRule> RankSets;
  // Functions that end every process of the job (`MPI_Abort`): no rank is
  // left waiting for one that calls them.
  std::vector<std::string> JobAborts;
  EnvironmentRules Environment;
  NamingRules Naming;
  std::vector<std::string> Files; // every file merged, in order

  const CollectiveRule *findCollective(const std::string &Name) const;
  const GroupMarkerRule *findGroupMarker(const std::string &Name) const;
  const ValueSourceRule *findRankSource(const std::string &Name) const;
  const ValueSourceRule *findUniformSource(const std::string &Name) const;
  const PerRankSourceRule *findPerRankSource(const std::string &Name) const;
  const CopyRule *findCopy(const std::string &Name) const;
  const RankSetRule *findRankSet(const std::string &Name) const;
};

} // namespace lockstep::rules
