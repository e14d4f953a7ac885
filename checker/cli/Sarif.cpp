// SARIF 2.1.0 for GitHub code scanning and SARIF viewers. What GitHub needs
// beyond the schema shapes the choices here: URIs relative to the checkout
// (under "%SRCROOT%"), startLine >= 1, a fingerprint per result, and notes
// linked from the message text, because code scanning shows related
// locations only when the message embeds a link to them.
#include "CheckDocs.h"
#include "CheckTable.h"
#include "FindingsOutput.h"
#include "ProjectPaths.h"

#include <algorithm>
#include <map>

namespace lockstep::cli {

namespace {

// Ordered: "version" before "runs", "ruleId" before the rest, for people
// reading the file.
using json = nlohmann::ordered_json;

constexpr const char *SarifSchema = "https://json.schemastore.org/sarif-2.1.0.json";
constexpr const char *SourceRoot = "%SRCROOT%";
constexpr const char *FingerprintKey = "lockstepId/v1";

json textAndMarkdown(const std::string &Markdown) {
  return {{"text", plainText(Markdown)}, {"markdown", Markdown}};
}

// A check from a newer checker, not in the table, is still a valid rule.
std::string levelOf(const std::string &Check) {
  const checks::CheckInfo *Info = checks::findCheck(Check);
  return Info ? std::string(Info->Severity) : "warning";
}

json ruleFor(const std::string &Check) {
  json Rule = {{"id", Check}};
  if (const checks::CheckInfo *Info = checks::findCheck(Check)) {
    std::string Description(Info->Description);
    Rule["shortDescription"] = {{"text", plainText(Description)}};
    Rule["fullDescription"] = textAndMarkdown(Description);
    const CheckDoc &Doc = *findCheckDoc(Check);
    // help.text is shown unrendered; the page is readable Markdown as it is.
    std::string Page = withAbsoluteLinks(Doc.Markdown, Doc.Path);
    Rule["help"] = {{"text", Page}, {"markdown", Page}};
    Rule["helpUri"] = documentUrl(Doc.Path);
  }
  Rule["defaultConfiguration"] = {{"level", levelOf(Check)}};
  Rule["properties"] = {{"tags", json::array({"correctness", "concurrency"})},
                        {"problem.severity", levelOf(Check)}};
  return Rule;
}

json physicalLocation(const Location &L, const std::string &ProjectRoot) {
  ProjectPath P = relativeToRoot(L.File, ProjectRoot);
  json Artifact;
  if (P.UnderRoot)
    Artifact = {{"uri", percentEncode(P.Path)}, {"uriBaseId", SourceRoot}};
  else
    Artifact = {{"uri", fileUri(P.Path, false)}};
  json Physical = {{"artifactLocation", std::move(Artifact)}};
  if (L.Line > 0) {
    json Region = {{"startLine", L.Line}};
    if (L.Column > 0)
      Region["startColumn"] = L.Column;
    Physical["region"] = std::move(Region);
  }
  return Physical;
}

// Messages with embedded links treat '[' and ']' as markup: a literal one
// is escaped, and so is a backslash that would otherwise escape it.
std::string escapeBrackets(const std::string &Text) {
  std::string Out;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    bool BeforeBracket =
        C == '\\' && I + 1 < Text.size() && (Text[I + 1] == '[' || Text[I + 1] == ']');
    if (C == '[' || C == ']' || BeforeBracket)
      Out += '\\';
    Out += C;
  }
  return Out;
}

json resultFor(const Finding &F, size_t RuleIndex, const std::string &ProjectRoot) {
  std::string Message = escapeBrackets(F.Message);
  json Related = json::array();
  for (const Note &N : F.Notes) {
    if (N.Location.File.empty()) {
      Message += "\nnote: " + escapeBrackets(N.Message); // nowhere to point at
      continue;
    }
    size_t Id = Related.size() + 1; // ids from 1: 0 reads like "unset"
    Message += "\nnote: [" + escapeBrackets(N.Message) + "](" + std::to_string(Id) + ")";
    Related.push_back({{"id", Id},
                       {"message", {{"text", N.Message}}},
                       {"physicalLocation", physicalLocation(N.Location, ProjectRoot)}});
  }
  json Primary = {{"physicalLocation", physicalLocation(F.Location, ProjectRoot)}};
  json Result = {{"ruleId", F.Check},
                 {"ruleIndex", RuleIndex},
                 {"level", levelOf(F.Check)},
                 {"message", {{"text", Message}}},
                 {"locations", json::array({std::move(Primary)})}};
  if (!Related.empty())
    Result["relatedLocations"] = std::move(Related);
  Result["partialFingerprints"] = {{FingerprintKey, F.Id}};
  // What the JSON output carries beyond the message, for SARIF consumers
  // that filter on it.
  json Properties = json::object();
  const std::pair<const char *, const std::string *> Extra[] = {{"function", &F.Function},
                                                                {"collective", &F.Collective},
                                                                {"communicator", &F.Communicator},
                                                                {"condition", &F.Condition}};
  for (const auto &[Key, Value] : Extra)
    if (!Value->empty())
      Properties[Key] = *Value;
  if (!Properties.empty())
    Result["properties"] = std::move(Properties);
  return Result;
}

} // namespace

const std::vector<std::string> &knownChecks() {
  static const std::vector<std::string> Checks = [] {
    std::vector<std::string> Names;
    for (const checks::CheckInfo &Check : checks::CheckTable)
      Names.emplace_back(Check.Name);
    return Names;
  }();
  return Checks;
}

std::string toSarif(const std::vector<Finding> &Input, const std::string &ProjectRoot,
                    const std::string &ToolVersion) {
  std::vector<Finding> Findings = Input;
  if (std::any_of(Findings.begin(), Findings.end(), [](const Finding &F) { return F.Id.empty(); }))
    assignIds(Findings, ProjectRoot);

  // Every known check is a rule, so that ruleIndex and the rules list do
  // not change with what a run happened to find; unknown checks follow.
  std::vector<std::string> Checks = knownChecks();
  for (const Finding &F : Findings)
    if (std::find(Checks.begin(), Checks.end(), F.Check) == Checks.end())
      Checks.push_back(F.Check);
  std::map<std::string, size_t> RuleIndex;
  json Rules = json::array();
  for (const std::string &Check : Checks) {
    RuleIndex[Check] = Rules.size();
    Rules.push_back(ruleFor(Check));
  }

  json Results = json::array();
  for (const Finding &F : Findings)
    Results.push_back(resultFor(F, RuleIndex.at(F.Check), ProjectRoot));

  json Driver = {{"name", "lockstep"}};
  if (!ToolVersion.empty())
    Driver["version"] = ToolVersion;
  Driver["informationUri"] = repositoryUrl();
  Driver["rules"] = std::move(Rules);
  json Run = {{"tool", {{"driver", std::move(Driver)}}}};
  if (!ProjectRoot.empty())
    Run["originalUriBaseIds"] = {{SourceRoot, {{"uri", fileUri(ProjectRoot, true)}}}};
  Run["results"] = std::move(Results);
  json Log = {
      {"$schema", SarifSchema}, {"version", "2.1.0"}, {"runs", json::array({std::move(Run)})}};
  return Log.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

} // namespace lockstep::cli
