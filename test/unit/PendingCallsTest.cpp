// Pending calls resolved from the structured wording: a finding about a call
// to a function of another file, once its summary is known, reads exactly
// as the one the checks build when that function is in the same file, and
// before that never shows a placeholder.
#include "PendingCalls.h"
#include "ErrorText.h"

#include <gtest/gtest.h>

#include <functional>

using namespace lockstep;
using namespace lockstep::cli;
using findings::Message;
using findings::Naming;

namespace {

const std::string Train = "/work/proj/src/train.c", Helper = "/work/proj/src/helper.c";

// What a check builds for `if (rank == 0) sync_all(x, sub);` where
// sync_all(int, MPI_Comm c) runs MPI_Allreduce on c, in the order the
// checks add things: the warning, the callee note, the other notes. With
// \p Pending, sync_all is defined in another file and not summarised yet.
Finding built(bool Pending) {
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

analysis::ExternalSummaries summaries(bool PerformsCollective) {
  analysis::ExternalFunction SyncAll;
  SyncAll.Name = "sync_all";
  if (PerformsCollective)
    SyncAll.Collectives.push_back({"MPI_Allreduce", {Helper, 12, 3}, "c", 1u});
  return {{"c:@F@sync_all", SyncAll}};
}

void expectSame(const Finding &A, const Finding &B) {
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

} // namespace

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
  std::vector<Finding> Shard = resolvePending({built(true)}, {}, /*KeepUnresolved=*/true);
  ASSERT_EQ(Shard.size(), 1u);
  assignIds(Shard, "/work/proj");
  std::vector<Finding> Read;
  ASSERT_EQ(
      errorText(readFindingsJson(toJson(Shard, nlohmann::json::object()), "shard.json", Read)), "");
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
  std::vector<Finding> Shard = {built(true)};
  assignIds(Shard, "/work/proj");
  nlohmann::json Doc = nlohmann::json::parse(toJson(Shard, nlohmann::json::object()));
  auto Error = [&](const std::function<void(nlohmann::json &)> &Damage) {
    nlohmann::json Copy = Doc;
    Damage(Copy["findings"][0]["pending"]);
    std::vector<Finding> Read;
    std::string Message = errorText(readFindingsJson(Copy.dump(), "shard.json", Read));
    EXPECT_NE(Message, "");
    return Message;
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
