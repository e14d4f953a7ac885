// Sets of findings: one order for every output, the baseline filter and the
// merge of shard outputs, all keyed by the stable id.
#include "FindingsOutput.h"

#include <algorithm>
#include <numeric>
#include <tuple>
#include <unordered_set>

namespace lockstep::cli {

void sortFindings(std::vector<Finding> &Findings) {
  auto Key = [](const Finding &F) {
    return std::tie(F.Location.File, F.Location.Line, F.Location.Column, F.Check, F.Message, F.Id);
  };
  // Sorts positions, ties broken by position: stable without moving whole
  // findings around (and without std::stable_sort's deprecated buffer).
  std::vector<size_t> Order(Findings.size());
  std::iota(Order.begin(), Order.end(), size_t(0));
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return std::tuple_cat(Key(Findings[A]), std::make_tuple(A)) <
           std::tuple_cat(Key(Findings[B]), std::make_tuple(B));
  });
  std::vector<Finding> Sorted;
  Sorted.reserve(Findings.size());
  for (size_t Index : Order)
    Sorted.push_back(std::move(Findings[Index]));
  Findings = std::move(Sorted);
}

std::vector<Finding> withoutBaseline(const std::vector<Finding> &Findings,
                                     const std::vector<Finding> &Baseline) {
  std::unordered_set<std::string> Known;
  for (const Finding &F : Baseline)
    if (!F.Id.empty())
      Known.insert(F.Id);
  std::vector<Finding> New;
  for (const Finding &F : Findings)
    if (F.Id.empty() || !Known.count(F.Id))
      New.push_back(F);
  return New;
}

std::vector<Finding> mergeFindings(std::vector<std::vector<Finding>> Parts) {
  std::vector<Finding> Merged;
  std::unordered_set<std::string> Seen;
  for (std::vector<Finding> &Part : Parts)
    for (Finding &F : Part)
      if (F.Id.empty() || Seen.insert(F.Id).second)
        Merged.push_back(std::move(F));
  sortFindings(Merged);
  return Merged;
}

} // namespace lockstep::cli
