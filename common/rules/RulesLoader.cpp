#include "RulesLoader.h"
#include "JsonReader.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace lockstep::rules {
namespace {

using nlohmann::json;
using json_reader::Reader;
using json_reader::typeName;

/// An argument reference: 3, "receiver", or "1.rootRank".
bool argRef(Reader &R, const char *Key, ArgRef &Out) {
  if (!R.has(Key))
    return true;
  const json &V = R.at(Key);
  if (V.is_number_unsigned() && V.get<unsigned long long>() <= 64) {
    Out.kind = ArgRef::Kind::Argument;
    Out.index = V.get<unsigned>();
    return true;
  }
  static const std::regex FieldRef("^([0-9]{1,2})\\.([A-Za-z_][A-Za-z0-9_]*)$");
  std::smatch Match;
  if (V.is_string()) {
    const std::string S = V.get<std::string>();
    if (S == "receiver") {
      Out.kind = ArgRef::Kind::Receiver;
      return true;
    }
    if (std::regex_match(S, Match, FieldRef)) {
      Out.kind = ArgRef::Kind::Argument;
      Out.index = static_cast<unsigned>(std::stoul(Match[1]));
      Out.field = Match[2];
      return true;
    }
  }
  return R.fail(Key, "expected an argument index, \"receiver\" or \"<index>.<field>\", found " +
                         V.dump());
}

std::string entryContext(const std::string &File, const char *Section, size_t Index,
                         const json &Entry, const char *NameKey) {
  std::string Context = File + ": " + Section + "[" + std::to_string(Index) + "]";
  if (Entry.is_object() && Entry.contains(NameKey) && Entry.at(NameKey).is_string())
    Context += " ('" + Entry.at(NameKey).get<std::string>() + "')";
  return Context;
}

/// The operations the checks and the runtime verifier know; a misspelt one
/// would silently never match.
const std::set<std::string> &knownOperations() {
  static const std::set<std::string> Known = {
      "allgather",      "allreduce", "alltoall",   "barrier",         "broadcast",
      "comm_create",    "comm_dup",  "comm_free",  "comm_init",       "comm_shrink",
      "comm_split",     "file_close", "file_open", "finalize",        "gather",
      "reduce",         "reduce_scatter", "scan",  "scatter",         "window_create",
      "window_deregister", "window_fence", "window_register"};
  return Known;
}

bool readInPlace(const json &Entry, const std::string &Context, CollectiveRule &Rule,
                 std::string &Error) {
  Reader R(Entry, Context + ": in_place", Error);
  CollectiveRule::InPlace In;
  std::string Buffer;
  if (!R.onlyKeys({"marker", "buffer", "count", "datatype"}) || !R.string("marker", In.marker) ||
      !R.string("buffer", Buffer) || !argRef(R, "count", In.count) ||
      !argRef(R, "datatype", In.datatype))
    return false;
  if (In.marker.empty())
    return R.fail("marker", "missing required field");
  if (Buffer != "send" && Buffer != "recv")
    return R.fail("buffer", "expected \"send\" or \"recv\", found \"" + Buffer + "\"");
  In.buffer = Buffer == "send" ? Rule.send : Rule.recv;
  if (In.buffer.kind == ArgRef::Kind::Absent)
    return R.fail("buffer", "names the " + Buffer + " buffer, which \"args\" does not give");
  Rule.inPlace = std::move(In);
  return true;
}

bool readCollective(const json &Entry, const std::string &Context, const std::string &Api,
                    const std::string &File, CollectiveRule &Rule, std::string &Error) {
  Reader R(Entry, Context, Error);
  if (!R.onlyKeys({"name", "operation", "blocking", "args", "uniform_outputs", "in_place"}) ||
      !R.string("name", Rule.name) || !R.string("operation", Rule.operation) ||
      !R.boolean("blocking", Rule.blocking) || !R.indexList("uniform_outputs", Rule.uniformOutputs))
    return false;
  if (!R.has("args"))
    return R.fail("args", "missing required field");
  Reader Args(Entry.at("args"), Context + ": args", Error);
  if (!Args.onlyKeys({"comm", "root", "count", "datatype", "op", "send", "recv", "color",
                      "new_comm"}) ||
      !argRef(Args, "comm", Rule.comm) || !argRef(Args, "root", Rule.root) ||
      !argRef(Args, "count", Rule.count) || !argRef(Args, "datatype", Rule.datatype) ||
      !argRef(Args, "op", Rule.op) || !argRef(Args, "send", Rule.send) ||
      !argRef(Args, "recv", Rule.recv) || !argRef(Args, "color", Rule.color) ||
      !argRef(Args, "new_comm", Rule.newComm))
    return false;
  if (R.has("in_place") && !readInPlace(Entry.at("in_place"), Context, Rule, Error))
    return false;
  if (!knownOperations().count(Rule.operation)) {
    std::string Known;
    for (const std::string &Name : knownOperations())
      Known += (Known.empty() ? "" : ", ") + Name;
    return R.fail("operation", "unknown operation \"" + Rule.operation + "\" (expected one of " +
                                   Known + ")");
  }
  Rule.api = Api;
  Rule.origin = File;
  return true;
}

bool readGroupMarker(const json &Entry, const std::string &Context, const std::string &File,
                     GroupMarkerRule &Rule, std::string &Error) {
  Reader R(Entry, Context, Error);
  std::string Role;
  if (!R.onlyKeys({"name", "role"}) || !R.string("name", Rule.name) || !R.string("role", Role))
    return false;
  if (Role != "begin" && Role != "end")
    return R.fail("role", "expected \"begin\" or \"end\", found \"" + Role + "\"");
  Rule.role = Role == "begin" ? GroupRole::Begin : GroupRole::End;
  Rule.origin = File;
  return true;
}

bool readJoinProtocol(const json &Entry, const std::string &Context, const std::string &File,
                      JoinProtocolRule &Rule, std::string &Error) {
  Reader R(Entry, Context, Error);
  if (!R.onlyKeys({"name", "guard", "begin", "end", "shadows"}) || !R.string("name", Rule.name) ||
      !R.string("guard", Rule.guard, /*Required=*/false) ||
      !R.string("begin", Rule.begin, /*Required=*/false) ||
      !R.string("end", Rule.end, /*Required=*/false) || !R.stringList("shadows", Rule.shadows))
    return false;
  const bool Calls = !Rule.begin.empty() || !Rule.end.empty();
  if (!Rule.guard.empty() == Calls || (Calls && (Rule.begin.empty() || Rule.end.empty())))
    return R.fail("", "give either 'guard' or both 'begin' and 'end'");
  if (Rule.shadows.empty())
    return R.fail("shadows", "expected the collectives the protocol shadows");
  Rule.origin = File;
  return true;
}

bool readValueSource(const json &Entry, const std::string &Context, const std::string &File,
                     bool Uniform, ValueSourceRule &Rule, std::string &Error) {
  Reader R(Entry, Context, Error);
  bool Ok = Uniform ? R.onlyKeys({"function", "out_arg", "returns", "value"})
                    : R.onlyKeys({"function", "out_arg", "returns"});
  if (!Ok || !R.string("function", Rule.function) || !R.index("out_arg", Rule.outArg) ||
      !R.boolean("returns", Rule.returns))
    return false;
  if (Rule.outArg.has_value() == Rule.returns)
    return R.fail("", "give exactly one of 'out_arg' and \"returns\": true");
  if (Uniform) {
    std::string Value = "uniform";
    if (!R.string("value", Value, /*Required=*/false))
      return false;
    if (Value != "uniform" && Value != "world_size")
      return R.fail("value", "expected \"uniform\" or \"world_size\", found \"" + Value + "\"");
    Rule.worldSize = Value == "world_size";
  }
  Rule.origin = File;
  return true;
}

bool readPerRankSource(const json &Entry, const std::string &Context, const std::string &File,
                       PerRankSourceRule &Rule, std::string &Error) {
  Reader R(Entry, Context, Error);
  if (!R.onlyKeys({"function", "out_arg", "returns", "why"}) ||
      !R.string("function", Rule.function) || !R.index("out_arg", Rule.outArg) ||
      !R.boolean("returns", Rule.returns) || !R.string("why", Rule.why))
    return false;
  if (!Rule.outArg && !Rule.returns)
    return R.fail("", "give 'out_arg', \"returns\": true, or both");
  Rule.origin = File;
  return true;
}

bool readPattern(Reader &R, const char *Key, std::string &Out, bool Required = true) {
  if (!R.string(Key, Out, Required))
    return false;
  if (Out.empty())
    return true;
  if (std::string Problem = checkPattern(Out); !Problem.empty())
    return R.fail(Key, Problem);
  return true;
}

bool readStatus(const json &Entry, const std::string &Context, const std::string &File,
                StatusRule &Rule, std::string &Error) {
  Reader R(Entry, Context, Error);
  if (!R.onlyKeys({"type", "functions", "success", "value"}) ||
      !R.string("type", Rule.type, /*Required=*/false) ||
      !readPattern(R, "functions", Rule.functions, /*Required=*/false) ||
      !R.string("success", Rule.success))
    return false;
  if (Rule.type.empty() == Rule.functions.empty())
    return R.fail("", "give exactly one of 'type' and 'functions'");
  if (R.has("value")) {
    if (!R.at("value").is_number_integer())
      return R.fail("value", "expected an integer, found " + R.at("value").dump());
    Rule.value = R.at("value").get<long long>();
  } else if (!Rule.functions.empty()) {
    return R.fail("value", "a 'functions' entry needs the success value");
  }
  Rule.origin = File;
  return true;
}

template <typename RuleT, typename NameOf>
bool rejectDuplicates(const std::vector<RuleT> &Existing, const std::vector<RuleT> &Added,
                      const char *Section, NameOf Name, std::string &Error) {
  std::map<std::string, std::string> Seen;
  for (const RuleT &Rule : Existing)
    Seen.emplace(Name(Rule), Rule.origin);
  for (const RuleT &Rule : Added) {
    auto [It, Inserted] = Seen.emplace(Name(Rule), Rule.origin);
    if (!Inserted) {
      Error = Rule.origin + ": " + Section + ": '" + Name(Rule) + "' is already defined in " +
              It->second;
      return false;
    }
  }
  return true;
}

template <typename RuleT>
void append(std::vector<RuleT> &To, std::vector<RuleT> &From) {
  To.insert(To.end(), std::make_move_iterator(From.begin()), std::make_move_iterator(From.end()));
}

template <typename RuleT, typename ReadFn>
bool readSection(const json &Document, const char *Section, const std::string &File,
                 const char *NameKey, std::vector<RuleT> &Out, std::string &Error, ReadFn Read) {
  if (!Document.contains(Section))
    return true;
  const json &List = Document.at(Section);
  if (!List.is_array()) {
    Error = File + ": key '" + Section + "': expected an array, found " + typeName(List);
    return false;
  }
  for (size_t I = 0; I < List.size(); ++I) {
    RuleT Rule;
    if (!Read(List[I], entryContext(File, Section, I, List[I], NameKey), Rule))
      return false;
    Out.push_back(std::move(Rule));
  }
  return true;
}

} // namespace

std::string checkPattern(const std::string &Pattern) {
  try {
    std::regex Compiled(Pattern, std::regex::ECMAScript | std::regex::icase);
  } catch (const std::regex_error &E) {
    return std::string("invalid regular expression: ") + E.what();
  }
  return "";
}

std::string mergeRulesText(const std::string &Text, const std::string &File, RuleSet &Rules) {
  json Document = json::parse(Text, nullptr, /*allow_exceptions=*/false);
  if (Document.is_discarded())
    return File + ": not valid JSON";
  std::string Error;
  Reader Top(Document, File, Error);
  std::string Api;
  if (!Top.onlyKeys({"version", "api", "collectives", "group_markers", "rank_sources",
                     "uniform_sources", "per_rank_sources", "join_protocols", "status",
                     "environment",
                     "naming"}))
    return Error;
  if (!Document.contains("version"))
    return File + ": key 'version': missing required field";
  const json &Version = Document.at("version");
  if (!Version.is_number_integer())
    return File + ": key 'version': the version must be an integer, found " +
           (Version.is_number() ? Version.dump() : std::string(typeName(Version)));
  if (Version != 1)
    return File + ": key 'version': unsupported version " + Version.dump() +
           " (this lockstep reads version 1)";
  if (!Top.string("api", Api))
    return Error;

  RuleSet Added;
  bool Ok =
      readSection(Document, "collectives", File, "name", Added.collectives, Error,
                  [&](const json &E, const std::string &C, CollectiveRule &R) {
                    return readCollective(E, C, Api, File, R, Error);
                  }) &&
      readSection(Document, "group_markers", File, "name", Added.groupMarkers, Error,
                  [&](const json &E, const std::string &C, GroupMarkerRule &R) {
                    return readGroupMarker(E, C, File, R, Error);
                  }) &&
      readSection(Document, "rank_sources", File, "function", Added.rankSources, Error,
                  [&](const json &E, const std::string &C, ValueSourceRule &R) {
                    return readValueSource(E, C, File, /*Uniform=*/false, R, Error);
                  }) &&
      readSection(Document, "uniform_sources", File, "function", Added.uniformSources, Error,
                  [&](const json &E, const std::string &C, ValueSourceRule &R) {
                    return readValueSource(E, C, File, /*Uniform=*/true, R, Error);
                  }) &&
      readSection(Document, "per_rank_sources", File, "function", Added.perRankSources, Error,
                  [&](const json &E, const std::string &C, PerRankSourceRule &R) {
                    return readPerRankSource(E, C, File, R, Error);
                  }) &&
      readSection(Document, "join_protocols", File, "name", Added.joinProtocols, Error,
                  [&](const json &E, const std::string &C, JoinProtocolRule &R) {
                    return readJoinProtocol(E, C, File, R, Error);
                  }) &&
      readSection(Document, "status", File, "type", Added.statuses, Error,
                  [&](const json &E, const std::string &C, StatusRule &R) {
                    return readStatus(E, C, File, R, Error);
                  });
  if (!Ok)
    return Error;

  if (Document.contains("environment")) {
    Reader Env(Document.at("environment"), File + ": environment", Error);
    if (!Env.onlyKeys({"readers", "rank_variables", "world_size_variables", "converters"}) ||
        !Env.stringList("readers", Added.environment.readers) ||
        !Env.stringList("rank_variables", Added.environment.rankVariables) ||
        !Env.stringList("world_size_variables", Added.environment.worldSizeVariables) ||
        !Env.stringList("converters", Added.environment.converters))
      return Error;
  }
  if (Document.contains("naming")) {
    if (!Rules.naming.origin.empty())
      return File + ": key 'naming': already set by " + Rules.naming.origin +
             "; set the patterns in one file, or through the check options";
    Reader Naming(Document.at("naming"), File + ": naming", Error);
    if (!Naming.onlyKeys({"rank_pattern", "world_size_pattern"}) ||
        !readPattern(Naming, "rank_pattern", Added.naming.rankPattern) ||
        !readPattern(Naming, "world_size_pattern", Added.naming.worldSizePattern))
      return Error;
    Added.naming.origin = File;
  }

  auto ByName = [](const auto &Rule) { return Rule.name; };
  auto ByFunction = [](const auto &Rule) { return Rule.function; };
  if (!rejectDuplicates(Rules.collectives, Added.collectives, "collectives", ByName, Error) ||
      !rejectDuplicates(Rules.groupMarkers, Added.groupMarkers, "group_markers", ByName, Error) ||
      !rejectDuplicates(Rules.rankSources, Added.rankSources, "rank_sources", ByFunction, Error) ||
      !rejectDuplicates(Rules.uniformSources, Added.uniformSources, "uniform_sources", ByFunction,
                        Error) ||
      !rejectDuplicates(Rules.perRankSources, Added.perRankSources, "per_rank_sources",
                        ByFunction, Error) ||
      !rejectDuplicates(Rules.joinProtocols, Added.joinProtocols, "join_protocols", ByName, Error))
    return Error;

  append(Rules.collectives, Added.collectives);
  append(Rules.groupMarkers, Added.groupMarkers);
  append(Rules.rankSources, Added.rankSources);
  append(Rules.uniformSources, Added.uniformSources);
  append(Rules.perRankSources, Added.perRankSources);
  append(Rules.joinProtocols, Added.joinProtocols);
  append(Rules.statuses, Added.statuses);
  append(Rules.environment.readers, Added.environment.readers);
  append(Rules.environment.rankVariables, Added.environment.rankVariables);
  append(Rules.environment.worldSizeVariables, Added.environment.worldSizeVariables);
  append(Rules.environment.converters, Added.environment.converters);
  if (!Added.naming.origin.empty())
    Rules.naming = std::move(Added.naming);
  Rules.files.push_back(File);
  return "";
}

std::string mergeRulesFile(const std::string &Path, RuleSet &Rules) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return Path + ": cannot open the rules file";
  std::ostringstream Text;
  Text << In.rdbuf();
  if (In.bad())
    return Path + ": cannot read the rules file";
  return mergeRulesText(Text.str(), Path, Rules);
}

std::string loadRules(const std::vector<std::string> &Files, RuleSet &Rules) {
  std::string Error = mergeBuiltinRules(Rules);
  for (const std::string &File : Files)
    if (Error.empty())
      Error = mergeRulesFile(File, Rules);
  return Error.empty() ? validateComplete(Rules) : Error;
}

std::string validateComplete(const RuleSet &Rules) {
  if (Rules.naming.rankPattern.empty() || Rules.naming.worldSizePattern.empty())
    return "no rules file sets 'naming' (rank_pattern and world_size_pattern)";
  return "";
}

} // namespace lockstep::rules
