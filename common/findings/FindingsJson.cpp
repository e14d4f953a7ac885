// The JSON format of `lockstep check --format json`, and its strict reader
// (for --baseline and `lockstep merge`). The reader trusts nothing: a
// baseline may be hand-edited, truncated or from another tool, and a bad one
// must give an error that names the file, the finding and the key, never a
// crash or a silently wrong baseline.
#include "FindingsJson.h"
#include "JsonReader.h"
#include "WordingJson.h"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace lockstep::findings {

namespace {

using nlohmann::json;

// Written in the order of the format's description, for people reading it.
using ordered_json = nlohmann::ordered_json;

ordered_json locationFields(const Location &L) {
  return {{"file", L.File}, {"line", L.Line}, {"column", L.Column}};
}

using json_reader::found;
using json_reader::Reader;

bool isId(const std::string &Id) {
  return Id.size() == 16 && Id.find_first_not_of("0123456789abcdef") == std::string::npos;
}

Error readNote(const json &Object, const std::string &Context, Note &Out) {
  Reader R(Object, Context);
  if (!R.onlyKeys({"file", "line", "column", "message"}) || !R.text("message", Out.Message))
    return R.takeError();
  // A note without a place (clang has a few) has none of the three keys.
  if (!R.has("file") && !R.has("line") && !R.has("column"))
    return Error::success();
  if (!R.string("file", Out.Location.File) || !R.count("line", Out.Location.Line, 1) ||
      !R.count("column", Out.Location.Column))
    return R.takeError();
  return Error::success();
}

Error readFinding(const json &Object, const std::string &Context, Finding &Out) {
  Reader R(Object, Context);
  if (!R.onlyKeys({"id", "check", "file", "line", "column", "message", "function", "collective",
                   "communicator", "condition", "notes", "pending"}) ||
      !R.string("id", Out.Id))
    return R.takeError();
  if (!isId(Out.Id))
    return R.failure("id", "expected 16 lowercase hexadecimal digits, found '" + Out.Id + "'");
  if (!R.string("check", Out.Check) || !R.string("file", Out.Location.File) ||
      !R.count("line", Out.Location.Line, 1) || !R.count("column", Out.Location.Column) ||
      !R.string("message", Out.Message) || !R.text("function", Out.Function) ||
      !R.text("collective", Out.Collective) || !R.text("communicator", Out.Communicator) ||
      !R.text("condition", Out.Condition))
    return R.takeError();
  const json *Notes = R.array("notes");
  if (!Notes)
    return R.takeError();
  for (size_t I = 0; I < Notes->size(); ++I) {
    Note N;
    if (Error E = readNote((*Notes)[I], Context + ", note " + std::to_string(I + 1), N))
      return E;
    Out.Notes.push_back(std::move(N));
  }
  if (!R.has("pending"))
    return Error::success();
  Out.Pending.emplace();
  return readWording(R.at("pending"), Context + ": pending", Out.Notes.size(), *Out.Pending);
}

} // namespace

std::string toJson(const std::vector<Finding> &Findings, const json &Summary) {
  ordered_json List = ordered_json::array();
  for (const Finding &F : Findings) {
    ordered_json Notes = ordered_json::array();
    for (const Note &N : F.Notes) {
      ordered_json Item =
          N.Location.File.empty() ? ordered_json::object() : locationFields(N.Location);
      Item["message"] = N.Message;
      Notes.push_back(std::move(Item));
    }
    ordered_json Item = {{"id", F.Id}, {"check", F.Check}};
    Item.update(locationFields(F.Location));
    Item.update({{"message", F.Message},
                 {"function", F.Function},
                 {"collective", F.Collective},
                 {"communicator", F.Communicator},
                 {"condition", F.Condition},
                 {"notes", std::move(Notes)}});
    if (F.Pending)
      Item["pending"] = wordingJson(*F.Pending);
    List.push_back(std::move(Item));
  }
  ordered_json Doc = {
      {"version", FindingsJsonVersion},
      {"tool", "lockstep"},
      {"findings", std::move(List)},
      {"summary", Summary.is_null() ? ordered_json::object() : ordered_json(Summary)}};
  // Source text may not be UTF-8 (a Latin-1 comment quoted in a condition):
  // replace bad bytes rather than throw.
  return Doc.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

Error readFindingsJson(const std::string &Text, const std::string &Source,
                       std::vector<Finding> &Out, json *Summary) {
  json Doc = json::parse(Text, nullptr, /*allow_exceptions=*/false);
  if (Doc.is_discarded())
    return Error(Source + ": not valid JSON");
  Reader R(Doc, Source);
  if (!R.onlyKeys({"version", "tool", "findings", "summary"}))
    return R.takeError();
  const json *Version = R.require("version");
  if (!Version)
    return R.takeError();
  if (*Version != FindingsJsonVersion)
    return R.failure("version", "expected " + std::to_string(FindingsJsonVersion) + ", found " +
                                    (Version->is_string() ? "'" + Version->get<std::string>() + "'"
                                                          : found(*Version)));
  std::string Tool;
  if (!R.string("tool", Tool))
    return R.takeError();
  if (Tool != "lockstep")
    return R.failure("tool", "expected 'lockstep', found '" + Tool + "'");
  const json *SummaryValue = R.object("summary");
  const json *List = SummaryValue ? R.array("findings") : nullptr;
  if (!List)
    return R.takeError();

  std::vector<Finding> Read;
  for (size_t I = 0; I < List->size(); ++I) {
    Finding F;
    if (Error E = readFinding((*List)[I], Source + ": finding " + std::to_string(I + 1), F))
      return E;
    Read.push_back(std::move(F));
  }
  Out.insert(Out.end(), std::make_move_iterator(Read.begin()), std::make_move_iterator(Read.end()));
  if (Summary)
    *Summary = *SummaryValue;
  return Error::success();
}

} // namespace lockstep::findings
