// Response files (`@file`) and nvcc options files: read, split with shell
// quoting, and put back in front of the remaining arguments.
#include "CommandTranslator.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace lockstep::cli {
namespace translation {

// Safety net against a response file that names itself.
constexpr int MaxFileExpansions = 64;

Error Translator::expandFile(const std::string &File, bool Host, const char *What) {
  if (++Expansions > MaxFileExpansions)
    return Error("more than " + std::to_string(MaxFileExpansions) + " " + What + "s expanded at '" +
                 File + "': does one include itself?");
  const std::string Path = absolute(File);
  std::ifstream In(Path, std::ios::binary);
  std::stringstream Text;
  if (In)
    Text << In.rdbuf();
  if (!In || In.bad())
    return Error(std::string("cannot read ") + What + " '" + File + "'" +
                 (Path != File ? " (" + Path + ")" : "") + ": " + std::strerror(errno));
  Expected<std::vector<std::string>> Words = splitCommandLine(Text.str());
  if (!Words)
    return Error(std::string(What) + " '" + Path + "': " + Words.takeError().message());
  pushFront(*Words, Host);
  return Error::success();
}

} // namespace translation

Expected<std::vector<std::string>> splitCommandLine(const std::string &Line) {
  std::vector<std::string> Words;
  std::string Word;
  bool InWord = false;
  for (std::size_t I = 0; I < Line.size(); ++I) {
    const char C = Line[I];
    if (C == ' ' || C == '\t' || C == '\n' || C == '\r') {
      if (InWord)
        Words.push_back(std::move(Word));
      Word.clear();
      InWord = false;
      continue;
    }
    if (C == '\\') {
      if (I + 1 >= Line.size())
        return Error("trailing backslash at character " + std::to_string(I + 1));
      ++I;
      if (Line[I] == '\n')
        continue; // a line continuation joins, it adds nothing
      Word += Line[I];
    } else if (C == '\'') {
      const std::size_t End = Line.find('\'', I + 1);
      if (End == std::string::npos)
        return Error("unterminated single quote at character " + std::to_string(I + 1));
      Word.append(Line, I + 1, End - I - 1);
      I = End;
    } else if (C == '"') {
      const std::size_t Start = I;
      for (++I;; ++I) {
        if (I >= Line.size())
          return Error("unterminated double quote at character " + std::to_string(Start + 1));
        if (Line[I] == '"')
          break;
        if (Line[I] == '\\' && I + 1 < Line.size() &&
            std::strchr("\"\\$`\n", Line[I + 1]) != nullptr && Line[I + 1] != '\0') {
          ++I;
          if (Line[I] != '\n')
            Word += Line[I];
          continue;
        }
        Word += Line[I];
      }
    } else {
      Word += C;
    }
    InWord = true;
  }
  if (InWord)
    Words.push_back(std::move(Word));
  return Words;
}

} // namespace lockstep::cli
