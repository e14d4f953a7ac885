#include "SummaryFile.h"
#include "JsonReader.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace lockstep::analysis {
using nlohmann::json;

namespace {

json pointJson(const SourcePoint &P) {
  if (P.file.empty())
    return json::object();
  return {{"file", P.file}, {"line", P.line}, {"column", P.column}};
}

using json_reader::Reader;

// A place whose file is unknown (a macro from nowhere) is written without one.
bool point(Reader &R, SourcePoint &Out) {
  if (!R.has("file"))
    return true;
  return R.string("file", Out.file) && R.count("line", Out.line) && R.count("column", Out.column);
}

bool readRankSource(Reader &Rank, ExternalFunction &F) {
  if (!Rank.onlyKeys({"source", "file", "line", "column"}) ||
      !Rank.string("source", F.rankSource) || !point(Rank, F.rankSite))
    return false;
  F.returnsRank = true;
  return true;
}

json rankSourceJson(const ExternalFunction &F) {
  json Rank = pointJson(F.rankSite);
  Rank["source"] = F.rankSource;
  return Rank;
}

// A field or global some file writes with a per-rank value.
Error readStorage(const json &Entry, const std::string &Context, ExternalFunction &F) {
  Reader R(Entry, Context);
  if (!R.onlyKeys({"name", "per_rank"}) || !R.string("name", F.name))
    return R.takeError();
  if (!R.has("per_rank"))
    return R.failure("per_rank", "missing: where the per-rank value comes from");
  Reader Rank(R.at("per_rank"), Context + ": per_rank");
  F.storage = true;
  readRankSource(Rank, F);
  return Rank.takeError();
}

Error readFunction(const json &Entry, const std::string &Context, ExternalFunction &F) {
  Reader R(Entry, Context);
  if (!R.onlyKeys({"name", "collectives", "several_sequences", "returns_rank"}) ||
      !R.string("name", F.name) || !R.boolean("several_sequences", F.severalSequences))
    return R.takeError();
  if (R.has("collectives")) {
    const json &List = R.at("collectives");
    if (!List.is_array())
      return R.failure("collectives", "expected an array");
    for (size_t I = 0; I < List.size(); ++I) {
      Reader C(List[I], Context + ": collectives[" + std::to_string(I) + "]");
      ExternalFunction::Collective Item;
      if (!C.onlyKeys({"name", "file", "line", "column", "communicator", "communicator_param"}) ||
          !C.string("name", Item.name) || !point(C, Item.site) ||
          !C.string("communicator", Item.communicator, /*Required=*/false) ||
          !C.index("communicator_param", Item.communicatorParam))
        return C.takeError();
      F.collectives.push_back(std::move(Item));
    }
  }
  if (R.has("returns_rank")) {
    Reader Rank(R.at("returns_rank"), Context + ": returns_rank");
    readRankSource(Rank, F);
    return Rank.takeError();
  }
  return Error::success();
}

} // namespace

std::string writeSummaries(const ExternalSummaries &Summaries) {
  json Functions = json::object(), Storage = json::object();
  for (const auto &[Usr, F] : Summaries) {
    if (F.storage) {
      Storage[Usr] = {{"name", F.name}, {"per_rank", rankSourceJson(F)}};
      continue;
    }
    json Entry = {{"name", F.name}};
    json Collectives = json::array();
    for (const ExternalFunction::Collective &C : F.collectives) {
      json Item = pointJson(C.site);
      Item["name"] = C.name;
      if (!C.communicator.empty())
        Item["communicator"] = C.communicator;
      if (C.communicatorParam)
        Item["communicator_param"] = *C.communicatorParam;
      Collectives.push_back(std::move(Item));
    }
    Entry["collectives"] = std::move(Collectives);
    if (F.severalSequences)
      Entry["several_sequences"] = true;
    if (F.returnsRank)
      Entry["returns_rank"] = rankSourceJson(F);
    Functions[Usr] = std::move(Entry);
  }
  json Document = {{"version", 1}, {"functions", std::move(Functions)}};
  if (!Storage.empty())
    Document["per_rank_storage"] = std::move(Storage);
  return Document.dump(1) + "\n";
}

Error mergeSummaries(const std::string &Text, const std::string &Source, ExternalSummaries &Into) {
  json Document = json::parse(Text, nullptr, /*allow_exceptions=*/false);
  if (Document.is_discarded())
    return Error(Source + ": not valid JSON");
  if (!Document.is_object() || !Document.contains("version") || Document.at("version") != 1)
    return Error(Source + ": not a lockstep summary file (expected \"version\": 1)");
  if (!Document.contains("functions") || !Document.at("functions").is_object())
    return Error(Source + ": key 'functions': expected an object");
  if (Document.contains("per_rank_storage") && !Document.at("per_rank_storage").is_object())
    return Error(Source + ": key 'per_rank_storage': expected an object");
  ExternalSummaries Added;
  for (const auto &Item : Document.at("functions").items()) {
    ExternalFunction F;
    if (Error E = readFunction(Item.value(), Source + ": functions['" + Item.key() + "']", F))
      return E;
    Added.emplace(Item.key(), std::move(F));
  }
  if (Document.contains("per_rank_storage"))
    for (const auto &Item : Document.at("per_rank_storage").items()) {
      ExternalFunction F;
      if (Error E =
              readStorage(Item.value(), Source + ": per_rank_storage['" + Item.key() + "']", F))
        return E;
      Added.emplace(Item.key(), std::move(F));
    }
  Into.insert(Added.begin(), Added.end()); // existing entries win
  return Error::success();
}

Error mergeSummaryFile(const std::string &Path, ExternalSummaries &Into) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return Error(Path + ": cannot open the summary file");
  std::ostringstream Text;
  Text << In.rdbuf();
  return mergeSummaries(Text.str(), Path, Into);
}

} // namespace lockstep::analysis
