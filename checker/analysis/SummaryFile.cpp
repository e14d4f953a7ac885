#include "SummaryFile.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace lockstep::analysis {
using nlohmann::json;

namespace {

json pointJson(const SourcePoint &P) {
  return {{"file", P.file}, {"line", P.line}, {"column", P.column}};
}

/// Reads one field with its expected type, or says what is wrong.
class FieldReader {
public:
  FieldReader(const json &Object, std::string Context, std::string &Error)
      : Object(Object), Context(std::move(Context)), Error(Error) {}

  bool object() { return Object.is_object() || fail("", "expected an object"); }
  bool string(const char *Key, std::string &Out, bool Required = true) {
    if (!Object.contains(Key))
      return !Required || fail(Key, "missing required field");
    if (!Object.at(Key).is_string())
      return fail(Key, "expected a string");
    Out = Object.at(Key).get<std::string>();
    return true;
  }
  bool number(const char *Key, unsigned &Out) {
    if (!Object.contains(Key) || !Object.at(Key).is_number_unsigned())
      return fail(Key, "expected a non-negative integer");
    Out = Object.at(Key).get<unsigned>();
    return true;
  }
  bool boolean(const char *Key, bool &Out) {
    if (!Object.contains(Key))
      return true;
    if (!Object.at(Key).is_boolean())
      return fail(Key, "expected true or false");
    Out = Object.at(Key).get<bool>();
    return true;
  }
  bool point(SourcePoint &Out) {
    return string("file", Out.file) && number("line", Out.line) && number("column", Out.column);
  }
  bool fail(const std::string &Key, const std::string &Message) {
    if (Error.empty())
      Error = Context + (Key.empty() ? "" : ": key '" + Key + "'") + ": " + Message;
    return false;
  }

private:
  const json &Object;
  std::string Context;
  std::string &Error;
};

bool readFunction(const json &Entry, const std::string &Context, ExternalFunction &F,
                  std::string &Error) {
  FieldReader R(Entry, Context, Error);
  if (!R.object() || !R.string("name", F.name) ||
      !R.boolean("several_sequences", F.severalSequences))
    return false;
  if (Entry.contains("collectives")) {
    const json &List = Entry.at("collectives");
    if (!List.is_array())
      return R.fail("collectives", "expected an array");
    for (size_t I = 0; I < List.size(); ++I) {
      FieldReader C(List[I], Context + ": collectives[" + std::to_string(I) + "]", Error);
      ExternalFunction::Collective Item;
      if (!C.object() || !C.string("name", Item.name) || !C.point(Item.site))
        return false;
      F.collectives.push_back(std::move(Item));
    }
  }
  if (Entry.contains("returns_rank")) {
    FieldReader Rank(Entry.at("returns_rank"), Context + ": returns_rank", Error);
    if (!Rank.object() || !Rank.string("source", F.rankSource) || !Rank.point(F.rankSite))
      return false;
    F.returnsRank = true;
  }
  return true;
}

} // namespace

std::string writeSummaries(const ExternalSummaries &Summaries) {
  json Functions = json::object();
  for (const auto &[Usr, F] : Summaries) {
    json Entry = {{"name", F.name}};
    json Collectives = json::array();
    for (const ExternalFunction::Collective &C : F.collectives) {
      json Item = pointJson(C.site);
      Item["name"] = C.name;
      Collectives.push_back(std::move(Item));
    }
    Entry["collectives"] = std::move(Collectives);
    if (F.severalSequences)
      Entry["several_sequences"] = true;
    if (F.returnsRank) {
      json Rank = pointJson(F.rankSite);
      Rank["source"] = F.rankSource;
      Entry["returns_rank"] = std::move(Rank);
    }
    Functions[Usr] = std::move(Entry);
  }
  return json{{"version", 1}, {"functions", std::move(Functions)}}.dump(1) + "\n";
}

std::string mergeSummaries(const std::string &Text, const std::string &Source,
                           ExternalSummaries &Into) {
  json Document = json::parse(Text, nullptr, /*allow_exceptions=*/false);
  if (Document.is_discarded())
    return Source + ": not valid JSON";
  if (!Document.is_object() || !Document.contains("version") || Document.at("version") != 1)
    return Source + ": not a lockstep summary file (expected \"version\": 1)";
  if (!Document.contains("functions") || !Document.at("functions").is_object())
    return Source + ": key 'functions': expected an object";
  ExternalSummaries Added;
  std::string Error;
  for (const auto &Item : Document.at("functions").items()) {
    ExternalFunction F;
    if (!readFunction(Item.value(), Source + ": functions['" + Item.key() + "']", F, Error))
      return Error;
    Added.emplace(Item.key(), std::move(F));
  }
  Into.insert(Added.begin(), Added.end()); // existing entries win
  return "";
}

std::string mergeSummaryFile(const std::string &Path, ExternalSummaries &Into) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return Path + ": cannot open the summary file";
  std::ostringstream Text;
  Text << In.rdbuf();
  return mergeSummaries(Text.str(), Path, Into);
}

} // namespace lockstep::analysis
