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

namespace lockstep::cli::options {
struct HostOption;
} // namespace lockstep::cli::options

namespace lockstep::cli::translation {

bool startsWith(const std::string &S, const char *Prefix);
bool endsWith(const std::string &S, const std::string &Suffix);
std::string baseName(const std::string &Path);
std::vector<std::string> splitOnCommas(const std::string &List);

enum class Driver { C, Cxx, Nvcc };

/// Whether \p Text is nvcc's option \p Name, alone or as Name=value (which
/// sets \p Value).
bool isNvccOption(const std::string &Text, const char *Name, bool &HasEquals, std::string &Value);

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

  Error run(const std::vector<std::string> &Command, const std::string &SourceFile);

private:
  /// Translates nvcc's own option \p T; false when \p T is none.
  Expected<bool> nvccOption(const Token &T);
  Error hostOption(const Token &T);
  /// A host option of the table, with its value in \p Form.
  Error tableOption(const options::HostOption &Match, unsigned Form, const std::string &Text,
                    std::string Value);
  /// A host option that no table names, kept or dropped by its class
  /// (warnings, -f and -m options, debug information).
  void classifiedOption(const std::string &Text);
  Error xclang(const std::string &Value);
  Error expandFile(const std::string &File, bool Host, const char *What);
  Error takeValue(const std::string &Option, std::string &Value);
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
