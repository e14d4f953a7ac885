// Stable ids: what a finding is, not where it currently sits. Baselines and
// GitHub code scanning match findings across commits by this id, so it must
// not change when lines are inserted above a finding, when an unrelated
// function is renamed, or when the checkout lies in another directory.
#include "FindingsOutput.h"
#include "ProjectPaths.h"

#include <algorithm>
#include <cstdint>
#include <map>

namespace lockstep::cli {

namespace {

// Bump when the key changes: old baselines then stop matching instead of
// matching the wrong findings.
constexpr const char *IdVersion = "lockstep-id/v1";

std::uint64_t fnv1a(const std::string &Text) {
  std::uint64_t Hash = 0xcbf29ce484222325ull;
  for (unsigned char C : Text) {
    Hash ^= C;
    Hash *= 0x100000001b3ull;
  }
  return Hash;
}

std::string hex16(std::uint64_t Value) {
  static const char Digits[] = "0123456789abcdef";
  std::string Out(16, '0');
  for (int I = 15; I >= 0; --I, Value >>= 4)
    Out[I] = Digits[Value & 15];
  return Out;
}

// The part of the key that does not depend on the position. A message names
// collectives, conditions and arguments as written, never a place (the
// wording is data, common/findings/Wording.h), so it is taken as it is.
std::string idKey(const Finding &F, const std::string &ProjectRoot) {
  // '\x1f' (unit separator) does not occur in check names, paths or
  // diagnostics, so different parts do not concatenate to the same key.
  return std::string(IdVersion) + '\x1f' + F.Check + '\x1f' +
         relativeToRoot(F.Location.File, ProjectRoot).Path + '\x1f' + F.Function + '\x1f' +
         F.Message;
}

std::string idOf(const std::string &Key, unsigned Occurrence) {
  return hex16(fnv1a(Key + '\x1f' + std::to_string(Occurrence)));
}

} // namespace

std::string stableId(const Finding &F, const std::string &ProjectRoot, unsigned Occurrence) {
  return idOf(idKey(F, ProjectRoot), Occurrence);
}

void assignIds(std::vector<Finding> &Findings, const std::string &ProjectRoot) {
  std::map<std::string, std::vector<size_t>> Groups;
  for (size_t I = 0; I < Findings.size(); ++I)
    Groups[idKey(Findings[I], ProjectRoot)].push_back(I);
  for (auto &[Key, Members] : Groups) {
    auto Position = [&](size_t Index) {
      const Location &L = Findings[Index].Location;
      return std::make_pair(L.Line, L.Column);
    };
    // Ties keep the input order (the indices ascend), deterministically.
    std::sort(Members.begin(), Members.end(), [&](size_t A, size_t B) {
      return std::make_pair(Position(A), A) < std::make_pair(Position(B), B);
    });
    unsigned Occurrence = 0;
    for (size_t M = 0; M < Members.size(); ++M) {
      if (M > 0 && Position(Members[M]) != Position(Members[M - 1]))
        ++Occurrence;
      Findings[Members[M]].Id = idOf(Key, Occurrence);
    }
  }
}

} // namespace lockstep::cli
