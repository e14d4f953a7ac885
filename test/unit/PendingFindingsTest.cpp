// Pending findings resolved from the structured wording: a finding about a
// call to a function of another file, once its summary is known, reads
// exactly as the one the checks build when that function is in the same
// file, and before that never shows a placeholder; a finding on a field that
// another file may write per rank stands, with the note at that write, only
// once a summary says one does.
#include "PendingFindings.h"
#include "ErrorText.h"

#include <gtest/gtest.h>

#include <functional>

using namespace lockstep;
using namespace lockstep::cli;
using findings::Message;
using findings::Naming;

static const std::string Train = "/work/proj/src/train.c", Helper = "/work/proj/src/helper.c";

// What a check builds for `if (rank == 0) sync_all(x, sub);` where
// sync_all(int, MPI_Comm c) runs MPI_Allreduce on c, in the order the
// checks add things: the warning, the callee note, the other notes. With
// \p Pending, sync_all is defined in another file and not summarised yet.
static Finding built(bool Pending) {
  findings::Call Call;
  Call.Collective.Callee = "sync_all";
  if (Pending) {
    Call.Usr = "c:@F@sync_all";
    Call.Arguments = {"x", "sub"};
  } else {
    Call.Collective.Name = "MPI_Allreduce";
    Call.Collective.Communicator = "sub";
  }
  Finding F;
  F.Check = "lockstep-rank-branch";
  F.Location = {Train, 30, 5};
  F.Function = "train_step";
  F.Condition = "rank == 0";
  if (!Pending) {
    F.Collective = "MPI_Allreduce";
    F.Communicator = "sub";
  }
  findings::Wording W;
  W.Calls = {Call};
  W.Warning = Message::naming(0, Naming::Called) + Message::naming(0, Naming::OnCommunicator) +
              " runs only on ranks where 'rank == 0'; the other ranks never "
              "call it and the "
              "job hangs";
  if (Pending)
    W.Calls[0].CalleeNote = 0;
  else {
    F.Notes.push_back({{Helper, 12, 3}, ""});
    W.Notes.push_back(findings::calleeNote(Call.Collective));
  }
  F.Notes.push_back({{Train, 29, 7}, ""});
  W.Notes.push_back("'rank == 0' differs between ranks");
  F.Notes.push_back({{Train, 30, 5}, ""});
  W.Notes.push_back("call 'sync_all' on every rank: move it out of the branch "
                    "and keep only the "
                    "rank-specific work under the condition");
  findings::render(F, W);
  return F;
}

static analysis::ExternalSummaries summaries(bool PerformsCollective) {
  analysis::ExternalFunction SyncAll;
  SyncAll.Name = "sync_all";
  if (PerformsCollective)
    SyncAll.Collectives.push_back({"MPI_Allreduce", {Helper, 12, 3}, "c", 1u});
  return {{"c:@F@sync_all", SyncAll}};
}

static void expectSame(const Finding &A, const Finding &B) {
  EXPECT_EQ(A.Message, B.Message);
  EXPECT_EQ(A.Collective, B.Collective);
  EXPECT_EQ(A.Communicator, B.Communicator);
  ASSERT_EQ(A.Notes.size(), B.Notes.size());
  for (size_t I = 0; I < A.Notes.size(); ++I) {
    EXPECT_EQ(A.Notes[I].Message, B.Notes[I].Message) << "note " << I + 1;
    EXPECT_EQ(A.Notes[I].Location.File, B.Notes[I].Location.File) << "note " << I + 1;
    EXPECT_EQ(A.Notes[I].Location.Line, B.Notes[I].Location.Line) << "note " << I + 1;
  }
  EXPECT_FALSE(A.Pending);
  EXPECT_FALSE(B.Pending);
}

/// \p Pending as a shard writes it in its JSON (kept, with its id) and
/// `lockstep merge` reads it back.
static std::vector<Finding> throughShardJson(const Finding &Pending) {
  std::vector<Finding> Shard = resolvePending({Pending}, {}, /*KeepUnresolved=*/true);
  assignIds(Shard, "/work/proj");
  std::vector<Finding> Read;
  EXPECT_EQ(
      errorText(readFindingsJson(toJson(Shard, nlohmann::json::object()), "shard.json", Read)), "");
  return Read;
}

/// The error reading a shard's JSON of \p Pending whose pending object
/// \p Damage changed.
static std::string damagedShardError(const Finding &Pending,
                                     const std::function<void(nlohmann::json &)> &Damage) {
  std::vector<Finding> Shard = {Pending};
  assignIds(Shard, "/work/proj");
  nlohmann::json Doc = nlohmann::json::parse(toJson(Shard, nlohmann::json::object()));
  Damage(Doc["findings"][0]["pending"]);
  std::vector<Finding> Read;
  return errorText(readFindingsJson(Doc.dump(), "shard.json", Read));
}

static const std::string Solve = "/work/proj/src/solve.cpp", Decomp = "/work/proj/src/decomp.cpp",
                         DecompHeader = "/work/proj/src/decomp.h";

// What rank-loop builds for `for (i = 0; i < decomp.local_n; ++i)
// MPI_Allreduce(...)` in solve.cpp: with \p Pending, no summary has named
// the field yet; without, the one of decomp.cpp says it writes it per rank.
// With \p ViaCall, the loop's collective is a call to sync_all as in built().
static Finding loopOverField(bool Pending, bool ViaCall = false) {
  findings::Call Call;
  if (ViaCall && Pending) {
    Call.Collective.Callee = "sync_all";
    Call.Usr = "c:@F@sync_all";
    Call.Arguments = {"x", "sub"};
    Call.CalleeNote = 0;
  } else {
    Call.Collective = {"MPI_Allreduce", ViaCall ? "sub" : "comm", ViaCall ? "sync_all" : "", ""};
  }
  Finding F;
  F.Check = "lockstep-rank-loop";
  F.Location = {Solve, 7, 5};
  F.Function = "solve";
  if (!Call.pending()) {
    F.Collective = Call.Collective.Name;
    F.Communicator = Call.Collective.Communicator;
  }
  findings::Wording W;
  W.Calls = {Call};
  W.Warning =
      Message::naming(0, Naming::Called) + " runs in a loop whose trip count differs between ranks";
  if (ViaCall && !Pending) {
    F.Notes.push_back({{Helper, 12, 3}, ""});
    W.Notes.push_back(findings::calleeNote(Call.Collective));
  }
  F.Notes.push_back({{Solve, 6, 19}, ""});
  W.Notes.push_back("'i < decomp.local_n' differs between ranks");
  F.Notes.push_back({{DecompHeader, 7, 7}, ""});
  W.Notes.push_back("the rank comes from 'Decomposition::local_n', defined in another file");
  if (Pending) {
    W.Reads.push_back({"c:@S@Decomposition@FI@local_n", "Decomposition::local_n", 2});
  } else {
    F.Notes.push_back({{Decomp, 7, 3}, ""});
    W.Notes.push_back("'Decomposition::local_n' gets the rank here");
  }
  F.Notes.push_back({{Solve, 7, 5}, ""});
  W.Notes.push_back("agree on the trip count first");
  findings::render(F, W);
  return F;
}

static analysis::ExternalSummaries perRankField() {
  analysis::ExternalFunction Field;
  Field.Name = "Decomposition::local_n";
  Field.Storage = Field.ReturnsRank = true;
  Field.RankSite = {Decomp, 7, 3};
  return {{"c:@S@Decomposition@FI@local_n", Field}};
}

TEST(PendingReads, ResolvedReadsAsWithTheSummary) {
  const Finding Pending = loopOverField(true);
  ASSERT_TRUE(Pending.Pending);
  EXPECT_EQ(Pending.Message, loopOverField(false).Message);
  std::vector<Finding> Resolved = resolvePending({Pending}, perRankField(), false);
  ASSERT_EQ(Resolved.size(), 1u);
  expectSame(Resolved[0], loopOverField(false));
}

TEST(PendingReads, DroppedUnlessAFileWritesTheFieldPerRank) {
  EXPECT_TRUE(resolvePending({loopOverField(true)}, {}, false).empty());
  analysis::ExternalSummaries Other = perRankField();
  Other.begin()->second.ReturnsRank = false; // named, but not as per-rank storage
  EXPECT_TRUE(resolvePending({loopOverField(true)}, Other, false).empty());
  // A split's handle, or a rank in a part of the job, needs membership: the
  // summaries in the analysis (--summaries) decide those.
  Other = perRankField();
  Other.begin()->second.ReturnsSplit = true;
  EXPECT_TRUE(resolvePending({loopOverField(true)}, Other, false).empty());
  Other = perRankField();
  Other.begin()->second.RankPart = "node";
  EXPECT_TRUE(resolvePending({loopOverField(true)}, Other, false).empty());
}

TEST(PendingReads, KeptByAShardAndResolvedAfterItsJson) {
  std::vector<Finding> Read = throughShardJson(loopOverField(true));
  ASSERT_EQ(Read.size(), 1u);
  ASSERT_TRUE(Read[0].Pending);
  ASSERT_EQ(Read[0].Pending->Reads.size(), 1u);
  std::vector<Finding> Resolved = resolvePending(Read, perRankField(), false);
  ASSERT_EQ(Resolved.size(), 1u);
  expectSame(Resolved[0], loopOverField(false));
}

TEST(PendingReads, ACallAndAReadBothResolveInPlace) {
  analysis::ExternalSummaries Both = perRankField();
  Both.merge(summaries(true));
  std::vector<Finding> Resolved = resolvePending({loopOverField(true, true)}, Both, false);
  ASSERT_EQ(Resolved.size(), 1u);
  expectSame(Resolved[0], loopOverField(false, true));
  // The callee performs no collective: nothing to report, whatever the field.
  EXPECT_TRUE(resolvePending(
                  {loopOverField(true, true)},
                  [] {
                    analysis::ExternalSummaries S = perRankField();
                    S.merge(summaries(false));
                    return S;
                  }(),
                  false)
                  .empty());
}

TEST(PendingReads, BadReadsAreAnError) {
  auto Error = [](const std::function<void(nlohmann::json &)> &Damage) {
    return damagedShardError(loopOverField(true), Damage);
  };
  EXPECT_EQ(Error([](nlohmann::json &P) { P["reads"][0]["note"] = 9; }),
            "shard.json: finding 1: pending, read 1: key 'note': expected a place among the 3 "
            "notes, found 9");
  EXPECT_EQ(Error([](nlohmann::json &P) { P["reads"][0]["usr"] = ""; }),
            "shard.json: finding 1: pending, read 1: key 'usr': expected a non-empty string");
  EXPECT_EQ(Error([](nlohmann::json &P) { P.erase("reads"); }),
            "shard.json: finding 1: pending: key 'calls': expected a pending call or read");
}

TEST(PendingCalls, ResolvedReadsAsALocalCallee) {
  const Finding Local = built(false);
  EXPECT_EQ(Local.Message, "'sync_all' (which calls 'MPI_Allreduce') on 'sub' runs only on ranks "
                           "where 'rank == 0'; the other ranks never call it and the job hangs");
  std::vector<Finding> Resolved = resolvePending({built(true)}, summaries(true), false);
  ASSERT_EQ(Resolved.size(), 1u);
  expectSame(Resolved[0], Local);
}

TEST(PendingCalls, ResolvedAfterAShardsJsonReadsAsALocalCallee) {
  // `lockstep check --shard` writes the pending finding; `lockstep merge`
  // reads it back and resolves it.
  std::vector<Finding> Read = throughShardJson(built(true));
  ASSERT_EQ(Read.size(), 1u);
  ASSERT_TRUE(Read[0].Pending);
  std::vector<Finding> Resolved = resolvePending(Read, summaries(true), false);
  ASSERT_EQ(Resolved.size(), 1u);
  expectSame(Resolved[0], built(false));
}

TEST(PendingCalls, UnresolvedNeverShowsAPlaceholder) {
  const Finding Pending = built(true);
  ASSERT_TRUE(Pending.Pending);
  EXPECT_EQ(Pending.Message, "'sync_all' runs only on ranks where 'rank == 0'; the other ranks "
                             "never call it and the job hangs");
  for (const std::string &Text : {Pending.Message, toText({Pending})}) {
    EXPECT_EQ(Text.find("c:@F@"), std::string::npos) << Text;
    EXPECT_EQ(Text.find("pending"), std::string::npos) << Text;
  }
  // A shard keeps it as it is; the whole project drops a library call.
  std::vector<Finding> Kept = resolvePending({Pending}, {}, /*KeepUnresolved=*/true);
  ASSERT_EQ(Kept.size(), 1u);
  EXPECT_EQ(Kept[0].Message, Pending.Message);
  EXPECT_TRUE(resolvePending({Pending}, {}, /*KeepUnresolved=*/false).empty());
}

TEST(PendingCalls, DroppedWhenTheCalleePerformsNoCollective) {
  EXPECT_TRUE(resolvePending({built(true)}, summaries(false), true).empty());
}

TEST(PendingCalls, BadPendingWordingIsAnError) {
  auto Error = [](const std::function<void(nlohmann::json &)> &Damage) {
    return damagedShardError(built(true), Damage);
  };
  EXPECT_EQ(Error([](nlohmann::json &P) { P["message"][0]["call"] = 3; }),
            "shard.json: finding 1: pending: message, part 1: key 'call': "
            "expected an index of "
            "'calls', found 3");
  EXPECT_EQ(Error([](nlohmann::json &P) { P["notes"].erase(0); }),
            "shard.json: finding 1: pending: key 'notes': expected one message "
            "per note (2), "
            "found 1");
  EXPECT_EQ(Error([](nlohmann::json &P) { P["calls"][0]["callee_note"] = 9; }),
            "shard.json: finding 1: pending, call 1: key 'callee_note': "
            "expected a place among "
            "the 2 notes, found 9");
  EXPECT_EQ(Error([](nlohmann::json &P) { P["message"][0]["naming"] = "name"; }),
            "shard.json: finding 1: pending: message, part 1: key 'naming': expected "
            "'collective', 'called' or 'on-communicator', found 'name'");
}
