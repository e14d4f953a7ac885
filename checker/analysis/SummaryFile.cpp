#include "SummaryFile.h"
#include "JsonReader.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace lockstep::analysis {
using nlohmann::json;

namespace {

json pointJson(const SourcePoint &P) {
  if (P.File.empty())
    return json::object();
  return {{"file", P.File}, {"line", P.Line}, {"column", P.Column}};
}

using json_reader::Reader;

// A place whose file is unknown (a macro from nowhere) is written without one.
bool point(Reader &R, SourcePoint &Out) {
  if (!R.has("file"))
    return true;
  return R.string("file", Out.File) && R.count("line", Out.Line) && R.count("column", Out.Column);
}

bool readRankSource(Reader &Rank, ExternalFunction &F) {
  if (!Rank.onlyKeys({"source", "file", "line", "column", "part", "split"}) ||
      !Rank.string("source", F.RankSource) || !point(Rank, F.RankSite) ||
      !Rank.string("part", F.RankPart, /*Required=*/false) ||
      !Rank.boolean("split", F.ReturnsSplit))
    return false;
  F.ReturnsRank = true;
  return true;
}

json rankSourceJson(const ExternalFunction &F) {
  json Rank = pointJson(F.RankSite);
  Rank["source"] = F.RankSource;
  if (!F.RankPart.empty())
    Rank["part"] = F.RankPart;
  if (F.ReturnsSplit)
    Rank["split"] = true;
  return Rank;
}

// A field or global some file writes with a per-rank value.
Error readStorage(const json &Entry, const std::string &Context, ExternalFunction &F) {
  Reader R(Entry, Context);
  if (!R.onlyKeys({"name", "per_rank"}) || !R.string("name", F.Name))
    return R.takeError();
  if (!R.has("per_rank"))
    return R.failure("per_rank", "missing: where the per-rank value comes from");
  Reader Rank(R.at("per_rank"), Context + ": per_rank");
  F.Storage = true;
  readRankSource(Rank, F);
  return Rank.takeError();
}

Error readFunction(const json &Entry, const std::string &Context, ExternalFunction &F) {
  Reader R(Entry, Context);
  if (!R.onlyKeys({"name", "collectives", "several_sequences", "returns_rank", "split_by_part"}) ||
      !R.string("name", F.Name) || !R.boolean("several_sequences", F.SeveralSequences) ||
      !R.string("split_by_part", F.SplitByPart, /*Required=*/false))
    return R.takeError();
  if (R.has("collectives")) {
    const json &List = R.at("collectives");
    if (!List.is_array())
      return R.failure("collectives", "expected an array");
    for (size_t I = 0; I < List.size(); ++I) {
      Reader C(List[I], Context + ": collectives[" + std::to_string(I) + "]");
      ExternalFunction::Collective Item;
      if (!C.onlyKeys({"name", "file", "line", "column", "communicator", "communicator_param"}) ||
          !C.string("name", Item.Name) || !point(C, Item.Site) ||
          !C.string("communicator", Item.Communicator, /*Required=*/false) ||
          !C.index("communicator_param", Item.CommunicatorParam))
        return C.takeError();
      F.Collectives.push_back(std::move(Item));
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
    if (F.Storage) {
      Storage[Usr] = {{"name", F.Name}, {"per_rank", rankSourceJson(F)}};
      continue;
    }
    json Entry = {{"name", F.Name}};
    json Collectives = json::array();
    for (const ExternalFunction::Collective &C : F.Collectives) {
      json Item = pointJson(C.Site);
      Item["name"] = C.Name;
      if (!C.Communicator.empty())
        Item["communicator"] = C.Communicator;
      if (C.CommunicatorParam)
        Item["communicator_param"] = *C.CommunicatorParam;
      Collectives.push_back(std::move(Item));
    }
    Entry["collectives"] = std::move(Collectives);
    if (F.SeveralSequences)
      Entry["several_sequences"] = true;
    if (F.ReturnsRank)
      Entry["returns_rank"] = rankSourceJson(F);
    if (!F.SplitByPart.empty())
      Entry["split_by_part"] = F.SplitByPart;
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
