#include "RuleSet.h"

#include <algorithm>

namespace lockstep::rules {
namespace {
template <typename RuleT, typename Key>
const RuleT *findBy(const std::vector<RuleT> &Rules, const std::string &Name, Key KeyOf) {
  auto It = std::find_if(Rules.begin(), Rules.end(),
                         [&](const RuleT &Rule) { return KeyOf(Rule) == Name; });
  return It == Rules.end() ? nullptr : &*It;
}
} // namespace

const CollectiveRule *RuleSet::findCollective(const std::string &Name) const {
  return findBy(Collectives, Name,
                [](const CollectiveRule &R) -> const std::string & { return R.Name; });
}
const GroupMarkerRule *RuleSet::findGroupMarker(const std::string &Name) const {
  return findBy(GroupMarkers, Name,
                [](const GroupMarkerRule &R) -> const std::string & { return R.Name; });
}
const ValueSourceRule *RuleSet::findRankSource(const std::string &Name) const {
  return findBy(RankSources, Name,
                [](const ValueSourceRule &R) -> const std::string & { return R.Function; });
}
const ValueSourceRule *RuleSet::findUniformSource(const std::string &Name) const {
  return findBy(UniformSources, Name,
                [](const ValueSourceRule &R) -> const std::string & { return R.Function; });
}
const PerRankSourceRule *RuleSet::findPerRankSource(const std::string &Name) const {
  return findBy(PerRankSources, Name,
                [](const PerRankSourceRule &R) -> const std::string & { return R.Function; });
}

const CopyRule *RuleSet::findCopy(const std::string &Name) const {
  return findBy(Copies, Name, [](const CopyRule &R) -> const std::string & { return R.Function; });
}

const RankSetRule *RuleSet::findRankSet(const std::string &Name) const {
  return findBy(RankSets, Name,
                [](const RankSetRule &R) -> const std::string & { return R.Function; });
}

} // namespace lockstep::rules
