#include "UnitCache.h"
#include "FindingsOutput.h"

#include "../analysis/SummaryFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <nlohmann/json.hpp>

namespace lockstep::cli {
using nlohmann::json;

namespace {

std::string hex(uint64_t Value) {
  char Text[17];
  std::snprintf(Text, sizeof Text, "%016llx", static_cast<unsigned long long>(Value));
  return Text;
}

/// The content hash of a file, or "" when it cannot be read.
std::string contentHash(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  return Buffer ? hex(llvm::xxh3_64bits((*Buffer)->getBuffer())) : "";
}

// The fix-its are not part of the findings' JSON format: one list of
// replacements per finding, in the findings' order.
json writeFixes(const std::vector<Finding> &Findings) {
  json Fixes = json::array();
  for (const Finding &F : Findings) {
    json Fix = json::array();
    for (const Replacement &R : F.Fix)
      Fix.push_back({R.File, R.Offset, R.Length, R.Text});
    Fixes.push_back(std::move(Fix));
  }
  return Fixes;
}

bool readFixes(const json &Entry, std::vector<Finding> &Findings) {
  auto It = Entry.find("fixes");
  if (It == Entry.end() || !It->is_array() || It->size() != Findings.size())
    return false;
  for (size_t I = 0; I < Findings.size(); ++I) {
    if (!(*It)[I].is_array())
      return false;
    for (const json &R : (*It)[I]) {
      if (!R.is_array() || R.size() != 4 || !R[0].is_string() || !R[1].is_number_unsigned() ||
          !R[2].is_number_unsigned() || !R[3].is_string())
        return false;
      Findings[I].Fix.push_back({R[0].get<std::string>(), R[1].get<unsigned>(),
                                 R[2].get<unsigned>(), R[3].get<std::string>()});
    }
  }
  return true;
}

} // namespace

std::string UnitCache::entryPath(const CompileUnit &Unit) const {
  std::string Key = Configuration + '\0' + Unit.File + '\0' + Unit.Directory;
  for (const std::string &Argument : Unit.Arguments)
    Key += '\0' + Argument;
  return Directory + "/" + hex(llvm::xxh3_64bits(Key)) + ".json";
}

std::optional<UnitResult> UnitCache::load(const CompileUnit &Unit) const {
  if (Directory.empty())
    return std::nullopt;
  auto Buffer = llvm::MemoryBuffer::getFile(entryPath(Unit));
  if (!Buffer)
    return std::nullopt;
  // A damaged or outdated entry is a miss, never an error: it is rewritten.
  json Entry = json::parse((*Buffer)->getBuffer().str(), nullptr, /*allow_exceptions=*/false);
  if (!Entry.is_object() || !Entry.contains("inputs") || !Entry["inputs"].is_object() ||
      !Entry.contains("findings") || !Entry.contains("summaries") ||
      !Entry.contains("incomplete") || !Entry["incomplete"].is_array())
    return std::nullopt;
  UnitResult Result;
  for (const json &Limit : Entry["incomplete"]) {
    if (!Limit.is_string())
      return std::nullopt;
    Result.Incomplete.push_back(Limit.get<std::string>());
  }
  for (const auto &Input : Entry["inputs"].items()) {
    if (!Input.value().is_string() || contentHash(Input.key()) != Input.value().get<std::string>())
      return std::nullopt;
    Result.Inputs.push_back(Input.key());
  }
  if (readFindingsJson(Entry["findings"].dump(), entryPath(Unit), Result.Findings) ||
      analysis::mergeSummaries(Entry["summaries"].dump(), entryPath(Unit), Result.Summaries))
    return std::nullopt;
  for (Finding &F : Result.Findings)
    F.Id.clear(); // ids belong to the whole run
  if (!readFixes(Entry, Result.Findings))
    return std::nullopt;
  return Result;
}

void UnitCache::store(const CompileUnit &Unit, const UnitResult &Result) const {
  if (Directory.empty() || !Result.Failure.empty())
    return;
  json Inputs = json::object();
  for (const std::string &Input : Result.Inputs)
    Inputs[Input] = contentHash(Input);
  std::vector<Finding> Findings = Result.Findings;
  assignIds(Findings, "/"); // the reader wants ids; they are replaced on load
  json Entry = {{"inputs", std::move(Inputs)},
                {"findings", json::parse(toJson(Findings, json::object()))},
                {"summaries", json::parse(analysis::writeSummaries(Result.Summaries))},
                {"fixes", writeFixes(Result.Findings)},
                {"incomplete", Result.Incomplete}};
  if (llvm::sys::fs::create_directories(Directory))
    return; // an unwritable cache only costs time
  std::string Path = entryPath(Unit), Temporary = Path + ".tmp";
  {
    std::error_code Error;
    llvm::raw_fd_ostream Out(Temporary, Error);
    if (Error)
      return;
    Out << Entry.dump();
  }
  llvm::sys::fs::rename(Temporary, Path); // atomic: parallel runs never read half an entry
}

} // namespace lockstep::cli
