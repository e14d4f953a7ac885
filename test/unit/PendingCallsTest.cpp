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
  Call.collective.callee = "sync_all";
  if (Pending) {
    Call.usr = "c:@F@sync_all";
    Call.arguments = {"x", "sub"};
  } else {
    Call.collective.name = "MPI_Allreduce";
    Call.collective.communicator = "sub";
  }
  Finding F;
  F.check = "lockstep-rank-branch";
  F.location = {Train, 30, 5};
  F.function = "train_step";
  F.condition = "rank == 0";
  if (!Pending) {
    F.collective = "MPI_Allreduce";
    F.communicator = "sub";
  }
  findings::Wording W;
  W.calls = {Call};
  W.warning = Message::naming(0, Naming::Called) + Message::naming(0, Naming::OnCommunicator) +
              " runs only on ranks where 'rank == 0'; the other ranks never "
              "call it and the "
              "job hangs";
  if (Pending)
    W.calls[0].calleeNote = 0;
  else {
    F.notes.push_back({{Helper, 12, 3}, ""});
    W.notes.push_back(findings::calleeNote(Call.collective));
  }
  F.notes.push_back({{Train, 29, 7}, ""});
  W.notes.push_back("'rank == 0' differs between ranks");
  F.notes.push_back({{Train, 30, 5}, ""});
  W.notes.push_back("call 'sync_all' on every rank: move it out of the branch "
                    "and keep only the "
                    "rank-specific work under the condition");
  findings::render(F, W);
  return F;
}

analysis::ExternalSummaries summaries(bool PerformsCollective) {
  analysis::ExternalFunction SyncAll;
  SyncAll.name = "sync_all";
  if (PerformsCollective)
    SyncAll.collectives.push_back({"MPI_Allreduce", {Helper, 12, 3}, "c", 1u});
  return {{"c:@F@sync_all", SyncAll}};
}

void expectSame(const Finding &A, const Finding &B) {
  EXPECT_EQ(A.message, B.message);
  EXPECT_EQ(A.collective, B.collective);
  EXPECT_EQ(A.communicator, B.communicator);
  ASSERT_EQ(A.notes.size(), B.notes.size());
  for (size_t I = 0; I < A.notes.size(); ++I) {
    EXPECT_EQ(A.notes[I].message, B.notes[I].message) << "note " << I + 1;
    EXPECT_EQ(A.notes[I].location.file, B.notes[I].location.file) << "note " << I + 1;
    EXPECT_EQ(A.notes[I].location.line, B.notes[I].location.line) << "note " << I + 1;
  }
  EXPECT_FALSE(A.pending);
  EXPECT_FALSE(B.pending);
}

} // namespace

TEST(PendingCalls, ResolvedReadsAsALocalCallee) {
  const Finding Local = built(false);
  EXPECT_EQ(Local.message, "'sync_all' (which calls 'MPI_Allreduce') on 'sub' runs only on ranks "
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
  ASSERT_TRUE(Read[0].pending);
  std::vector<Finding> Resolved = resolvePending(Read, summaries(true), false);
  ASSERT_EQ(Resolved.size(), 1u);
  expectSame(Resolved[0], built(false));
}

TEST(PendingCalls, UnresolvedNeverShowsAPlaceholder) {
  const Finding Pending = built(true);
  ASSERT_TRUE(Pending.pending);
  EXPECT_EQ(Pending.message, "'sync_all' runs only on ranks where 'rank == 0'; the other ranks "
                             "never call it and the job hangs");
  for (const std::string &Text : {Pending.message, toText({Pending})}) {
    EXPECT_EQ(Text.find("c:@F@"), std::string::npos) << Text;
    EXPECT_EQ(Text.find("pending"), std::string::npos) << Text;
  }
  // A shard keeps it as it is; the whole project drops a library call.
  std::vector<Finding> Kept = resolvePending({Pending}, {}, /*KeepUnresolved=*/true);
  ASSERT_EQ(Kept.size(), 1u);
  EXPECT_EQ(Kept[0].message, Pending.message);
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
