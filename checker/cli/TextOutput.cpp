// Findings as clang prints diagnostics, so that editors, CI log parsers and
// the runtime verifier's text reader understand them unchanged.
#include "FindingsOutput.h"
#include "ProjectPaths.h"

namespace lockstep::cli {

namespace {

// "file:line:col: ", leaving out what is unknown (0 or empty).
std::string prefix(const Location &L, const std::string &RelativeTo) {
  if (L.File.empty())
    return "";
  std::string Out = L.File;
  if (!RelativeTo.empty())
    if (ProjectPath P = relativeToRoot(L.File, RelativeTo); P.UnderRoot)
      Out = P.Path;
  if (L.Line > 0) {
    Out += ':' + std::to_string(L.Line);
    if (L.Column > 0)
      Out += ':' + std::to_string(L.Column);
  }
  return Out + ": ";
}

} // namespace

std::string toText(const std::vector<Finding> &Findings, const std::string &RelativeTo) {
  std::string Out;
  for (const Finding &F : Findings) {
    Out += prefix(F.Location, RelativeTo) + "warning: " + F.Message;
    if (!F.Check.empty())
      Out += " [" + F.Check + "]";
    Out += '\n';
    for (const Note &N : F.Notes)
      Out += prefix(N.Location, RelativeTo) + "note: " + N.Message + '\n';
  }
  return Out;
}

} // namespace lockstep::cli
