#include "PathFilter.h"
#include "ProjectPaths.h"

#include "llvm/Support/Error.h"

#include <algorithm>

namespace lockstep::cli {

Error PathFilter::setHeaderFilter(const std::string &Regex) {
  auto Compiled = std::make_unique<llvm::Regex>(Regex);
  std::string Problem;
  if (!Compiled->isValid(Problem))
    return Error("--header-filter: invalid regular expression '" + Regex + "': " + Problem);
  HeaderFilter = std::move(Compiled);
  return Error::success();
}

Error PathFilter::addExclude(const std::string &Glob) {
  // "third_party" also excludes everything under it.
  const bool Plain = Glob.find_first_of("*?[{") == std::string::npos;
  for (const std::string &Text : {normalPath(Glob), normalPath(Glob) + "/*"}) {
    ExcludedText.push_back(Text);
    llvm::Expected<llvm::GlobPattern> Pattern =
        llvm::GlobPattern::create(ExcludedText.back(), /*MaxSubPatterns=*/1024);
    if (!Pattern)
      return Error("--exclude: invalid glob '" + Glob +
                   "': " + llvm::toString(Pattern.takeError()));
    Excluded.push_back(std::move(*Pattern));
    if (!Plain)
      break;
  }
  return Error::success();
}

bool PathFilter::reported(const std::string &File, const std::set<std::string> &MainFiles) const {
  const std::string Absolute = normalPath(File);
  ProjectPath Relative = relativeToRoot(Absolute, Root);
  auto Matches = [&](auto &&Match) {
    return Match(Absolute) || (Relative.UnderRoot && Match(Relative.Path));
  };
  if (std::any_of(Excluded.begin(), Excluded.end(), [&](const llvm::GlobPattern &Glob) {
        return Matches([&](const std::string &Path) { return Glob.match(Path); });
      }))
    return false;
  if (!HeaderFilter || File.empty() || MainFiles.count(Absolute))
    return true;
  return Matches([&](const std::string &Path) { return HeaderFilter->match(Path); });
}

std::vector<Finding> PathFilter::apply(std::vector<Finding> Findings,
                                       const std::set<std::string> &MainFiles) const {
  Findings.erase(
      std::remove_if(Findings.begin(), Findings.end(),
                     [&](const Finding &F) { return !reported(F.Location.File, MainFiles); }),
      Findings.end());
  return Findings;
}

} // namespace lockstep::cli
