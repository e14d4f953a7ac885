// The JSON format of `lockstep check --format json`, and its strict reader
// (for --baseline and `lockstep merge`). The reader trusts nothing: a
// baseline may be hand-edited, truncated or from another tool, and a bad one
// must give an error that names the file, the finding and the key, never a
// crash or a silently wrong baseline.
#include "FindingsJson.h"
#include "JsonReader.h"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace lockstep::findings {

namespace {

using nlohmann::json;

// Written in the order of the format's description, for people reading it.
using ordered_json = nlohmann::ordered_json;

ordered_json locationFields(const Location &L) {
  return {{"file", L.file}, {"line", L.line}, {"column", L.column}};
}

using json_reader::typeName;

// What was found, for an error: the value itself when it is short.
std::string found(const json &Value) {
  if (Value.is_number() || Value.is_boolean() || Value.is_null())
    return Value.dump();
  return typeName(Value);
}

/// One JSON object with a closed set of keys; records the first error with
/// its context ("finding 3, note 1") and key.
class ObjectReader {
public:
  ObjectReader(const json &Object, std::string Context, std::string &Error)
      : Object(Object), Context(std::move(Context)), Error(Error) {}

  bool onlyKeys(std::initializer_list<const char *> Allowed) {
    if (!Object.is_object())
      return fail("", std::string("expected an object, found ") + found(Object));
    for (const auto &Item : Object.items())
      if (std::find_if(Allowed.begin(), Allowed.end(),
                       [&](const char *K) { return Item.key() == K; }) == Allowed.end())
        return fail(Item.key(), "unknown key");
    return true;
  }

  bool has(const char *Key) const { return Object.contains(Key); }

  const json *require(const char *Key) {
    auto It = Object.find(Key);
    if (It == Object.end()) {
      fail(Key, "missing");
      return nullptr;
    }
    return &*It;
  }

  bool string(const char *Key, std::string &Out, bool NonEmpty) {
    const json *V = require(Key);
    if (!V)
      return false;
    if (!V->is_string())
      return fail(Key, std::string("expected a string, found ") + found(*V));
    if (NonEmpty && V->get_ref<const std::string &>().empty())
      return fail(Key, "expected a non-empty string");
    Out = V->get<std::string>();
    return true;
  }

  bool number(const char *Key, unsigned &Out, unsigned Minimum) {
    const json *V = require(Key);
    if (!V)
      return false;
    // is_number_unsigned: nlohmann stores every non-negative integer so.
    if (!V->is_number_unsigned() || V->get<std::uint64_t>() < Minimum ||
        V->get<std::uint64_t>() > std::numeric_limits<unsigned>::max())
      return fail(Key, std::string("expected an integer from ") + std::to_string(Minimum) + " to " +
                           std::to_string(std::numeric_limits<unsigned>::max()) + ", found " +
                           found(*V));
    Out = V->get<unsigned>();
    return true;
  }

  bool fail(const std::string &Key, const std::string &What) {
    Error = Context + (Key.empty() ? "" : ": key '" + Key + "'") + ": " + What;
    return false;
  }

private:
  const json &Object;
  std::string Context;
  std::string &Error;
};

bool isId(const std::string &Id) {
  return Id.size() == 16 && Id.find_first_not_of("0123456789abcdef") == std::string::npos;
}

bool readNote(const json &Object, const std::string &Context, Note &Out, std::string &Error) {
  ObjectReader R(Object, Context, Error);
  if (!R.onlyKeys({"file", "line", "column", "message"}) ||
      !R.string("message", Out.message, false))
    return false;
  // A note without a place (clang has a few) has none of the three keys.
  if (!R.has("file") && !R.has("line") && !R.has("column"))
    return true;
  return R.string("file", Out.location.file, true) && R.number("line", Out.location.line, 1) &&
         R.number("column", Out.location.column, 0);
}

bool readFinding(const json &Object, const std::string &Context, Finding &Out, std::string &Error) {
  ObjectReader R(Object, Context, Error);
  if (!R.onlyKeys({"id", "check", "file", "line", "column", "message", "function", "collective",
                   "communicator", "condition", "notes"}) ||
      !R.string("id", Out.id, true))
    return false;
  if (!isId(Out.id))
    return R.fail("id", "expected 16 lowercase hexadecimal digits, found '" + Out.id + "'");
  if (!R.string("check", Out.check, true) || !R.string("file", Out.location.file, true) ||
      !R.number("line", Out.location.line, 1) || !R.number("column", Out.location.column, 0) ||
      !R.string("message", Out.message, true) || !R.string("function", Out.function, false) ||
      !R.string("collective", Out.collective, false) ||
      !R.string("communicator", Out.communicator, false) ||
      !R.string("condition", Out.condition, false))
    return false;
  const json *Notes = R.require("notes");
  if (!Notes)
    return false;
  if (!Notes->is_array())
    return R.fail("notes", std::string("expected an array, found ") + found(*Notes));
  for (size_t I = 0; I < Notes->size(); ++I) {
    Note N;
    if (!readNote((*Notes)[I], Context + ", note " + std::to_string(I + 1), N, Error))
      return false;
    Out.notes.push_back(std::move(N));
  }
  return true;
}

} // namespace

std::string toJson(const std::vector<Finding> &Findings, const json &Summary) {
  ordered_json List = ordered_json::array();
  for (const Finding &F : Findings) {
    ordered_json Notes = ordered_json::array();
    for (const Note &N : F.notes) {
      ordered_json Item =
          N.location.file.empty() ? ordered_json::object() : locationFields(N.location);
      Item["message"] = N.message;
      Notes.push_back(std::move(Item));
    }
    ordered_json Item = {{"id", F.id}, {"check", F.check}};
    Item.update(locationFields(F.location));
    Item.update({{"message", F.message},
                 {"function", F.function},
                 {"collective", F.collective},
                 {"communicator", F.communicator},
                 {"condition", F.condition},
                 {"notes", std::move(Notes)}});
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

bool readFindingsJson(const std::string &Text, const std::string &Source, std::vector<Finding> &Out,
                      std::string &Error, json *Summary) {
  json Doc = json::parse(Text, nullptr, /*allow_exceptions=*/false);
  if (Doc.is_discarded()) {
    Error = Source + ": not valid JSON";
    return false;
  }
  ObjectReader R(Doc, Source, Error);
  if (!R.onlyKeys({"version", "tool", "findings", "summary"}))
    return false;
  const json *Version = R.require("version");
  if (!Version)
    return false;
  if (*Version != FindingsJsonVersion)
    return R.fail("version", "expected " + std::to_string(FindingsJsonVersion) + ", found " +
                                 (Version->is_string() ? "'" + Version->get<std::string>() + "'"
                                                       : found(*Version)));
  std::string Tool;
  if (!R.string("tool", Tool, true))
    return false;
  if (Tool != "lockstep")
    return R.fail("tool", "expected 'lockstep', found '" + Tool + "'");
  const json *SummaryValue = R.require("summary");
  if (!SummaryValue)
    return false;
  if (!SummaryValue->is_object())
    return R.fail("summary", std::string("expected an object, found ") + found(*SummaryValue));
  const json *List = R.require("findings");
  if (!List)
    return false;
  if (!List->is_array())
    return R.fail("findings", std::string("expected an array, found ") + found(*List));

  std::vector<Finding> Read;
  for (size_t I = 0; I < List->size(); ++I) {
    Finding F;
    if (!readFinding((*List)[I], Source + ": finding " + std::to_string(I + 1), F, Error))
      return false;
    Read.push_back(std::move(F));
  }
  Out.insert(Out.end(), std::make_move_iterator(Read.begin()), std::make_move_iterator(Read.end()));
  if (Summary)
    *Summary = *SummaryValue;
  return true;
}

} // namespace lockstep::findings
