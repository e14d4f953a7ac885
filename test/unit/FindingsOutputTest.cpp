// The outputs of lockstep check: ids that survive unrelated edits, clang
// text, the JSON format and its strict reader, baselines, merges and SARIF.
// With --write-sarif FILE the binary writes a representative SARIF log
// instead of running the tests; test/sarif/validate_sarif.py checks that
// file against the shipped SARIF 2.1.0 schema (ctest: sarif.schema).
#include "FindingsOutput.h"
#include "CheckDocs.h"
#include "CheckTable.h"
#include "ErrorText.h"
#include "ProjectPaths.h"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <random>
#include <sstream>

using namespace lockstep::cli;
using nlohmann::json;

namespace {

const std::string Root = "/work/proj";

Finding finding(const std::string &Check, const std::string &File, unsigned Line,
                const std::string &Function, const std::string &Message) {
  Finding F;
  F.Check = Check;
  F.Location = {File, Line, 5};
  F.Function = Function;
  F.Message = Message;
  return F;
}

// The README's example: a rank-0-only call to a function with a barrier.
Finding checkpointFinding(unsigned LineShift = 0, const std::string &At = Root) {
  Finding F = finding("lockstep-rank-branch", At + "/src/train.c", 30 + LineShift, "train_step",
                      "'save_checkpoint' (which calls 'MPI_Barrier') runs only on ranks where "
                      "'rank == 0'; the other ranks never call it and the job hangs");
  F.Collective = "MPI_Barrier";
  F.Communicator = "comm";
  F.Condition = "rank == 0";
  F.Notes = {
      {{At + "/src/ckpt.c", 17, 3}, "'MPI_Barrier' is called here, inside 'save_checkpoint'"},
      {{At + "/src/train.c", 29 + LineShift, 7}, "'rank == 0' differs between ranks"},
      {{At + "/src/train.c", 25 + LineShift, 3}, "the rank comes from 'MPI_Comm_rank' here"}};
  return F;
}

std::string idAfterAssign(std::vector<Finding> Findings, size_t Index,
                          const std::string &ProjectRoot = Root) {
  assignIds(Findings, ProjectRoot);
  return Findings[Index].Id;
}

std::string readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

// A run's worth of findings that uses every field and the awkward cases:
// a path with a space, a file outside the root, a note without a place,
// brackets in a message, and a check without a documentation page.
std::vector<Finding> sampleFindings() {
  std::vector<Finding> Findings = {checkpointFinding()};
  Finding Exit = finding("lockstep-rank-exit", Root + "/src/eval loop.cpp", 8, "evaluate",
                         "'MPI_Allreduce' is never reached on ranks where 'rank >= shards' [x]");
  Exit.Notes = {{{Root + "/src/eval loop.cpp", 7, 5}, "ranks where 'rank >= shards' return here"},
                {{"", 0, 0}, "a note without a place"}};
  Finding Header = finding("lockstep-group-balance", "/usr/include/wrap.h", 12, "", "open group");
  Finding Future =
      finding("lockstep-future-check", Root + "/a.c", 1, "main", "from a newer checker");
  Future.Location.Column = 0;
  Findings.insert(Findings.end(), {Exit, Header, Future});
  assignIds(Findings, Root);
  sortFindings(Findings);
  return Findings;
}

} // namespace

// ---- ids --------------------------------------------------------------------

TEST(StableId, IsSixteenHexDigits) {
  std::string Id = stableId(checkpointFinding(), Root, 0);
  EXPECT_EQ(Id.size(), 16u);
  EXPECT_EQ(Id.find_first_not_of("0123456789abcdef"), std::string::npos) << Id;
  EXPECT_EQ(Id, stableId(checkpointFinding(), Root, 0));
}

TEST(StableId, SurvivesLinesInsertedAbove) {
  EXPECT_EQ(idAfterAssign({checkpointFinding(0)}, 0), idAfterAssign({checkpointFinding(12)}, 0));
}

TEST(StableId, SurvivesRenamingAnUnrelatedFunction) {
  Finding Other = finding("lockstep-rank-loop", Root + "/src/train.c", 80, "load_data", "loop");
  std::vector<Finding> Before = {checkpointFinding(), Other};
  Other.Function = "read_shards";
  std::vector<Finding> After = {checkpointFinding(), Other};
  EXPECT_EQ(idAfterAssign(Before, 0), idAfterAssign(After, 0));
  EXPECT_NE(idAfterAssign(Before, 1), idAfterAssign(After, 1));
}

TEST(StableId, SurvivesMovingTheCheckout) {
  EXPECT_EQ(idAfterAssign({checkpointFinding(0, Root)}, 0, Root),
            idAfterAssign({checkpointFinding(0, "/home/ci/build/x")}, 0, "/home/ci/build/x/"));
}

TEST(StableId, DiffersByCheckFileFunctionAndMessage) {
  Finding Base = checkpointFinding();
  std::string Id = stableId(Base, Root, 0);
  Finding F = Base;
  F.Check = "lockstep-rank-exit";
  EXPECT_NE(stableId(F, Root, 0), Id);
  F = Base;
  F.Location.File = Root + "/src/other.c";
  EXPECT_NE(stableId(F, Root, 0), Id);
  F = Base;
  F.Function = "eval_step";
  EXPECT_NE(stableId(F, Root, 0), Id);
  F = Base;
  F.Message = "'save_checkpoint' runs only on ranks where 'rank == 1'";
  EXPECT_NE(stableId(F, Root, 0), Id);
  EXPECT_NE(stableId(Base, Root, 1), Id);
}

TEST(StableId, IdenticalFindingsInOneFunctionStayDistinct) {
  Finding A =
      finding("lockstep-rank-branch", Root + "/a.c", 10, "f", "'MPI_Barrier' runs only on rank 0");
  Finding B = A;
  B.Location.Line = 20;
  std::vector<Finding> Findings = {B, A};
  assignIds(Findings, Root);
  EXPECT_NE(Findings[0].Id, Findings[1].Id);
  // Numbered by position, not by the order they were reported in.
  EXPECT_EQ(Findings[1].Id, stableId(A, Root, 0));
  EXPECT_EQ(Findings[0].Id, stableId(B, Root, 1));
}

TEST(StableId, OneFindingSeenThroughTwoTranslationUnitsIsOne) {
  Finding A = finding("lockstep-rank-branch", Root + "/inc/h.h", 10, "f", "m");
  std::vector<Finding> Findings = {A, A};
  assignIds(Findings, Root);
  EXPECT_EQ(Findings[0].Id, Findings[1].Id);
  EXPECT_EQ(mergeFindings({Findings}).size(), 1u);
}

TEST(ProjectPaths, RelativeUnderTheRootOnly) {
  auto Rel = [](const std::string &File, const std::string &R) {
    ProjectPath P = relativeToRoot(File, R);
    return (P.UnderRoot ? "in:" : "out:") + P.Path;
  };
  EXPECT_EQ(Rel("/work/proj/src/./a.c", "/work/proj/"), "in:src/a.c");
  EXPECT_EQ(Rel("/work/proj/src/../b.c", "/work/proj"), "in:b.c");
  EXPECT_EQ(Rel("/work/project2/a.c", "/work/proj"), "out:/work/project2/a.c");
  EXPECT_EQ(Rel("/work/proj", "/work/proj"), "out:/work/proj");
  EXPECT_EQ(Rel("/usr/include/mpi.h", ""), "out:/usr/include/mpi.h");
  EXPECT_EQ(Rel("src/a.c", "/work/proj"), "in:src/a.c");
  EXPECT_EQ(percentEncode("src/a b%#:c++.cu"), "src/a%20b%25%23%3Ac%2B%2B.cu");
  EXPECT_EQ(fileUri("/work/my proj", true), "file:///work/my%20proj/");
  EXPECT_EQ(fileUri("/work/proj/", true), "file:///work/proj/");
}

// ---- text -------------------------------------------------------------------

TEST(TextOutput, ClangStyleRelativeToTheGivenDirectory) {
  Finding F = checkpointFinding();
  F.Notes.resize(1);
  F.Notes.push_back({{"", 0, 0}, "no place"});
  EXPECT_EQ(toText({F}, Root),
            "src/train.c:30:5: warning: 'save_checkpoint' (which calls 'MPI_Barrier') runs only on "
            "ranks where 'rank == 0'; the other ranks never call it and the job hangs "
            "[lockstep-rank-branch]\n"
            "src/ckpt.c:17:3: note: 'MPI_Barrier' is called here, inside 'save_checkpoint'\n"
            "note: no place\n");
  Finding Outside = finding("lockstep-rank-loop", "/usr/include/x.h", 4, "", "m");
  Outside.Location.Column = 0;
  EXPECT_EQ(toText({Outside}, Root), "/usr/include/x.h:4: warning: m [lockstep-rank-loop]\n");
  EXPECT_EQ(toText({Outside}), "/usr/include/x.h:4: warning: m [lockstep-rank-loop]\n");
}

// ---- JSON -------------------------------------------------------------------

TEST(FindingsJson, RoundTripsEveryField) {
  std::vector<Finding> Findings = sampleFindings();
  Findings[0].Message += " \xc3\xa9"; // UTF-8 survives
  json Summary = {{"files", 3}, {"findings", 4}, {"failed", 0}};
  std::string Text = toJson(Findings, Summary);
  std::vector<Finding> Back;
  json SummaryBack;
  ASSERT_EQ(errorText(readFindingsJson(Text, "out.json", Back, &SummaryBack)), "");
  EXPECT_EQ(SummaryBack, Summary);
  ASSERT_EQ(Back.size(), Findings.size());
  for (size_t I = 0; I < Back.size(); ++I) {
    const Finding &A = Findings[I], &B = Back[I];
    EXPECT_EQ(A.Id, B.Id);
    EXPECT_EQ(A.Check, B.Check);
    EXPECT_EQ(A.Location.File, B.Location.File);
    EXPECT_EQ(A.Location.Line, B.Location.Line);
    EXPECT_EQ(A.Location.Column, B.Location.Column);
    EXPECT_EQ(A.Message, B.Message);
    EXPECT_EQ(A.Function, B.Function);
    EXPECT_EQ(A.Collective, B.Collective);
    EXPECT_EQ(A.Communicator, B.Communicator);
    EXPECT_EQ(A.Condition, B.Condition);
    ASSERT_EQ(A.Notes.size(), B.Notes.size());
    for (size_t N = 0; N < A.Notes.size(); ++N) {
      EXPECT_EQ(A.Notes[N].Message, B.Notes[N].Message);
      EXPECT_EQ(A.Notes[N].Location.File, B.Notes[N].Location.File);
      EXPECT_EQ(A.Notes[N].Location.Line, B.Notes[N].Location.Line);
      EXPECT_EQ(A.Notes[N].Location.Column, B.Notes[N].Location.Column);
    }
  }
  // Writing what was read gives the same bytes.
  EXPECT_EQ(toJson(Back, SummaryBack), Text);
}

TEST(FindingsJson, ShapeOfTheDocument) {
  json Doc = json::parse(toJson({checkpointFinding()}, nullptr));
  EXPECT_EQ(Doc["version"], 1);
  EXPECT_EQ(Doc["tool"], "lockstep");
  EXPECT_EQ(Doc["summary"], json::object());
  const json &F = Doc["findings"][0];
  for (const char *Key : {"id", "check", "file", "line", "column", "message", "function",
                          "collective", "communicator", "condition", "notes"})
    EXPECT_TRUE(F.contains(Key)) << Key;
  EXPECT_EQ(F["notes"][0],
            json({{"file", Root + "/src/ckpt.c"},
                  {"line", 17},
                  {"column", 3},
                  {"message", "'MPI_Barrier' is called here, inside 'save_checkpoint'"}}));
}

TEST(FindingsJson, InvalidUtf8IsReplacedNotThrown) {
  Finding F = checkpointFinding();
  F.Condition = "c == '\xe9'";
  std::string Text;
  ASSERT_NO_THROW(Text = toJson({F}, json::object()));
  EXPECT_NE(Text.find("\xef\xbf\xbd"), std::string::npos);
}

namespace {

// A valid finding with \p Change applied to it, inside a valid document.
std::string withFinding(const std::function<void(json &)> &Change) {
  Finding F = checkpointFinding();
  F.Id = "0123456789abcdef";
  json Doc = json::parse(toJson({F}, json::object()));
  Change(Doc["findings"][0]);
  return Doc.dump();
}

std::string errorOf(const std::string &Text) {
  std::vector<Finding> Out = {checkpointFinding()};
  std::string Error = errorText(readFindingsJson(Text, "base.json", Out));
  EXPECT_NE(Error, "") << Text;
  EXPECT_EQ(Out.size(), 1u) << "a failed read must not add findings";
  return Error;
}

} // namespace

TEST(FindingsJson, RejectsWhatIsNotTheFormat) {
  EXPECT_EQ(errorOf(""), "base.json: not valid JSON");
  EXPECT_EQ(errorOf("{\"version\": 1,"), "base.json: not valid JSON");
  EXPECT_EQ(errorOf("[]"), "base.json: expected an object, found an array");
  EXPECT_EQ(errorOf(R"({"version": 1, "tool": "lockstep", "summary": {}})"),
            "base.json: key 'findings': missing required field");
  EXPECT_EQ(errorOf(R"({"tool": "lockstep", "findings": [], "summary": {}})"),
            "base.json: key 'version': missing required field");
  EXPECT_EQ(errorOf(R"({"version": 2, "tool": "lockstep", "findings": [], "summary": {}})"),
            "base.json: key 'version': expected 1, found 2");
  EXPECT_EQ(errorOf(R"({"version": "1", "tool": "lockstep", "findings": [], "summary": {}})"),
            "base.json: key 'version': expected 1, found '1'");
  EXPECT_EQ(errorOf(R"({"version": 1, "tool": "clang-tidy", "findings": [], "summary": {}})"),
            "base.json: key 'tool': expected 'lockstep', found 'clang-tidy'");
  EXPECT_EQ(errorOf(R"({"version": 1, "tool": "lockstep", "findings": {}, "summary": {}})"),
            "base.json: key 'findings': expected an array, found an object");
  EXPECT_EQ(errorOf(R"({"version": 1, "tool": "lockstep", "findings": [], "summary": []})"),
            "base.json: key 'summary': expected an object, found an array");
  EXPECT_EQ(errorOf(R"({"version": 1, "tool": "lockstep", "findings": [], "summary": {}, "x": 1})"),
            "base.json: key 'x': unknown key");
  EXPECT_EQ(errorOf(R"({"version": 1, "tool": "lockstep", "findings": [3], "summary": {}})"),
            "base.json: finding 1: expected an object, found an integer");
}

TEST(FindingsJson, RejectsBadFindingsNamingIndexAndKey) {
  auto Error = [](const std::function<void(json &)> &Change) {
    return errorOf(withFinding(Change));
  };
  EXPECT_EQ(Error([](json &F) { F.erase("id"); }),
            "base.json: finding 1: key 'id': missing required field");
  EXPECT_EQ(
      Error([](json &F) { F["id"] = "12345"; }),
      "base.json: finding 1: key 'id': expected 16 lowercase hexadecimal digits, found '12345'");
  EXPECT_EQ(Error([](json &F) { F["check"] = 7; }),
            "base.json: finding 1: key 'check': expected a string, found an integer");
  EXPECT_EQ(Error([](json &F) { F["check"] = ""; }),
            "base.json: finding 1: key 'check': expected a non-empty string");
  EXPECT_EQ(Error([](json &F) { F["line"] = 0; }),
            "base.json: finding 1: key 'line': expected an integer from 1 to 4294967295, found 0");
  EXPECT_EQ(Error([](json &F) { F["line"] = -3; }),
            "base.json: finding 1: key 'line': expected an integer from 1 to 4294967295, found -3");
  EXPECT_EQ(
      Error([](json &F) { F["line"] = "30"; }),
      "base.json: finding 1: key 'line': expected an integer from 1 to 4294967295, found a string");
  EXPECT_EQ(
      Error([](json &F) { F["column"] = 1.5; }),
      "base.json: finding 1: key 'column': expected an integer from 0 to 4294967295, found 1.5");
  EXPECT_EQ(Error([](json &F) { F["line"] = 1ull << 40; }),
            "base.json: finding 1: key 'line': expected an integer from 1 to 4294967295, found "
            "1099511627776");
  EXPECT_EQ(Error([](json &F) { F.erase("condition"); }),
            "base.json: finding 1: key 'condition': missing required field");
  EXPECT_EQ(Error([](json &F) { F["function"] = nullptr; }),
            "base.json: finding 1: key 'function': expected a string, found null");
  EXPECT_EQ(Error([](json &F) { F["colum"] = 3; }),
            "base.json: finding 1: key 'colum': unknown key");
  EXPECT_EQ(Error([](json &F) { F["notes"] = "none"; }),
            "base.json: finding 1: key 'notes': expected an array, found a string");
  EXPECT_EQ(Error([](json &F) { F["notes"][1] = true; }),
            "base.json: finding 1, note 2: expected an object, found a boolean");
  EXPECT_EQ(Error([](json &F) { F["notes"][2].erase("line"); }),
            "base.json: finding 1, note 3: key 'line': missing required field");
  EXPECT_EQ(Error([](json &F) { F["notes"][0].erase("message"); }),
            "base.json: finding 1, note 1: key 'message': missing required field");
  EXPECT_EQ(Error([](json &F) { F["notes"][0]["file"] = ""; }),
            "base.json: finding 1, note 1: key 'file': expected a non-empty string");
}

TEST(FindingsJson, NamesTheFindingByItsPosition) {
  Finding Good = checkpointFinding();
  Good.Id = "0123456789abcdef";
  json Doc = json::parse(toJson({Good, Good, Good}, json::object()));
  Doc["findings"][2]["message"] = json::array();
  EXPECT_EQ(errorOf(Doc.dump()),
            "base.json: finding 3: key 'message': expected a string, found an array");
}

TEST(FindingsJson, NeverCrashesOnDamagedInput) {
  std::string Valid = toJson(sampleFindings(), {{"files", 2}});
  const std::string Damage = "{}[]\",:0123456789ae \x01\xff";
  std::mt19937 Random(4);
  for (int Round = 0; Round < 3000; ++Round) {
    std::string Text = Valid;
    if (Round % 3 == 0) {
      Text.resize(Random() % Text.size());
    } else {
      for (int Edit = 0; Edit < 1 + Round % 4; ++Edit)
        Text[Random() % Text.size()] = Damage[Random() % Damage.size()];
    }
    std::vector<Finding> Out;
    if (lockstep::Error E = readFindingsJson(Text, "x.json", Out)) {
      EXPECT_EQ(E.message().rfind("x.json: ", 0), 0u) << E.message();
      EXPECT_TRUE(Out.empty());
    }
  }
}

// ---- baseline and merge -----------------------------------------------------

TEST(FindingSet, BaselineDropsKnownIdsOnly) {
  std::vector<Finding> Old = {checkpointFinding()};
  assignIds(Old, Root);
  // The next run: the same finding moved down 5 lines, and a new one.
  std::vector<Finding> Now = {checkpointFinding(5),
                              finding("lockstep-rank-exit", Root + "/a.c", 3, "g", "new")};
  assignIds(Now, Root);
  std::vector<Finding> Left = withoutBaseline(Now, Old);
  ASSERT_EQ(Left.size(), 1u);
  EXPECT_EQ(Left[0].Message, "new");
  EXPECT_EQ(withoutBaseline(Now, {}).size(), 2u);
  Finding NoId = finding("lockstep-rank-exit", Root + "/a.c", 3, "g", "x");
  EXPECT_EQ(withoutBaseline({NoId}, {NoId}).size(), 1u) << "no id, no match";
}

TEST(FindingSet, MergeDedupesByIdAndSorts) {
  Finding A = finding("lockstep-rank-loop", Root + "/b.c", 9, "f", "a");
  Finding B = finding("lockstep-rank-branch", Root + "/a.c", 40, "f", "b");
  Finding C = finding("lockstep-rank-argument", Root + "/a.c", 40, "f", "c");
  Finding D = finding("lockstep-rank-exit", Root + "/a.c", 7, "f", "d");
  std::vector<Finding> All = {A, B, C, D};
  assignIds(All, Root);
  std::vector<Finding> Shard1 = {All[0], All[1]}, Shard2 = {All[1], All[2], All[3]};
  Shard2[0].Message = "b, seen again"; // the same id: the first seen wins
  std::vector<Finding> Merged = mergeFindings({Shard1, Shard2});
  std::vector<std::string> Order;
  for (const Finding &F : Merged)
    Order.push_back(F.Message);
  EXPECT_EQ(Order, (std::vector<std::string>{"d", "c", "b", "a"}));
  EXPECT_TRUE(mergeFindings({}).empty());
}

// ---- SARIF ------------------------------------------------------------------

TEST(CheckDocs, EveryKnownCheckHasItsPageEmbedded) {
  for (const std::string &Check : knownChecks()) {
    const CheckDoc *Doc = findCheckDoc(Check);
    ASSERT_NE(Doc, nullptr) << Check;
    EXPECT_EQ(Doc->Path, "docs/checks/" + Check.substr(9) + ".md");
    EXPECT_EQ(Doc->Markdown, readFile(std::string(LOCKSTEP_SOURCE_DIR) + "/" + Doc->Path));
    EXPECT_EQ(Doc->Markdown.rfind("# " + Check + "\n", 0), 0u) << "the page's title is its check";
  }
  EXPECT_EQ(checkDocs().size(), knownChecks().size()) << "a page without a known check";
}

TEST(CheckDocs, TextAndLinks) {
  EXPECT_EQ(plainText("Finds a `x` that [y](y.md) **now**."), "Finds a x that y now.");
  std::string Base = repositoryUrl() + "/blob/main/";
  EXPECT_EQ(
      withAbsoluteLinks("see [a](rank-exit.md#options), [r](../rules.md), [e](https://e.org/x)\n"
                        "```\nx[0](1);\n```\n[s](#silencing)",
                        "docs/checks/rank-branch.md"),
      "see [a](" + Base + "docs/checks/rank-exit.md#options), [r](" + Base +
          "docs/rules.md), [e](https://e.org/x)\n```\nx[0](1);\n```\n[s](" + Base +
          "docs/checks/rank-branch.md#silencing)");
}

TEST(Sarif, StructureForGitHubCodeScanning) {
  std::vector<Finding> Findings = sampleFindings();
  json Log = json::parse(toSarif(Findings, Root + "/", "0.1.0"));
  EXPECT_EQ(Log["version"], "2.1.0");
  EXPECT_EQ(Log["$schema"], "https://json.schemastore.org/sarif-2.1.0.json");
  ASSERT_EQ(Log["runs"].size(), 1u);
  const json &Run = Log["runs"][0];
  EXPECT_EQ(Run["originalUriBaseIds"]["%SRCROOT%"]["uri"], "file:///work/proj/");
  const json &Driver = Run["tool"]["driver"];
  EXPECT_EQ(Driver["name"], "lockstep");
  EXPECT_EQ(Driver["version"], "0.1.0");
  EXPECT_EQ(Driver["informationUri"], repositoryUrl());

  // Rules: the six known checks in order, then the unknown one.
  const json &Rules = Driver["rules"];
  ASSERT_EQ(Rules.size(), knownChecks().size() + 1);
  for (size_t I = 0; I < knownChecks().size(); ++I) {
    const json &Rule = Rules[I];
    const CheckDoc *Doc = findCheckDoc(knownChecks()[I]);
    EXPECT_EQ(Rule["id"], knownChecks()[I]);
    const std::string Description(lockstep::checks::findCheck(knownChecks()[I])->Description);
    EXPECT_EQ(Rule["shortDescription"]["text"], plainText(Description));
    EXPECT_EQ(Rule["fullDescription"]["markdown"], Description);
    EXPECT_EQ(Rule["help"]["markdown"], withAbsoluteLinks(Doc->Markdown, Doc->Path));
    EXPECT_EQ(Rule["helpUri"], repositoryUrl() + "/blob/main/" + Doc->Path);
    EXPECT_EQ(Rule["help"]["markdown"].get<std::string>().find("](rank-"), std::string::npos)
        << "relative links must not reach GitHub";
  }
  EXPECT_EQ(
      Rules[0]["shortDescription"]["text"],
      "Finds a collective, or a call to a function that performs one, that runs on some ranks "
      "only because a branch depends on the rank.");
  EXPECT_EQ(Rules.back()["id"], "lockstep-future-check");
  EXPECT_FALSE(Rules.back().contains("help"));

  const json &Results = Run["results"];
  ASSERT_EQ(Results.size(), Findings.size());
  for (size_t I = 0; I < Results.size(); ++I) {
    const json &R = Results[I];
    EXPECT_EQ(R["ruleId"], Findings[I].Check);
    EXPECT_EQ(Rules[R["ruleIndex"].get<size_t>()]["id"], Findings[I].Check);
    EXPECT_EQ(R["level"], "warning");
    EXPECT_EQ(R["partialFingerprints"]["lockstepId/v1"], Findings[I].Id);
    EXPECT_GE(R["locations"][0]["physicalLocation"]["region"]["startLine"], 1);
  }

  // src/eval loop.cpp: relative, percent-encoded, notes linked from the text.
  const json &Exit = Results[2];
  ASSERT_EQ(Exit["ruleId"], "lockstep-rank-exit");
  EXPECT_EQ(
      Exit["locations"][0]["physicalLocation"],
      json({{"artifactLocation", {{"uri", "src/eval%20loop.cpp"}, {"uriBaseId", "%SRCROOT%"}}},
            {"region", {{"startLine", 8}, {"startColumn", 5}}}}));
  EXPECT_EQ(Exit["message"]["text"],
            "'MPI_Allreduce' is never reached on ranks where 'rank >= shards' \\[x\\]\n"
            "note: [ranks where 'rank >= shards' return here](1)\nnote: a note without a place");
  ASSERT_EQ(Exit["relatedLocations"].size(), 1u);
  EXPECT_EQ(Exit["relatedLocations"][0]["id"], 1);
  EXPECT_EQ(Exit["relatedLocations"][0]["message"]["text"],
            "ranks where 'rank >= shards' return here");
  EXPECT_EQ(Exit["relatedLocations"][0]["physicalLocation"]["region"]["startLine"], 7);

  // The checkpoint finding carries its structured fields as properties.
  const json &Branch = Results[3];
  ASSERT_EQ(Branch["ruleId"], "lockstep-rank-branch");
  EXPECT_EQ(Branch["relatedLocations"].size(), 3u);
  EXPECT_EQ(Branch["properties"]["collective"], "MPI_Barrier");
  EXPECT_EQ(Branch["properties"]["condition"], "rank == 0");

  // Outside the root: an absolute file URI, no base id; no column: no startColumn.
  const json &Header = Results[0];
  EXPECT_EQ(Header["locations"][0]["physicalLocation"]["artifactLocation"],
            json({{"uri", "file:///usr/include/wrap.h"}}));
  EXPECT_FALSE(Results[1]["locations"][0]["physicalLocation"]["region"].contains("startColumn"));
}

TEST(Sarif, AssignsMissingIdsAndAcceptsNoFindings) {
  Finding F = checkpointFinding();
  json Log = json::parse(toSarif({F}, Root, ""));
  std::vector<Finding> WithIds = {F};
  assignIds(WithIds, Root);
  EXPECT_EQ(Log["runs"][0]["results"][0]["partialFingerprints"]["lockstepId/v1"], WithIds[0].Id);
  EXPECT_FALSE(Log["runs"][0]["tool"]["driver"].contains("version"));
  json Empty = json::parse(toSarif({}, Root, "0.1.0"));
  EXPECT_EQ(Empty["runs"][0]["results"], json::array());
  EXPECT_EQ(Empty["runs"][0]["tool"]["driver"]["rules"].size(), knownChecks().size());
}

int main(int argc, char **argv) {
  if (argc == 3 && std::string(argv[1]) == "--write-sarif") {
    std::ofstream Out(argv[2], std::ios::binary);
    Out << toSarif(sampleFindings(), Root, "0.1.0");
    return Out.good() ? 0 : 1;
  }
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
