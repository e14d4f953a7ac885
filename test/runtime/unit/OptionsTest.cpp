// `lockstep run` reads its options as every lockstep command does: a value
// after a space or after '=', and the same wording for the same problem.
#include "Options.h"

#include <gtest/gtest.h>

using namespace lockstep;
using namespace lockstep::run;

static args::ParseResult parse(std::vector<std::string> Args, RunOptions &Out) {
  return parseRunOptions(Args, Out);
}

namespace {

TEST(RunOptionsTest, ValueAfterSpaceOrEquals) {
  RunOptions Spaced, Joined;
  ASSERT_TRUE(
      parse({"-n", "4", "--timeout", "5", "--json", "out.json", "--", "prog"}, Spaced).isOk());
  ASSERT_TRUE(parse({"-n=4", "--timeout=5", "--json=out.json", "--", "prog"}, Joined).isOk());
  for (const RunOptions *O : {&Spaced, &Joined}) {
    EXPECT_EQ(O->Ranks, 4);
    EXPECT_EQ(O->StallTimeoutSeconds, 5);
    EXPECT_EQ(O->JsonFile, "out.json");
    EXPECT_EQ(O->Command, std::vector<std::string>{"prog"});
  }
  RunOptions Long;
  ASSERT_TRUE(parse({"--nproc=2", "--mpi", "--mpirun-args=--bind-to none", "prog"}, Long).isOk());
  EXPECT_EQ(Long.Ranks, 2);
  EXPECT_EQ(Long.MpirunArgs, (std::vector<std::string>{"--bind-to", "none"}));
}

TEST(RunOptionsTest, ProblemsWordedAsInEveryCommand) {
  RunOptions O;
  EXPECT_EQ(parse({"-n"}, O).message(), "option '-n' needs a value");
  EXPECT_EQ(parse({"-n", "2", "--bogus", "prog"}, O).message(), "unknown option '--bogus'");
  EXPECT_EQ(parse({"--nproc=0", "prog"}, O).message(), "'0' is not a number of ranks (1 to 4096)");
  EXPECT_TRUE(parse({"--help"}, O).isHelp());
}

// Not an option: a program argument after the program keeps its '='.
TEST(RunOptionsTest, ProgramArgumentsUntouched) {
  RunOptions O;
  ASSERT_TRUE(parse({"-n", "2", "prog", "--lr=0.1", "-n"}, O).isOk());
  EXPECT_EQ(O.Command, (std::vector<std::string>{"prog", "--lr=0.1", "-n"}));
}

} // namespace
