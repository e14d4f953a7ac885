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
  Kind kind = Kind::Absent;
  unsigned index = 0;
  std::string field;
};

struct CollectiveRule {
  std::string name;      // qualified: "MPI_Bcast", "c10d::ProcessGroup::broadcast"
  std::string api;       // the "api" of the file that declared it
  std::string operation; // "allreduce", "barrier", "comm_split", ...
  bool blocking = true;
  ArgRef comm, root, count, datatype, op, send, recv;
  ArgRef color, newComm;                // communicator creation: the split colour, the new handle
  std::vector<unsigned> uniformOutputs; // arguments every rank leaves equal
  // A rank that passes the in-place marker (MPI_IN_PLACE) as `buffer` does
  // not read its own count and datatype there: what it contributes is
  // described by `count` and `datatype` instead (the receive side).
  struct InPlace {
    std::string marker;
    ArgRef buffer, count, datatype;
  };
  std::optional<InPlace> inPlace;
  std::string origin; // the rules file
};

enum class GroupRole { Begin, End };

struct GroupMarkerRule {
  std::string name;
  GroupRole role = GroupRole::Begin;
  std::string origin;
};

/// A function that produces a rank (rank source) or a value equal on every
/// rank (uniform source), through an out-parameter or its return value.
struct ValueSourceRule {
  std::string function;
  std::optional<unsigned> outArg;
  bool returns = false;
  bool worldSize = false; // uniform sources only: the value is the world size
  std::string origin;
};

/// A function whose result each rank reads for itself (a clock, a random
/// number, a host or device query, a received message): values computed from
/// it differ between ranks until a collective agrees on them.
struct PerRankSourceRule {
  std::string function;
  std::optional<unsigned> outArg; // the argument it writes the data through
  bool returns = false;           // it returns the data
  std::string why;                // what the data is, for the notes: "a clock reading"
  std::string origin;
};

/// An uneven-input join protocol: inside its region, ranks that run out of
/// input early shadow the collectives of `shadows` until every rank joins.
/// The region is the lifetime of a `guard` object, or the code between calls
/// to `begin` and `end`.
struct JoinProtocolRule {
  std::string name;
  std::string guard;      // qualified class name, or empty
  std::string begin, end; // qualified function names, or empty
  std::vector<std::string> shadows;
  std::string origin;
};

/// The results of an API's calls that report success or failure: a status
/// check on them (`r != ncclSuccess`) decides an error path, not divergence.
/// The calls are those returning `type` (a typedef or enum name) or those
/// whose name matches `functions` (a regular expression); success is the
/// enumerator `success` of that type, or `value` when given (`MPI_SUCCESS`
/// is a macro: the AST sees only its value).
struct StatusRule {
  std::string type;
  std::string functions;
  std::string success;
  std::optional<long long> value;
  std::string origin;
};

struct EnvironmentRules {
  std::vector<std::string> readers;            // getenv and friends
  std::vector<std::string> rankVariables;      // RANK, LOCAL_RANK, ...
  std::vector<std::string> worldSizeVariables; // WORLD_SIZE, ...
  std::vector<std::string> converters;         // atoi and friends: keep the value they parse
};

struct NamingRules {
  std::string rankPattern;      // ECMAScript regex, matched case-insensitively
  std::string worldSizePattern; // idem
  std::string origin;
};

struct RuleSet {
  std::vector<CollectiveRule> collectives;
  std::vector<GroupMarkerRule> groupMarkers;
  std::vector<ValueSourceRule> rankSources;
  std::vector<ValueSourceRule> uniformSources;
  std::vector<PerRankSourceRule> perRankSources;
  std::vector<JoinProtocolRule> joinProtocols;
  std::vector<StatusRule> statuses;
  EnvironmentRules environment;
  NamingRules naming;
  std::vector<std::string> files; // every file merged, in order

  const CollectiveRule *findCollective(const std::string &name) const;
  const GroupMarkerRule *findGroupMarker(const std::string &name) const;
  const ValueSourceRule *findRankSource(const std::string &name) const;
  const ValueSourceRule *findUniformSource(const std::string &name) const;
  const PerRankSourceRule *findPerRankSource(const std::string &name) const;
};

} // namespace lockstep::rules
