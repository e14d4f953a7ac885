// Findings as clang prints diagnostics, so that editors, CI log parsers and
// the runtime verifier's text reader understand them unchanged.
#include "FindingsOutput.h"
#include "ProjectPaths.h"

namespace lockstep::cli {

namespace {

// "file:line:col: ", leaving out what is unknown (0 or empty).
std::string prefix(const Location &L, const std::string &RelativeTo) {
  if (L.file.empty())
    return "";
  std::string Out = L.file;
  if (!RelativeTo.empty())
    if (ProjectPath P = relativeToRoot(L.file, RelativeTo); P.underRoot)
      Out = P.path;
  if (L.line > 0) {
    Out += ':' + std::to_string(L.line);
    if (L.column > 0)
      Out += ':' + std::to_string(L.column);
  }
  return Out + ": ";
}

} // namespace

std::string toText(const std::vector<Finding> &Findings, const std::string &RelativeTo) {
  std::string Out;
  for (const Finding &F : Findings) {
    Out += prefix(F.location, RelativeTo) + "warning: " + F.message;
    if (!F.check.empty())
      Out += " [" + F.check + "]";
    Out += '\n';
    for (const Note &N : F.notes)
      Out += prefix(N.location, RelativeTo) + "note: " + N.message + '\n';
  }
  return Out;
}

} // namespace lockstep::cli
