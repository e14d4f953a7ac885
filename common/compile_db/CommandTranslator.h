// The translator of one compile command, shared by the files that implement
// it: CommandTranslation.cpp (drivers, languages, the walk over the
// arguments and what every command gets), HostOptionTranslation.cpp (gcc and
// clang options), NvccOptionTranslation.cpp (nvcc's own options and toolkit)
// and ResponseFiles.cpp (response and options files, shell quoting).
// Internal to lockstep_compile_db.
#pragma once

#include "CommandTranslation.h"

#include <deque>
#include <string>
#include <vector>

namespace lockstep::cli::translation {

bool startsWith(const std::string &S, const char *Prefix);
bool endsWith(const std::string &S, const std::string &Suffix);
std::string baseName(const std::string &Path);
std::vector<std::string> splitOnCommas(const std::string &List);

enum class Driver { C, Cxx, Nvcc };

/// Whether \p Text is nvcc's option \p Name, alone or as Name=value (which
/// sets \p Value).
bool isNvccOption(const std::string &Text, const char *Name, bool &HasEquals,
                  std::string &Value);

/// Where nvcc's toolkit lives (see NvccOptionTranslation.cpp).
std::string cudaRootOf(const std::string &Nvcc, const std::string &Directory);

struct Token {
  std::string Text;
  bool Host; // came through -Xcompiler: nvcc's own options do not apply
};

/// One compile command, argument by argument: construct, then run() once.
class Translator {
public:
  Translator(const std::string &Directory, const TranslationOptions &Options,
             TranslatedCommand &Out)
      : Directory(Directory), Options(Options), Out(Out) {}

  bool run(const std::vector<std::string> &Command, const std::string &SourceFile,
           std::string &Error);

private:
  bool nvccOption(const Token &T, bool &Handled, std::string &Error);
  bool hostOption(const Token &T, std::string &Error);
  bool xclang(const std::string &Value, std::string &Error);
  bool expandFile(const std::string &File, bool Host, const char *What,
                  std::string &Error);
  bool takeValue(const std::string &Option, std::string &Value, std::string &Error);
  void pushFront(const std::vector<std::string> &Texts, bool Host);
  void define(const std::string &Macro);
  std::string absolute(const std::string &Path) const;
  void finish(const std::string &Language, const std::string &Compiler);

  const std::string &Directory;
  const TranslationOptions &Options;
  TranslatedCommand &Out;
  Driver Kind = Driver::C;
  std::deque<Token> Pending;
  std::vector<std::string> Args;
  std::vector<std::string> Macros;
  std::string XLanguage; // the last -x, mapped by languageOfX
  bool HasSdkVersion = false;
  bool CurrentIsHost = false; // the token being translated came through -Xcompiler
  int Expansions = 0;
};

} // namespace lockstep::cli::translation
