// Reading the embedded check pages: the parts SARIF needs (a one-line
// description, plain text, links that work outside the repository).
#include "CheckDocs.h"
#include "ProjectPaths.h"

#include <sstream>

namespace lockstep::cli {

namespace {

std::string trim(const std::string &S) {
  size_t Begin = S.find_first_not_of(" \t\r");
  if (Begin == std::string::npos)
    return "";
  return S.substr(Begin, S.find_last_not_of(" \t\r") - Begin + 1);
}

bool startsWith(const std::string &S, const char *Prefix) { return S.rfind(Prefix, 0) == 0; }

// The absolute form of one link target of the page at \p Page.
std::string absoluteTarget(const std::string &Target, const std::string &Page) {
  if (Target.empty() || Target.find("://") != std::string::npos || startsWith(Target, "mailto:"))
    return Target;
  if (Target[0] == '#')
    return documentUrl(Page) + Target;
  size_t Hash = Target.find('#');
  std::string Fragment = Hash == std::string::npos ? "" : Target.substr(Hash);
  std::string Relative = Target.substr(0, Hash);
  std::string Directory = Page.substr(0, Page.rfind('/') + 1);
  std::string Resolved = normalPath(Target[0] == '/' ? Relative.substr(1) : Directory + Relative);
  if (Resolved.empty() || Resolved == "." || startsWith(Resolved, ".."))
    return Target; // outside the repository: leave it as written
  return documentUrl(Resolved) + Fragment;
}

} // namespace

const CheckDoc *findCheckDoc(const std::string &Check) {
  for (const CheckDoc &Doc : checkDocs())
    if (Doc.Check == Check)
      return &Doc;
  return nullptr;
}

std::string documentUrl(const std::string &Path) { return repositoryUrl() + "/blob/main/" + Path; }

std::string plainText(const std::string &Markdown) {
  std::string Out;
  for (size_t I = 0; I < Markdown.size(); ++I) {
    char C = Markdown[I];
    if (C == '`')
      continue;
    if (C == '*' && I + 1 < Markdown.size() && Markdown[I + 1] == '*') {
      ++I;
      continue;
    }
    // "[text](target)" -> "text"
    if (C == ']' && I + 1 < Markdown.size() && Markdown[I + 1] == '(') {
      size_t Close = Markdown.find(')', I + 2);
      size_t Open = Out.rfind('[');
      if (Close != std::string::npos && Open != std::string::npos) {
        Out.erase(Open, 1);
        I = Close;
        continue;
      }
    }
    Out += C;
  }
  return Out;
}

std::string withAbsoluteLinks(const std::string &Markdown, const std::string &Page) {
  std::istringstream In(Markdown);
  std::string Line, Out;
  bool InCode = false;
  while (std::getline(In, Line)) {
    if (startsWith(trim(Line), "```"))
      InCode = !InCode;
    if (!InCode) {
      for (size_t At = Line.find("]("); At != std::string::npos; At = Line.find("](", At + 2)) {
        size_t Close = Line.find(')', At + 2);
        if (Close == std::string::npos)
          break;
        std::string Target = absoluteTarget(Line.substr(At + 2, Close - At - 2), Page);
        Line.replace(At + 2, Close - At - 2, Target);
      }
    }
    Out += Line + '\n';
  }
  // getline drops the last newline's absence; keep the page's own ending.
  if (!Markdown.empty() && Markdown.back() != '\n' && !Out.empty())
    Out.pop_back();
  return Out;
}

} // namespace lockstep::cli
