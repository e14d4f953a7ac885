// The rules loader: the shipped rules load, and every kind of bad rules file
// is rejected with an error naming the file, the entry and the key.
#include "RulesLoader.h"
#include "ErrorText.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

using namespace lockstep::rules;

namespace {

std::string load(const std::string &Text, RuleSet &Rules) {
  return errorText(mergeRulesText(Text, "user.json", Rules));
}

std::string errorOf(const std::string &Text) {
  RuleSet Rules;
  return load(Text, Rules);
}

} // namespace

TEST(RulesLoader, BuiltinRulesLoadAndAreComplete) {
  RuleSet Rules;
  ASSERT_EQ(errorText(mergeBuiltinRules(Rules)), "");
  EXPECT_EQ(errorText(validateComplete(Rules)), "");
  EXPECT_EQ(Rules.Files.size(), 6u);

  const CollectiveRule *Bcast = Rules.findCollective("ncclBroadcast");
  ASSERT_NE(Bcast, nullptr);
  EXPECT_EQ(Bcast->Api, "nccl");
  EXPECT_EQ(Bcast->Root.Index, 4u);
  EXPECT_EQ(Bcast->Comm.Index, 5u);
  EXPECT_EQ(Bcast->Count.Index, 2u);

  const CollectiveRule *PgBcast = Rules.findCollective("c10d::ProcessGroup::broadcast");
  ASSERT_NE(PgBcast, nullptr);
  EXPECT_EQ(PgBcast->Comm.K, ArgRef::Kind::Receiver);
  EXPECT_EQ(PgBcast->Root.Index, 1u);
  EXPECT_EQ(PgBcast->Root.Field, "rootRank");

  EXPECT_NE(Rules.findCollective("MPI_Iallreduce"), nullptr);
  EXPECT_FALSE(Rules.findCollective("MPI_Iallreduce")->Blocking);
  EXPECT_TRUE(Rules.findCollective("MPI_Iallreduce")->Synchronizes);
  EXPECT_FALSE(Rules.findCollective("MPI_Comm_free")->Synchronizes) << "local in practice";
  EXPECT_EQ(Rules.JobAborts, std::vector<std::string>{"MPI_Abort"});
  EXPECT_NE(Rules.findCollective("MPI_Comm_split"), nullptr);
  EXPECT_NE(Rules.findCollective("ncclCommSplit"), nullptr);
  EXPECT_EQ(Rules.findCollective("MPI_Send"), nullptr) << "point-to-point is not collective";
  EXPECT_EQ(Rules.findGroupMarker("ncclGroupStart")->Role, GroupRole::Begin);
  EXPECT_EQ(*Rules.findRankSource("MPI_Comm_rank")->OutArg, 1u);
  EXPECT_TRUE(Rules.findRankSource("c10d::ProcessGroup::getRank")->Returns);
  EXPECT_TRUE(Rules.findUniformSource("MPI_Comm_size")->WorldSize);
  ASSERT_EQ(Rules.Statuses.size(), 6u);
  EXPECT_EQ(Rules.Statuses[0].Functions, "^c10d::Work::(wait|isSuccess)$"); // files in name order
  EXPECT_EQ(Rules.Statuses[0].Value, 1);                                    // a bool: true
  EXPECT_EQ(Rules.Statuses[1].Type, "cudaError_t");
  EXPECT_EQ(Rules.Statuses[3].Functions, "^P?MPI_[A-Z]");
  EXPECT_EQ(Rules.Statuses[3].Value, 0);
  EXPECT_TRUE(Rules.Statuses[5].NullFails); // system.json: fopen, malloc, ...
  EXPECT_TRUE(Rules.findPerRankSource("c10d::Work::isCompleted")->Returns);
  EXPECT_TRUE(Rules.findPerRankSource("MPI_Wtime")->Returns);
  EXPECT_EQ(Rules.findPerRankSource("MPI_Recv")->OutArgs, (std::vector<unsigned>{0, 6}));
  EXPECT_EQ(Rules.findPerRankSource("MPI_Cart_shift")->OutArgs, (std::vector<unsigned>{3, 4}));
  EXPECT_EQ(Rules.findPerRankSource("gethostname")->Why, "the host name");
  ASSERT_NE(Rules.findCopy("cudaMemcpyAsync"), nullptr);
  EXPECT_EQ(Rules.findCopy("cudaMemcpyAsync")->To, 0u);
  EXPECT_EQ(Rules.findCopy("cudaMemcpyAsync")->From, 1u);
  EXPECT_EQ(Rules.findCopy("cudaMemcpyPeer")->From, 2u);
  EXPECT_NE(Rules.findCopy("memcpy"), nullptr);
}

TEST(RulesLoader, ShippedFilesLoadFromDisk) {
  RuleSet Rules;
  for (const char *Name : {"nccl", "mpi", "c10d", "cuda", "environment", "system"})
    EXPECT_EQ(errorText(mergeRulesFile(
                  std::string(LOCKSTEP_SOURCE_DIR) + "/rules/" + Name + ".json", Rules)),
              "");
  EXPECT_EQ(errorText(validateComplete(Rules)), "");
}

TEST(RulesLoader, UserFileExtendsBuiltins) {
  RuleSet Rules;
  ASSERT_EQ(errorText(mergeBuiltinRules(Rules)), "");
  EXPECT_EQ(load(R"({"version": 1, "api": "mylib", "collectives": [
      {"name": "mylib::sync_all", "operation": "barrier", "args": {"comm": 0}}]})",
                 Rules),
            "");
  ASSERT_NE(Rules.findCollective("mylib::sync_all"), nullptr);
  EXPECT_EQ(Rules.findCollective("mylib::sync_all")->Origin, "user.json");
}

TEST(RulesLoader, RejectsInvalidJson) {
  EXPECT_EQ(errorOf("{\"version\": 1,"), "user.json: not valid JSON");
}

TEST(RulesLoader, RejectsUnknownTopLevelKey) {
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "colectives": []})"),
            "user.json: key 'colectives': unknown key");
}

TEST(RulesLoader, RejectsMissingAndWrongVersion) {
  EXPECT_EQ(errorOf(R"({"api": "x"})"), "user.json: key 'version': missing required field");
  EXPECT_EQ(errorOf(R"({"version": 2, "api": "x"})"),
            "user.json: key 'version': unsupported version 2 (this lockstep reads version 1)");
  EXPECT_EQ(errorOf(R"({"version": "1", "api": "x"})"),
            "user.json: key 'version': the version must be an integer, found a string");
  EXPECT_EQ(errorOf(R"({"version": 1.5, "api": "x"})"),
            "user.json: key 'version': the version must be an integer, found 1.5");
}

TEST(RulesLoader, RejectsUnknownKeyInEntry) {
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "collectives": [
      {"name": "f", "operation": "barrier", "args": {}, "rot": 1}]})"),
            "user.json: collectives[0] ('f'): key 'rot': unknown key");
}

TEST(RulesLoader, RejectsMissingField) {
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "collectives": [
      {"name": "f", "args": {}}]})"),
            "user.json: collectives[0] ('f'): key 'operation': missing required field");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "collectives": [
      {"name": "f", "operation": "barrier"}]})"),
            "user.json: collectives[0] ('f'): key 'args': missing required field");
}

TEST(RulesLoader, RejectsWrongTypes) {
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "collectives": [
      {"name": 3, "operation": "barrier", "args": {}}]})"),
            "user.json: collectives[0]: key 'name': expected a string, found an integer");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "collectives": [
      {"name": "f", "operation": "barrier", "blocking": "yes", "args": {}}]})"),
            "user.json: collectives[0] ('f'): key 'blocking': expected true or false, found a "
            "string");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "collectives": [
      {"name": "f", "operation": "comm_free", "synchronizes": 0, "args": {}}]})"),
            "user.json: collectives[0] ('f'): key 'synchronizes': expected true or false, found "
            "an integer");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "job_aborts": "MPI_Abort"})"),
            "user.json: key 'job_aborts': expected an array of strings, found a string");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "collectives": {}})"),
            "user.json: key 'collectives': expected an array, found an object");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "collectives": [
      {"name": "f", "operation": "bcast", "args": {"root": -1}}]})"),
            "user.json: collectives[0] ('f'): args: key 'root': expected an argument index, "
            "\"receiver\" or \"<index>.<field>\", found -1");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "collectives": [
      {"name": "f", "operation": "bcast", "args": {"root": "1.", "comm": 0}}]})"),
            "user.json: collectives[0] ('f'): args: key 'root': expected an argument index, "
            "\"receiver\" or \"<index>.<field>\", found \"1.\"");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "collectives": [
      {"name": "f", "operation": "x", "args": {}, "uniform_outputs": [1, "a"]}]})"),
            "user.json: collectives[0] ('f'): key 'uniform_outputs': expected argument indices "
            "from 0 to 64, found \"a\"");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "collectives": [
      {"name": "f", "operation": "comm_split", "args": {"comm": 0},
       "parts_by_placement": true}]})"),
            "user.json: collectives[0] ('f'): key 'parts_by_placement': parts a communicator, but "
            "\"args\" names no \"new_comm\"");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "collectives": [
      {"name": "f", "operation": "comm_split", "args": {"new_comm": 1},
       "parts_by_placement": "yes"}]})"),
            "user.json: collectives[0] ('f'): key 'parts_by_placement': expected true or false, "
            "found a string");
}

TEST(RulesLoader, RejectsUnknownOperation) {
  const std::string Error = errorOf(R"({"version": 1, "api": "x", "collectives": [
      {"name": "f", "operation": "bcast", "args": {}}]})");
  EXPECT_EQ(Error.rfind("user.json: collectives[0] ('f'): key 'operation': unknown operation "
                        "\"bcast\" (expected one of allgather, allreduce,",
                        0),
            0u)
      << Error;
}

TEST(RulesLoader, RejectsAmbiguousValueSources) {
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "rank_sources": [
      {"function": "my_rank", "out_arg": 0, "returns": true}]})"),
            "user.json: rank_sources[0] ('my_rank'): give exactly one of 'out_arg' and "
            "\"returns\": true");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "rank_sources": [{"function": "my_rank"}]})"),
            "user.json: rank_sources[0] ('my_rank'): give exactly one of 'out_arg' and "
            "\"returns\": true");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "rank_sources": [
      {"function": "my_rank", "returns": true, "value": "world_size"}]})"),
            "user.json: rank_sources[0] ('my_rank'): key 'value': unknown key");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "uniform_sources": [
      {"function": "n", "returns": true, "value": "big"}]})"),
            "user.json: uniform_sources[0] ('n'): key 'value': expected \"uniform\" or "
            "\"world_size\", found \"big\"");
}

TEST(RulesLoader, RejectsBadGroupRole) {
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "group_markers": [
      {"name": "g", "role": "open"}]})"),
            "user.json: group_markers[0] ('g'): key 'role': expected \"begin\" or \"end\", found "
            "\"open\"");
}

TEST(RulesLoader, RejectsBadPattern) {
  EXPECT_NE(errorOf(R"({"version": 1, "api": "x", "naming": {
      "rank_pattern": "([a-z", "world_size_pattern": "size"}})")
                .find("user.json: naming: key 'rank_pattern': invalid regular expression"),
            std::string::npos);
}

TEST(RulesLoader, RejectsDuplicatesAcrossFiles) {
  RuleSet Rules;
  ASSERT_EQ(errorText(mergeBuiltinRules(Rules)), "");
  EXPECT_EQ(load(R"({"version": 1, "api": "x", "collectives": [
      {"name": "MPI_Barrier", "operation": "barrier", "args": {"comm": 0}}]})",
                 Rules),
            "user.json: collectives: 'MPI_Barrier' is already defined in rules/mpi.json");
  EXPECT_EQ(load(R"({"version": 1, "api": "x", "naming": {
      "rank_pattern": "r", "world_size_pattern": "s"}})",
                 Rules),
            "user.json: key 'naming': already set by rules/environment.json; set the patterns in "
            "one file, or through the check options");
}

TEST(RulesLoader, FailedMergeLeavesRulesUnchanged) {
  RuleSet Rules;
  ASSERT_EQ(errorText(mergeBuiltinRules(Rules)), "");
  size_t Before = Rules.Collectives.size();
  EXPECT_NE(load(R"({"version": 1, "api": "x", "collectives": [
      {"name": "ok", "operation": "barrier", "args": {}},
      {"name": "bad", "operation": "barrier"}]})",
                 Rules),
            "");
  EXPECT_EQ(Rules.Collectives.size(), Before);
  EXPECT_EQ(Rules.findCollective("ok"), nullptr);
}

TEST(RulesLoader, MissingFileIsAnError) {
  RuleSet Rules;
  EXPECT_EQ(errorText(mergeRulesFile("/nonexistent/rules.json", Rules)),
            "/nonexistent/rules.json: cannot open the rules file");
}

TEST(RulesLoader, LoadRulesReadsBuiltinsThenFilesAndStopsAtTheFirstError) {
  RuleSet Rules;
  EXPECT_EQ(errorText(loadRules({std::string(LOCKSTEP_SOURCE_DIR) + "/examples/join/ddp_join.json"},
                                Rules)),
            "");
  EXPECT_NE(Rules.findCollective("MPI_Barrier"), nullptr);
  RuleSet Broken;
  EXPECT_EQ(errorText(loadRules({"/nonexistent/a.json", "/nonexistent/b.json"}, Broken)),
            "/nonexistent/a.json: cannot open the rules file");
}

TEST(RulesLoader, IncompleteRuleSetIsAnError) {
  RuleSet Rules;
  EXPECT_EQ(errorText(validateComplete(Rules)),
            "no rules file sets 'naming' (rank_pattern and world_size_pattern)");
}

TEST(RulesLoader, SplitsNameTheirColourAndNewCommunicator) {
  RuleSet Rules;
  ASSERT_EQ(errorText(mergeBuiltinRules(Rules)), "");
  for (const char *Name : {"MPI_Comm_split", "ncclCommSplit"}) {
    const CollectiveRule *Split = Rules.findCollective(Name);
    ASSERT_NE(Split, nullptr) << Name;
    EXPECT_EQ(Split->Color.Index, 1u) << Name;
    EXPECT_EQ(Split->NewComm.Index, 3u) << Name;
    EXPECT_FALSE(Split->PartsByPlacement) << Name;
  }
  // The shared-memory split parts the ranks by node, whatever type they pass.
  const CollectiveRule *ByNode = Rules.findCollective("MPI_Comm_split_type");
  ASSERT_NE(ByNode, nullptr);
  EXPECT_TRUE(ByNode->PartsByPlacement);
  EXPECT_EQ(ByNode->NewComm.Index, 4u);
  // Per-rank send counts of the v-variants legitimately differ.
  EXPECT_EQ(Rules.findCollective("MPI_Gatherv")->Count.K, ArgRef::Kind::Absent);
  // A Cartesian sub-grid names the dimensions it keeps.
  const CollectiveRule *CartSub = Rules.findCollective("MPI_Cart_sub");
  ASSERT_NE(CartSub, nullptr);
  EXPECT_EQ(CartSub->RemainDims.Index, 1u);
  EXPECT_EQ(CartSub->NewComm.Index, 2u);
}

TEST(RulesLoader, GroupCollectivesNameTheirGroup) {
  RuleSet Rules;
  ASSERT_EQ(errorText(mergeBuiltinRules(Rules)), "");
  const CollectiveRule *Create = Rules.findCollective("MPI_Comm_create_group");
  ASSERT_NE(Create, nullptr);
  EXPECT_EQ(Create->Group.K, ArgRef::Kind::Argument);
  EXPECT_EQ(Create->Group.Index, 1u);
  EXPECT_EQ(Create->NewComm.Index, 3u);
  // MPI_Comm_create is collective over the whole parent communicator.
  EXPECT_EQ(Rules.findCollective("MPI_Comm_create")->Group.K, ArgRef::Kind::Absent);
}

TEST(RulesLoader, FilesAndWindowsNameTheirHandle) {
  RuleSet Rules;
  ASSERT_EQ(errorText(mergeBuiltinRules(Rules)), "");
  EXPECT_EQ(Rules.findCollective("MPI_File_open")->NewHandle.Index, 4u);
  EXPECT_EQ(Rules.findCollective("MPI_Win_create")->NewHandle.Index, 5u);
  for (const char *Name : {"MPI_File_close", "MPI_Win_free"}) {
    const CollectiveRule *Rule = Rules.findCollective(Name);
    ASSERT_NE(Rule, nullptr) << Name;
    EXPECT_EQ(Rule->Handle.K, ArgRef::Kind::Argument) << Name;
    EXPECT_EQ(Rule->Handle.Index, 0u) << Name;
    EXPECT_EQ(Rule->Comm.K, ArgRef::Kind::Absent) << Name;
  }
  EXPECT_EQ(Rules.findCollective("MPI_Win_fence")->Handle.Index, 1u);
}

TEST(RulesLoader, FileSizesAreAgreedArguments) {
  RuleSet Rules;
  ASSERT_EQ(errorText(mergeBuiltinRules(Rules)), "");
  for (const char *Name : {"MPI_File_set_size", "MPI_File_preallocate"}) {
    const CollectiveRule *Rule = Rules.findCollective(Name);
    ASSERT_NE(Rule, nullptr) << Name;
    EXPECT_EQ(Rule->Size.K, ArgRef::Kind::Argument) << Name;
    EXPECT_EQ(Rule->Size.Index, 1u) << Name;
  }
  EXPECT_EQ(Rules.findCollective("MPI_File_write_all")->Size.K, ArgRef::Kind::Absent);
}

TEST(RulesLoader, InPlaceNamesTheReceiveSide) {
  RuleSet Rules;
  ASSERT_EQ(errorText(mergeBuiltinRules(Rules)), "");
  const CollectiveRule *Gather = Rules.findCollective("MPI_Gather");
  ASSERT_TRUE(Gather->InPlace);
  EXPECT_EQ(Gather->InPlace->Marker, "MPI_IN_PLACE");
  EXPECT_EQ(Gather->InPlace->Buffer.Index, Gather->Send.Index);
  EXPECT_EQ(Gather->InPlace->Count.Index, 4u);
  EXPECT_EQ(Gather->InPlace->Datatype.Index, 5u);
  // Scatter's send side is read at the root only: every rank compares its receive side.
  const CollectiveRule *Scatter = Rules.findCollective("MPI_Scatter");
  EXPECT_EQ(Scatter->Count.Index, 4u);
  EXPECT_EQ(Scatter->InPlace->Buffer.Index, Scatter->Recv.Index);
  EXPECT_FALSE(Rules.findCollective("MPI_Bcast")->InPlace);
}

TEST(RulesLoader, RejectsMalformedInPlace) {
  auto Entry = [](const std::string &InPlace) {
    return errorOf(R"({"version": 1, "api": "x", "collectives": [
        {"name": "f", "operation": "gather", "args": {"send": 0, "count": 1, "comm": 3},
         "in_place": )" +
                   InPlace + "}]}");
  };
  EXPECT_EQ(Entry(R"({"marker": "IN_PLACE", "buffer": "both"})"),
            "user.json: collectives[0] ('f'): in_place: key 'buffer': expected \"send\" or "
            "\"recv\", found \"both\"");
  EXPECT_EQ(Entry(R"({"marker": "IN_PLACE", "buffer": "recv"})"),
            "user.json: collectives[0] ('f'): in_place: key 'buffer': names the recv buffer, "
            "which \"args\" does not give");
  EXPECT_EQ(Entry(R"({"buffer": "send"})"),
            "user.json: collectives[0] ('f'): in_place: key 'marker': missing required field");
  EXPECT_EQ(Entry(R"({"marker": "IN_PLACE", "buffer": "send", "root": 2})"),
            "user.json: collectives[0] ('f'): in_place: key 'root': unknown key");
  EXPECT_EQ(Entry(R"({"marker": "IN_PLACE", "buffer": "send", "count": 2})"), "");
}

TEST(RulesLoader, ReadsJoinProtocols) {
  RuleSet Rules;
  ASSERT_EQ(load(R"({"version": 1, "api": "x", "join_protocols": [
      {"name": "guarded", "guard": "ns::Join", "shadows": ["ns::Model::forward"]},
      {"name": "calls", "begin": "join_begin", "end": "join_end", "shadows": ["step"]}]})",
                 Rules),
            "");
  ASSERT_EQ(Rules.JoinProtocols.size(), 2u);
  EXPECT_EQ(Rules.JoinProtocols[0].Guard, "ns::Join");
  EXPECT_EQ(Rules.JoinProtocols[1].End, "join_end");
  EXPECT_EQ(Rules.JoinProtocols[1].Shadows, std::vector<std::string>{"step"});
}

TEST(RulesLoader, RejectsMalformedJoinProtocols) {
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "join_protocols": [
      {"name": "j", "guard": "G", "begin": "b", "end": "e", "shadows": ["s"]}]})"),
            "user.json: join_protocols[0] ('j'): give either 'guard' or both 'begin' and 'end'");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "join_protocols": [
      {"name": "j", "begin": "b", "shadows": ["s"]}]})"),
            "user.json: join_protocols[0] ('j'): give either 'guard' or both 'begin' and 'end'");
  EXPECT_EQ(
      errorOf(R"({"version": 1, "api": "x", "join_protocols": [{"name": "j", "guard": "G"}]})"),
      "user.json: join_protocols[0] ('j'): key 'shadows': expected the collectives the "
      "protocol shadows");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "join_protocols": [
      {"name": "j", "guard": "G", "shadows": ["s"], "note": "x"}]})"),
            "user.json: join_protocols[0] ('j'): key 'note': unknown key");
}

TEST(RulesLoader, ReadsPerRankSources) {
  RuleSet Rules;
  ASSERT_EQ(load(R"({"version": 1, "api": "x", "per_rank_sources": [
      {"function": "read_sensor", "returns": true, "why": "a sensor reading"},
      {"function": "stamp", "returns": true, "out_arg": 0, "why": "a clock reading"}]})",
                 Rules),
            "");
  ASSERT_EQ(Rules.PerRankSources.size(), 2u);
  EXPECT_EQ(Rules.findPerRankSource("read_sensor")->Why, "a sensor reading");
  EXPECT_TRUE(Rules.findPerRankSource("read_sensor")->OutArgs.empty());
  EXPECT_TRUE(Rules.findPerRankSource("stamp")->Returns);
  EXPECT_EQ(Rules.findPerRankSource("stamp")->OutArgs, std::vector<unsigned>{0});
  EXPECT_FALSE(Rules.findPerRankSource("stamp")->When);
}

TEST(RulesLoader, LoadsOffsetReads) {
  RuleSet Rules;
  ASSERT_EQ(load(R"({"version": 1, "api": "x", "per_rank_sources": [
      {"function": "read_block", "out_arg": 2, "when_differs": 1, "why": "a block"}]})",
                 Rules),
            "");
  EXPECT_EQ(Rules.findPerRankSource("read_block")->When, 1u);
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "per_rank_sources": [
      {"function": "f", "out_arg": 2, "when_differs": 2, "why": "a block"}]})"),
            "user.json: per_rank_sources[0] ('f'): key 'when_differs': names an argument the "
            "data is written through");
  RuleSet Builtin;
  ASSERT_EQ(errorText(mergeBuiltinRules(Builtin)), "");
  EXPECT_EQ(Builtin.findPerRankSource("MPI_File_read_at_all")->When, 1u);
  EXPECT_EQ(Builtin.findPerRankSource("MPI_File_read_at_all")->OutArgs, std::vector<unsigned>{2});
}

TEST(RulesLoader, RejectsMalformedPerRankSources) {
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "per_rank_sources": [
      {"function": "f", "why": "a reading"}]})"),
            "user.json: per_rank_sources[0] ('f'): give 'out_arg' (or 'out_args'), \"returns\": "
            "true, or both");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "per_rank_sources": [
      {"function": "f", "out_arg": 1, "out_args": [2], "why": "a reading"}]})"),
            "user.json: per_rank_sources[0] ('f'): give 'out_arg' or 'out_args', not both");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "per_rank_sources": [
      {"function": "f", "returns": true}]})"),
            "user.json: per_rank_sources[0] ('f'): key 'why': missing required field");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "per_rank_sources": [
      {"function": "f", "returns": true, "why": ""}]})"),
            "user.json: per_rank_sources[0] ('f'): key 'why': expected a non-empty string");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "per_rank_sources": [
      {"function": "f", "returns": true, "why": "x", "value": "uniform"}]})"),
            "user.json: per_rank_sources[0] ('f'): key 'value': unknown key");
  RuleSet Rules;
  ASSERT_EQ(errorText(mergeBuiltinRules(Rules)), "");
  EXPECT_NE(load(R"({"version": 1, "api": "x", "per_rank_sources": [
      {"function": "MPI_Wtime", "returns": true, "why": "a clock reading"}]})",
                 Rules)
                .find("per_rank_sources: 'MPI_Wtime' is already defined in"),
            std::string::npos);
}

TEST(RulesLoader, ReadsCopies) {
  RuleSet Rules;
  ASSERT_EQ(load(R"({"version": 1, "api": "x", "copies": [
      {"function": "dev_copy", "to": 1, "from": 0}]})",
                 Rules),
            "");
  ASSERT_EQ(Rules.Copies.size(), 1u);
  EXPECT_EQ(Rules.findCopy("dev_copy")->To, 1u);
  EXPECT_EQ(Rules.findCopy("dev_copy")->From, 0u);
  EXPECT_EQ(Rules.findCopy("dev_copy")->Origin, "user.json");
}

TEST(RulesLoader, RejectsMalformedCopies) {
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "copies": [
      {"function": "f", "to": 0}]})"),
            "user.json: copies[0] ('f'): key 'from': missing required field");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "copies": [
      {"function": "f", "from": 1}]})"),
            "user.json: copies[0] ('f'): key 'to': missing required field");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "copies": [
      {"function": "f", "to": 1, "from": 1}]})"),
            "user.json: copies[0] ('f'): key 'from': a copy reads and writes different arguments");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "copies": [
      {"function": "f", "to": "dst", "from": 1}]})"),
            "user.json: copies[0] ('f'): key 'to': expected an argument index from 0 to 64, found "
            "a string");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "copies": [
      {"function": "f", "to": 0, "from": 1, "size": 2}]})"),
            "user.json: copies[0] ('f'): key 'size': unknown key");
  RuleSet Rules;
  ASSERT_EQ(errorText(mergeBuiltinRules(Rules)), "");
  EXPECT_NE(load(R"({"version": 1, "api": "x", "copies": [
      {"function": "memcpy", "to": 0, "from": 1}]})",
                 Rules)
                .find("copies: 'memcpy' is already defined in"),
            std::string::npos);
}

TEST(RulesLoader, ReadsRankSets) {
  RuleSet Rules;
  ASSERT_EQ(load(R"({"version": 1, "api": "x", "rank_sets": [
      {"function": "grp_of", "members": "all", "source": 0, "new_set": 1},
      {"function": "grp_pick", "members": "listed_ranges", "source": 0, "count": 1, "ranks": 2,
       "new_set": 3}],
      "collectives": [{"name": "comm_of", "operation": "comm_create",
                       "args": {"comm": 0, "member_group": 1, "new_comm": 2}}]})",
                 Rules),
            "");
  ASSERT_NE(Rules.findRankSet("grp_pick"), nullptr);
  EXPECT_EQ(Rules.findRankSet("grp_of")->Of, RankSetRule::Members::All);
  EXPECT_EQ(Rules.findRankSet("grp_pick")->Of, RankSetRule::Members::ListedRanges);
  EXPECT_EQ(Rules.findRankSet("grp_pick")->Ranks, 2u);
  EXPECT_EQ(Rules.findRankSet("grp_pick")->NewSet, 3u);
  EXPECT_EQ(Rules.findCollective("comm_of")->MemberGroup.Index, 1u);
  RuleSet Builtin;
  ASSERT_EQ(errorText(mergeBuiltinRules(Builtin)), "");
  EXPECT_EQ(Builtin.findRankSet("MPI_Group_excl")->Of, RankSetRule::Members::Unlisted);
  EXPECT_EQ(Builtin.findCollective("MPI_Comm_create")->MemberGroup.Index, 1u);
  EXPECT_TRUE(Builtin.findCollective("MPI_Iallreduce")->StartsLocally);
  EXPECT_FALSE(Builtin.findCollective("MPI_Allreduce")->StartsLocally);
}

TEST(RulesLoader, RejectsMalformedRankSets) {
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "rank_sets": [
      {"function": "f", "members": "some", "source": 0, "new_set": 1}]})"),
            "user.json: rank_sets[0] ('f'): key 'members': expected \"all\", \"listed\", "
            "\"unlisted\", \"listed_ranges\" or \"unlisted_ranges\", found \"some\"");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "rank_sets": [
      {"function": "f", "members": "listed", "source": 0, "ranks": 2, "new_set": 3}]})"),
            "user.json: rank_sets[0] ('f'): key 'count': missing required field (\"listed\" "
            "picks ranks from a list)");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "rank_sets": [
      {"function": "f", "members": "all", "source": 0, "count": 1, "new_set": 1}]})"),
            "user.json: rank_sets[0] ('f'): key 'count': \"all\" takes every member: it reads "
            "no list");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "rank_sets": [
      {"function": "f", "members": "all", "source": 0}]})"),
            "user.json: rank_sets[0] ('f'): key 'new_set': missing required field");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "collectives": [
      {"name": "f", "operation": "barrier", "starts_locally": true, "args": {"comm": 0}}]})"),
            "user.json: collectives[0] ('f'): key 'starts_locally': only a nonblocking call "
            "(\"blocking\": false) returns before the operation completes");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "collectives": [
      {"name": "f", "operation": "comm_create", "args": {"comm": 0, "member_group": 1}}]})"),
            "user.json: collectives[0] ('f'): args: key 'member_group': gives the new "
            "communicator's members, but names no \"new_comm\"");
  RuleSet Rules;
  ASSERT_EQ(errorText(mergeBuiltinRules(Rules)), "");
  EXPECT_NE(load(R"({"version": 1, "api": "x", "rank_sets": [
      {"function": "MPI_Comm_group", "members": "all", "source": 0, "new_set": 1}]})",
                 Rules)
                .find("rank_sets: 'MPI_Comm_group' is already defined in"),
            std::string::npos);
}

TEST(RulesLoader, ReadsStatus) {
  RuleSet Rules;
  ASSERT_EQ(load(R"({"version": 1, "api": "x", "status": [
      {"type": "my_err_t", "success": "MY_OK"},
      {"functions": "^my_", "success": "MY_OK", "value": 0},
      {"functions": "^my_open$", "failure": "null"}]})",
                 Rules),
            "");
  ASSERT_EQ(Rules.Statuses.size(), 3u);
  EXPECT_EQ(Rules.Statuses[0].Type, "my_err_t");
  EXPECT_FALSE(Rules.Statuses[0].Value.has_value());
  EXPECT_EQ(Rules.Statuses[1].Value, 0);
  EXPECT_FALSE(Rules.Statuses[1].NullFails);
  EXPECT_TRUE(Rules.Statuses[2].NullFails);
  EXPECT_FALSE(Rules.Statuses[2].Value.has_value());
}

TEST(RulesLoader, RejectsMalformedStatus) {
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "status": [
      {"type": "t", "functions": "^f", "success": "OK", "value": 0}]})"),
            "user.json: status[0] ('t'): give exactly one of 'type' and 'functions'");
  EXPECT_EQ(
      errorOf(R"({"version": 1, "api": "x", "status": [{"functions": "^f", "success": "OK"}]})"),
      "user.json: status[0]: key 'value': a 'functions' entry needs the success value");
  EXPECT_EQ(
      errorOf(
          R"({"version": 1, "api": "x", "status": [{"type": "t", "success": "OK", "value": "0"}]})"),
      "user.json: status[0] ('t'): key 'value': expected an integer, found \"0\"");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "status": [{"type": "t"}]})"),
            "user.json: status[0] ('t'): give exactly one of 'success' and 'failure'");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "status": [
      {"functions": "^f", "success": "OK", "value": 0, "failure": "null"}]})"),
            "user.json: status[0]: give exactly one of 'success' and 'failure'");
  EXPECT_EQ(
      errorOf(R"({"version": 1, "api": "x", "status": [{"functions": "^f", "failure": "-1"}]})"),
      "user.json: status[0]: key 'failure': expected \"null\" (a pointer result, null on "
      "failure), found \"-1\"");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "status": [
      {"functions": "^f", "failure": "null", "value": 0}]})"),
            "user.json: status[0]: key 'value': a 'failure' entry takes no success value");
  EXPECT_EQ(errorOf(R"({"version": 1, "api": "x", "status": [{"type": "t", "failure": "null"}]})"),
            "user.json: status[0] ('t'): key 'type': a 'failure' entry names its functions, not a "
            "type");
  EXPECT_NE(errorOf(R"({"version": 1, "api": "x", "status": [
      {"functions": "([", "success": "OK", "value": 0}]})")
                .find("user.json: status[0]: key 'functions': invalid regular expression"),
            std::string::npos);
}
