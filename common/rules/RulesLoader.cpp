#include "RulesLoader.h"
#include "JsonReader.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace lockstep::rules {

using json_reader::Reader;
using json_reader::typeName;
using nlohmann::json;

/// A "copies" entry: the function, and the arguments it writes and reads.
static Error readCopy(const json &Entry, const std::string &Context, const std::string &File,
                      CopyRule &Rule) {
  Reader R(Entry, Context);
  std::optional<unsigned> To, From;
  if (!R.onlyKeys({"function", "to", "from"}) || !R.string("function", Rule.Function) ||
      !R.index("to", To) || !R.index("from", From))
    return R.takeError();
  if (!To || !From)
    return R.failure(To ? "from" : "to", "missing required field");
  if (*To == *From)
    return R.failure("from", "a copy reads and writes different arguments");
  Rule.To = *To;
  Rule.From = *From;
  Rule.Origin = File;
  return Error::success();
}

/// A "rank_sets" entry: the function, which members it keeps, and where it
/// reads and writes them.
static Error readRankSet(const json &Entry, const std::string &Context, const std::string &File,
                         RankSetRule &Rule) {
  Reader R(Entry, Context);
  std::string Members;
  std::optional<unsigned> Source, Count, Ranks, NewSet;
  if (!R.onlyKeys({"function", "members", "source", "count", "ranks", "new_set"}) ||
      !R.string("function", Rule.Function) || !R.string("members", Members) ||
      !R.index("source", Source) || !R.index("count", Count) || !R.index("ranks", Ranks) ||
      !R.index("new_set", NewSet))
    return R.takeError();
  static const std::map<std::string, RankSetRule::Members> Kinds = {
      {"all", RankSetRule::Members::All},
      {"listed", RankSetRule::Members::Listed},
      {"unlisted", RankSetRule::Members::Unlisted},
      {"listed_ranges", RankSetRule::Members::ListedRanges},
      {"unlisted_ranges", RankSetRule::Members::UnlistedRanges}};
  auto Kind = Kinds.find(Members);
  if (Kind == Kinds.end())
    return R.failure("members", "expected \"all\", \"listed\", \"unlisted\", "
                                "\"listed_ranges\" or \"unlisted_ranges\", found \"" +
                                    Members + "\"");
  Rule.Of = Kind->second;
  if (!Source || !NewSet)
    return R.failure(Source ? "new_set" : "source", "missing required field");
  const bool Lists = Rule.Of != RankSetRule::Members::All;
  if (Lists && (!Count || !Ranks))
    return R.failure(Count ? "ranks" : "count",
                     "missing required field (\"" + Members + "\" picks ranks from a list)");
  if (!Lists && (Count || Ranks))
    return R.failure(Count ? "count" : "ranks", "\"all\" takes every member: it reads no list");
  Rule.Source = *Source;
  Rule.NewSet = *NewSet;
  Rule.Count = Count.value_or(0);
  Rule.Ranks = Ranks.value_or(0);
  Rule.Origin = File;
  return Error::success();
}

namespace {

/// An argument reference: 3, "receiver", or "1.rootRank".
bool argRef(Reader &R, const char *Key, ArgRef &Out) {
  if (!R.has(Key))
    return true;
  const json &V = R.at(Key);
  if (V.is_number_unsigned() && V.get<unsigned long long>() <= 64) {
    Out.K = ArgRef::Kind::Argument;
    Out.Index = V.get<unsigned>();
    return true;
  }
  static const std::regex FieldRef("^([0-9]{1,2})\\.([A-Za-z_][A-Za-z0-9_]*)$");
  std::smatch Match;
  if (V.is_string()) {
    const std::string S = V.get<std::string>();
    if (S == "receiver") {
      Out.K = ArgRef::Kind::Receiver;
      return true;
    }
    if (std::regex_match(S, Match, FieldRef)) {
      Out.K = ArgRef::Kind::Argument;
      Out.Index = static_cast<unsigned>(std::stoul(Match[1]));
      Out.Field = Match[2];
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
      "allgather",    "allreduce",         "alltoall",       "barrier",
      "broadcast",    "comm_create",       "comm_dup",       "comm_free",
      "comm_init",    "comm_shrink",       "comm_split",     "file_access",
      "file_close",   "file_control",      "file_open",      "finalize",
      "gather",       "neighbor_exchange", "reduce",         "reduce_scatter",
      "scan",         "scatter",           "window_create",  "window_deregister",
      "window_fence", "window_free",       "window_register"};
  return Known;
}

Error readInPlace(const json &Entry, const std::string &Context, CollectiveRule &Rule) {
  Reader R(Entry, Context + ": in_place");
  CollectiveRule::InPlaceForm In;
  std::string Buffer;
  if (!R.onlyKeys({"marker", "buffer", "count", "datatype"}) || !R.string("marker", In.Marker) ||
      !R.string("buffer", Buffer) || !argRef(R, "count", In.Count) ||
      !argRef(R, "datatype", In.Datatype))
    return R.takeError();
  if (In.Marker.empty())
    return R.failure("marker", "missing required field");
  if (Buffer != "send" && Buffer != "recv")
    return R.failure("buffer", "expected \"send\" or \"recv\", found \"" + Buffer + "\"");
  In.Buffer = Buffer == "send" ? Rule.Send : Rule.Recv;
  if (In.Buffer.K == ArgRef::Kind::Absent)
    return R.failure("buffer", "names the " + Buffer + " buffer, which \"args\" does not give");
  Rule.InPlace = std::move(In);
  return Error::success();
}

Error readCollective(const json &Entry, const std::string &Context, const std::string &Api,
                     const std::string &File, CollectiveRule &Rule) {
  Reader R(Entry, Context);
  if (!R.onlyKeys({"name", "operation", "blocking", "synchronizes", "starts_locally", "args",
                   "uniform_outputs", "in_place", "parts_by_placement"}) ||
      !R.string("name", Rule.Name) || !R.string("operation", Rule.Operation) ||
      !R.boolean("blocking", Rule.Blocking) || !R.boolean("synchronizes", Rule.Synchronizes) ||
      !R.boolean("starts_locally", Rule.StartsLocally) ||
      !R.indexList("uniform_outputs", Rule.UniformOutputs) ||
      !R.boolean("parts_by_placement", Rule.PartsByPlacement))
    return R.takeError();
  if (!R.has("args"))
    return R.failure("args", "missing required field");
  Reader Args(Entry.at("args"), Context + ": args");
  if (!Args.onlyKeys({"comm", "root", "count", "datatype", "op", "send", "recv", "color",
                      "new_comm", "remain_dims", "group", "member_group", "handle", "new_handle",
                      "size"}) ||
      !argRef(Args, "comm", Rule.Comm) || !argRef(Args, "root", Rule.Root) ||
      !argRef(Args, "count", Rule.Count) || !argRef(Args, "datatype", Rule.Datatype) ||
      !argRef(Args, "op", Rule.Op) || !argRef(Args, "send", Rule.Send) ||
      !argRef(Args, "recv", Rule.Recv) || !argRef(Args, "color", Rule.Color) ||
      !argRef(Args, "new_comm", Rule.NewComm) || !argRef(Args, "remain_dims", Rule.RemainDims) ||
      !argRef(Args, "group", Rule.Group) || !argRef(Args, "member_group", Rule.MemberGroup) ||
      !argRef(Args, "handle", Rule.Handle) || !argRef(Args, "new_handle", Rule.NewHandle) ||
      !argRef(Args, "size", Rule.Size))
    return Args.takeError();
  if (R.has("in_place"))
    if (Error E = readInPlace(Entry.at("in_place"), Context, Rule))
      return E;
  if (Rule.StartsLocally && Rule.Blocking)
    return R.failure("starts_locally", "only a nonblocking call (\"blocking\": false) returns "
                                       "before the operation completes");
  if (Rule.MemberGroup.K != ArgRef::Kind::Absent && Rule.NewComm.K == ArgRef::Kind::Absent)
    return Args.failure("member_group",
                        "gives the new communicator's members, but names no \"new_comm\"");
  if (Rule.PartsByPlacement && Rule.NewComm.K == ArgRef::Kind::Absent)
    return R.failure("parts_by_placement",
                     "parts a communicator, but \"args\" names no \"new_comm\"");
  if (!knownOperations().count(Rule.Operation)) {
    std::string Known;
    for (const std::string &Name : knownOperations())
      Known += (Known.empty() ? "" : ", ") + Name;
    return R.failure("operation", "unknown operation \"" + Rule.Operation + "\" (expected one of " +
                                      Known + ")");
  }
  Rule.Api = Api;
  Rule.Origin = File;
  return Error::success();
}

Error readGroupMarker(const json &Entry, const std::string &Context, const std::string &File,
                      GroupMarkerRule &Rule) {
  Reader R(Entry, Context);
  std::string Role;
  if (!R.onlyKeys({"name", "role"}) || !R.string("name", Rule.Name) || !R.string("role", Role))
    return R.takeError();
  if (Role != "begin" && Role != "end")
    return R.failure("role", "expected \"begin\" or \"end\", found \"" + Role + "\"");
  Rule.Role = Role == "begin" ? GroupRole::Begin : GroupRole::End;
  Rule.Origin = File;
  return Error::success();
}

Error readJoinProtocol(const json &Entry, const std::string &Context, const std::string &File,
                       JoinProtocolRule &Rule) {
  Reader R(Entry, Context);
  if (!R.onlyKeys({"name", "guard", "begin", "end", "shadows"}) || !R.string("name", Rule.Name) ||
      !R.string("guard", Rule.Guard, /*Required=*/false) ||
      !R.string("begin", Rule.Begin, /*Required=*/false) ||
      !R.string("end", Rule.End, /*Required=*/false) || !R.stringList("shadows", Rule.Shadows))
    return R.takeError();
  const bool Calls = !Rule.Begin.empty() || !Rule.End.empty();
  if (!Rule.Guard.empty() == Calls || (Calls && (Rule.Begin.empty() || Rule.End.empty())))
    return R.failure("", "give either 'guard' or both 'begin' and 'end'");
  if (Rule.Shadows.empty())
    return R.failure("shadows", "expected the collectives the protocol shadows");
  Rule.Origin = File;
  return Error::success();
}

Error readValueSource(const json &Entry, const std::string &Context, const std::string &File,
                      bool Uniform, ValueSourceRule &Rule) {
  Reader R(Entry, Context);
  bool Ok = Uniform ? R.onlyKeys({"function", "out_arg", "returns", "value"})
                    : R.onlyKeys({"function", "out_arg", "returns"});
  if (!Ok || !R.string("function", Rule.Function) || !R.index("out_arg", Rule.OutArg) ||
      !R.boolean("returns", Rule.Returns))
    return R.takeError();
  if (Rule.OutArg.has_value() == Rule.Returns)
    return R.failure("", "give exactly one of 'out_arg' and \"returns\": true");
  if (Uniform) {
    std::string Value = "uniform";
    if (!R.string("value", Value, /*Required=*/false))
      return R.takeError();
    if (Value != "uniform" && Value != "world_size")
      return R.failure("value", "expected \"uniform\" or \"world_size\", found \"" + Value + "\"");
    Rule.WorldSize = Value == "world_size";
  }
  Rule.Origin = File;
  return Error::success();
}

Error readPerRankSource(const json &Entry, const std::string &Context, const std::string &File,
                        PerRankSourceRule &Rule) {
  Reader R(Entry, Context);
  std::optional<unsigned> OutArg;
  if (!R.onlyKeys({"function", "out_arg", "out_args", "returns", "why", "when_differs"}) ||
      !R.string("function", Rule.Function) || !R.index("out_arg", OutArg) ||
      !R.indexList("out_args", Rule.OutArgs) || !R.boolean("returns", Rule.Returns) ||
      !R.string("why", Rule.Why) || !R.index("when_differs", Rule.When))
    return R.takeError();
  if (OutArg && !Rule.OutArgs.empty())
    return R.failure("", "give 'out_arg' or 'out_args', not both");
  if (OutArg)
    Rule.OutArgs.push_back(*OutArg);
  if (Rule.OutArgs.empty() && !Rule.Returns)
    return R.failure("", "give 'out_arg' (or 'out_args'), \"returns\": true, or both");
  for (unsigned Out : Rule.OutArgs)
    if (Rule.When == Out)
      return R.failure("when_differs", "names an argument the data is written through");
  Rule.Origin = File;
  return Error::success();
}

bool readPattern(Reader &R, const char *Key, std::string &Out, bool Required = true) {
  if (!R.string(Key, Out, Required))
    return false;
  if (Out.empty())
    return true;
  if (Error Invalid = checkPattern(Out))
    return R.fail(Key, Invalid.message());
  return true;
}

Error readStatus(const json &Entry, const std::string &Context, const std::string &File,
                 StatusRule &Rule) {
  Reader R(Entry, Context);
  std::string Failure;
  if (!R.onlyKeys({"type", "functions", "success", "value", "failure"}) ||
      !R.string("type", Rule.Type, /*Required=*/false) ||
      !readPattern(R, "functions", Rule.Functions, /*Required=*/false) ||
      !R.string("success", Rule.Success, /*Required=*/false) ||
      !R.string("failure", Failure, /*Required=*/false))
    return R.takeError();
  if (Rule.Type.empty() == Rule.Functions.empty())
    return R.failure("", "give exactly one of 'type' and 'functions'");
  if (R.has("success") == R.has("failure"))
    return R.failure("", "give exactly one of 'success' and 'failure'");
  if (R.has("failure")) {
    if (Failure != "null")
      return R.failure("failure",
                       "expected \"null\" (a pointer result, null on failure), found \"" + Failure +
                           "\"");
    if (R.has("value"))
      return R.failure("value", "a 'failure' entry takes no success value");
    if (Rule.Functions.empty())
      return R.failure("type", "a 'failure' entry names its functions, not a type");
    Rule.NullFails = true;
  } else if (R.has("value")) {
    if (!R.at("value").is_number_integer())
      return R.failure("value", "expected an integer, found " + R.at("value").dump());
    Rule.Value = R.at("value").get<long long>();
  } else if (!Rule.Functions.empty()) {
    return R.failure("value", "a 'functions' entry needs the success value");
  }
  Rule.Origin = File;
  return Error::success();
}

template <typename RuleT, typename NameOf>
Error rejectDuplicates(const std::vector<RuleT> &Existing, const std::vector<RuleT> &Added,
                       const char *Section, NameOf Name) {
  std::map<std::string, std::string> Seen;
  for (const RuleT &Rule : Existing)
    Seen.emplace(Name(Rule), Rule.Origin);
  for (const RuleT &Rule : Added) {
    auto [It, Inserted] = Seen.emplace(Name(Rule), Rule.Origin);
    if (!Inserted)
      return Error(Rule.Origin + ": " + Section + ": '" + Name(Rule) + "' is already defined in " +
                   It->second);
  }
  return Error::success();
}

template <typename RuleT> void append(std::vector<RuleT> &To, std::vector<RuleT> &From) {
  To.insert(To.end(), std::make_move_iterator(From.begin()), std::make_move_iterator(From.end()));
}

template <typename RuleT, typename ReadFn>
Error readSection(const json &Document, const char *Section, const std::string &File,
                  const char *NameKey, std::vector<RuleT> &Out, ReadFn Read) {
  if (!Document.contains(Section))
    return Error::success();
  const json &List = Document.at(Section);
  if (!List.is_array())
    return Error(File + ": key '" + Section + "': expected an array, found " + typeName(List));
  for (size_t I = 0; I < List.size(); ++I) {
    RuleT Rule;
    if (Error E = Read(List[I], entryContext(File, Section, I, List[I], NameKey), Rule))
      return E;
    Out.push_back(std::move(Rule));
  }
  return Error::success();
}

/// The document's keys, its version (1) and its API.
Error readHeader(const json &Document, const std::string &File, std::string &Api) {
  Reader Top(Document, File);
  if (!Top.onlyKeys({"version", "api", "collectives", "group_markers", "rank_sources",
                     "uniform_sources", "per_rank_sources", "join_protocols", "status", "copies",
                     "rank_sets", "job_aborts", "environment", "naming"}))
    return Top.takeError();
  if (!Document.contains("version"))
    return Error(File + ": key 'version': missing required field");
  const json &Version = Document.at("version");
  if (!Version.is_number_integer())
    return Error(File + ": key 'version': the version must be an integer, found " +
                 (Version.is_number() ? Version.dump() : std::string(typeName(Version))));
  if (Version != 1)
    return Error(File + ": key 'version': unsupported version " + Version.dump() +
                 " (this lockstep reads version 1)");
  if (!Top.string("api", Api))
    return Top.takeError();
  return Error::success();
}

/// The document's lists of rules, section by section.
Error readRuleSections(const json &Document, const std::string &File, const std::string &Api,
                       RuleSet &Added) {
  // Most entries read with their file alone.
  auto InFile = [&File](auto Read) {
    return [&File, Read](const json &Entry, const std::string &Context, auto &Rule) {
      return Read(Entry, Context, File, Rule);
    };
  };
  auto Sources = [&File](bool Uniform) {
    return [&File, Uniform](const json &Entry, const std::string &Context, ValueSourceRule &Rule) {
      return readValueSource(Entry, Context, File, Uniform, Rule);
    };
  };
  auto Collectives = [&](const json &Entry, const std::string &Context, CollectiveRule &Rule) {
    return readCollective(Entry, Context, Api, File, Rule);
  };
  Error E = readSection(Document, "collectives", File, "name", Added.Collectives, Collectives);
  if (!E)
    E = readSection(Document, "group_markers", File, "name", Added.GroupMarkers,
                    InFile(readGroupMarker));
  if (!E)
    E = readSection(Document, "rank_sources", File, "function", Added.RankSources,
                    Sources(/*Uniform=*/false));
  if (!E)
    E = readSection(Document, "uniform_sources", File, "function", Added.UniformSources,
                    Sources(/*Uniform=*/true));
  if (!E)
    E = readSection(Document, "per_rank_sources", File, "function", Added.PerRankSources,
                    InFile(readPerRankSource));
  if (!E)
    E = readSection(Document, "join_protocols", File, "name", Added.JoinProtocols,
                    InFile(readJoinProtocol));
  if (!E)
    E = readSection(Document, "status", File, "type", Added.Statuses, InFile(readStatus));
  if (!E)
    E = readSection(Document, "copies", File, "function", Added.Copies, InFile(readCopy));
  if (!E)
    E = readSection(Document, "rank_sets", File, "function", Added.RankSets, InFile(readRankSet));
  if (Reader Top(Document, File); !E && !Top.stringList("job_aborts", Added.JobAborts))
    E = Top.takeError();
  return E;
}

/// The "environment" object: where rank and world size come from.
Error readEnvironment(const json &Document, const std::string &File, EnvironmentRules &Out) {
  if (!Document.contains("environment"))
    return Error::success();
  Reader Env(Document.at("environment"), File + ": environment");
  if (!Env.onlyKeys({"readers", "rank_variables", "world_size_variables", "converters"}) ||
      !Env.stringList("readers", Out.Readers) ||
      !Env.stringList("rank_variables", Out.RankVariables) ||
      !Env.stringList("world_size_variables", Out.WorldSizeVariables) ||
      !Env.stringList("converters", Out.Converters))
    return Env.takeError();
  return Error::success();
}

/// The "naming" object, which one file of the set may give.
Error readNaming(const json &Document, const std::string &File, const RuleSet &Rules,
                 NamingRules &Out) {
  if (!Document.contains("naming"))
    return Error::success();
  if (!Rules.Naming.Origin.empty())
    return Error(File + ": key 'naming': already set by " + Rules.Naming.Origin +
                 "; set the patterns in one file, or through the check options");
  Reader Naming(Document.at("naming"), File + ": naming");
  if (!Naming.onlyKeys({"rank_pattern", "world_size_pattern"}) ||
      !readPattern(Naming, "rank_pattern", Out.RankPattern) ||
      !readPattern(Naming, "world_size_pattern", Out.WorldSizePattern))
    return Naming.takeError();
  Out.Origin = File;
  return Error::success();
}

/// A name or function that \p Added defines again.
Error rejectRedefinitions(const RuleSet &Rules, const RuleSet &Added) {
  auto ByName = [](const auto &Rule) { return Rule.Name; };
  auto ByFunction = [](const auto &Rule) { return Rule.Function; };
  Error E = rejectDuplicates(Rules.Collectives, Added.Collectives, "collectives", ByName);
  if (!E)
    E = rejectDuplicates(Rules.GroupMarkers, Added.GroupMarkers, "group_markers", ByName);
  if (!E)
    E = rejectDuplicates(Rules.RankSources, Added.RankSources, "rank_sources", ByFunction);
  if (!E)
    E = rejectDuplicates(Rules.UniformSources, Added.UniformSources, "uniform_sources", ByFunction);
  if (!E)
    E = rejectDuplicates(Rules.PerRankSources, Added.PerRankSources, "per_rank_sources",
                         ByFunction);
  if (!E)
    E = rejectDuplicates(Rules.JoinProtocols, Added.JoinProtocols, "join_protocols", ByName);
  if (!E)
    E = rejectDuplicates(Rules.Copies, Added.Copies, "copies", ByFunction);
  if (!E)
    E = rejectDuplicates(Rules.RankSets, Added.RankSets, "rank_sets", ByFunction);
  return E;
}

/// Moves what one document added into \p Rules.
void appendRules(RuleSet &Rules, RuleSet &Added) {
  append(Rules.Collectives, Added.Collectives);
  append(Rules.GroupMarkers, Added.GroupMarkers);
  append(Rules.RankSources, Added.RankSources);
  append(Rules.UniformSources, Added.UniformSources);
  append(Rules.PerRankSources, Added.PerRankSources);
  append(Rules.JoinProtocols, Added.JoinProtocols);
  append(Rules.Statuses, Added.Statuses);
  append(Rules.Copies, Added.Copies);
  append(Rules.RankSets, Added.RankSets);
  append(Rules.JobAborts, Added.JobAborts);
  append(Rules.Environment.Readers, Added.Environment.Readers);
  append(Rules.Environment.RankVariables, Added.Environment.RankVariables);
  append(Rules.Environment.WorldSizeVariables, Added.Environment.WorldSizeVariables);
  append(Rules.Environment.Converters, Added.Environment.Converters);
  if (!Added.Naming.Origin.empty())
    Rules.Naming = std::move(Added.Naming);
}

} // namespace

Error checkPattern(const std::string &Pattern) {
  try {
    std::regex Compiled(Pattern, std::regex::ECMAScript | std::regex::icase);
  } catch (const std::regex_error &E) {
    return Error(std::string("invalid regular expression: ") + E.what());
  }
  return Error::success();
}

Error mergeRulesText(const std::string &Text, const std::string &File, RuleSet &Rules) {
  json Document = json::parse(Text, nullptr, /*allow_exceptions=*/false);
  if (Document.is_discarded())
    return Error(File + ": not valid JSON");
  std::string Api;
  RuleSet Added;
  if (Error E = readHeader(Document, File, Api))
    return E;
  if (Error E = readRuleSections(Document, File, Api, Added))
    return E;
  if (Error E = readEnvironment(Document, File, Added.Environment))
    return E;
  if (Error E = readNaming(Document, File, Rules, Added.Naming))
    return E;
  if (Error E = rejectRedefinitions(Rules, Added))
    return E;
  appendRules(Rules, Added);
  Rules.Files.push_back(File);
  return Error::success();
}

Error mergeRulesFile(const std::string &Path, RuleSet &Rules) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return Error(Path + ": cannot open the rules file");
  std::ostringstream Text;
  Text << In.rdbuf();
  if (In.bad())
    return Error(Path + ": cannot read the rules file");
  return mergeRulesText(Text.str(), Path, Rules);
}

Error loadRules(const std::vector<std::string> &Files, RuleSet &Rules) {
  if (Error E = mergeBuiltinRules(Rules))
    return E;
  for (const std::string &File : Files)
    if (Error E = mergeRulesFile(File, Rules))
      return E;
  return validateComplete(Rules);
}

Error validateComplete(const RuleSet &Rules) {
  if (Rules.Naming.RankPattern.empty() || Rules.Naming.WorldSizePattern.empty())
    return Error("no rules file sets 'naming' (rank_pattern and world_size_pattern)");
  return Error::success();
}

} // namespace lockstep::rules
