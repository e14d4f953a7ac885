#include "ProjectPaths.h"

#include <filesystem>

namespace lockstep::cli {

namespace fs = std::filesystem;

std::string normalPath(const std::string &Path) {
  if (Path.empty())
    return Path;
  std::string Normal = fs::path(Path).lexically_normal().generic_string();
  // "dir/" and "dir" name the same directory; keep one spelling.
  if (Normal.size() > 1 && Normal.back() == '/')
    Normal.pop_back();
  return Normal;
}

ProjectPath relativeToRoot(const std::string &File, const std::string &Root) {
  std::string Normal = normalPath(File);
  fs::path FilePath(Normal);
  if (FilePath.is_relative())
    return {Normal, true};
  if (Root.empty())
    return {Normal, false};
  fs::path RootPath(Root);
  if (RootPath.is_relative()) {
    // A root given as "." or "src/..": the files are absolute, so it must be.
    std::error_code Error;
    RootPath = fs::absolute(RootPath, Error);
  }
  fs::path Relative = FilePath.lexically_relative(fs::path(normalPath(RootPath.generic_string())));
  std::string Text = Relative.generic_string();
  // Empty: unrelated roots; "..": outside; ".": the root itself, not a file.
  if (Text.empty() || Text == "." || Text == ".." || Text.rfind("../", 0) == 0)
    return {Normal, false};
  return {Text, true};
}

std::string percentEncode(const std::string &Path) {
  static const char Hex[] = "0123456789ABCDEF";
  std::string Out;
  Out.reserve(Path.size());
  for (unsigned char C : Path) {
    bool Unreserved = (C >= 'A' && C <= 'Z') || (C >= 'a' && C <= 'z') || (C >= '0' && C <= '9') ||
                      C == '-' || C == '.' || C == '_' || C == '~' || C == '/';
    if (Unreserved) {
      Out += char(C);
    } else {
      Out += '%';
      Out += Hex[C >> 4];
      Out += Hex[C & 15];
    }
  }
  return Out;
}

std::string fileUri(const std::string &Path, bool Directory) {
  fs::path Absolute(Path);
  if (Absolute.is_relative()) {
    std::error_code Error;
    fs::path Made = fs::absolute(Absolute, Error);
    if (!Error)
      Absolute = Made;
  }
  std::string Text = normalPath(Absolute.generic_string());
  if (Text.empty() || Text[0] != '/')
    Text.insert(0, "/");
  if (Directory && Text.back() != '/')
    Text += '/';
  return "file://" + percentEncode(Text);
}

} // namespace lockstep::cli
