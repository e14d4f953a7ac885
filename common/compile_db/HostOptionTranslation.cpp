// gcc and clang options in compile commands: kept, rewritten or dropped by
// the tables of CompilerOptionTables.h and by option classes.
#include "CommandTranslator.h"
#include "CompilerOptionTables.h"

#include <cstring>
#include <filesystem>
#include <system_error>

namespace lockstep::cli::translation {

namespace fs = std::filesystem;
using namespace options;

namespace {

// The language of a `-x` value: "c", "c++", "cuda", "" for `none` (back to
// the file's extension), or the value itself for a language lockstep does
// not analyse.
std::string languageOfX(const std::string &Value) {
  if (Value == "c" || Value == "c-header" || Value == "cpp-output")
    return "c";
  if (Value == "c++" || Value == "c++-header" || Value == "c++-cpp-output" ||
      Value == "c++-system-header" || Value == "c++-user-header")
    return "c++";
  if (Value == "cu" || Value == "cuda")
    return "cuda";
  if (Value == "none")
    return "";
  return Value;
}

// The option's name without "-f"/"-m", "no-" and "=value".
std::string optionStem(const std::string &Option) {
  std::string Stem = Option.substr(2);
  if (startsWith(Stem, "no-"))
    Stem = Stem.substr(3);
  return Stem.substr(0, Stem.find('='));
}

template <std::size_t N, std::size_t M>
bool stemListed(const std::string &Stem, const char *const (&Names)[N],
                const char *const (&Prefixes)[M]) {
  for (const char *Name : Names)
    if (Stem == Name)
      return true;
  for (const char *Prefix : Prefixes)
    if (startsWith(Stem, Prefix))
      return true;
  return false;
}

} // namespace

bool Translator::xclang(const std::string &Value, std::string &Error) {
  // Plugins and PCHs of the build's clang do not load into clang 22; their
  // operand comes as the next -Xclang pair.
  const bool DropsOperand = Value == "-load" || Value == "-plugin" ||
                            Value == "-add-plugin" || Value == "-include-pch" ||
                            startsWith(Value, "-plugin-arg-");
  if (DropsOperand) {
    if (!Pending.empty() && Pending.front().Text == "-Xclang") {
      Pending.pop_front();
      std::string Operand;
      return takeValue("-Xclang", Operand, Error);
    }
    return true;
  }
  if (Value.find("-target-sdk-version") != std::string::npos)
    HasSdkVersion = true;
  Args.push_back("-Xclang");
  Args.push_back(Value);
  return true;
}

bool Translator::hostOption(const Token &T, std::string &Error) {
  const std::string &Text = T.Text;
  if (Text.empty())
    return true;
  if (Text[0] != '-' || Text == "-") {
    Out.inputs.push_back(Text);
    return true;
  }

  std::string Value;
  for (const char *Name : HostDropFlags)
    if (Text == Name)
      return true;
  for (const char *Name : HostDropSeparate)
    if (Text == Name)
      return takeValue(Text, Value, Error);
  for (const char *Name : HostDropSeparateOrJoined)
    if (startsWith(Text, Name))
      return Text != Name || takeValue(Text, Value, Error);

  // The table: the longest name that is the argument itself, or its prefix
  // in a form the option accepts (name=value, or joined).
  const HostOption *Match = nullptr;
  unsigned Form = 0;
  for (const HostOption &O : HostOptions) {
    const std::size_t Length = std::strlen(O.Name);
    if (!startsWith(Text, O.Name) || (Match && Length <= std::strlen(Match->Name)))
      continue;
    if (Text.size() == Length) {
      Form = O.Forms & Separate;
    } else if ((O.Forms & Equals) && Text[Length] == '=') {
      Form = Equals;
      Value = Text.substr(Length + 1);
    } else if (O.Forms & Joined) {
      Form = Joined;
      Value = Text.substr(Length);
    } else {
      continue;
    }
    Match = &O;
  }
  if (Match) {
    if (Form == Separate && !takeValue(Text, Value, Error))
      return false;
    std::string Name = Match->Name;
    switch (Match->Action) {
    case HA::Drop:
      return true;
    case HA::Language:
      XLanguage = languageOfX(Value);
      return true;
    case HA::XClang:
      return xclang(Value, Error);
    case HA::KeepFile: {
      std::error_code EC;
      if (fs::exists(absolute(Value), EC))
        Value = absolute(Value);
      break;
    }
    case HA::KeepPath:
      Value = absolute(Value);
      break;
    case HA::Keep:
      break;
    }
    if (Form == Separate) {
      Args.push_back(Name);
      Args.push_back(Value);
    } else {
      Args.push_back(Name + (Form == Equals ? "=" : "") + Value);
    }
    return true;
  }

  // Classes of options.
  if (startsWith(Text, "-W")) {
    // Warnings only matter to the build; -Werror and gcc-only warning names
    // would stop the file. -Wno- only silences (unknown ones are ignored
    // with -Wno-unknown-warning-option); -Wp, passes preprocessor options,
    // except dependency files (-Wp,-MD,file), which the analysis must not write.
    if (startsWith(Text, "-Wno-") ||
        (startsWith(Text, "-Wp,") && Text.find(",-M") == std::string::npos))
      Args.push_back(Text);
    return true;
  }
  if (startsWith(Text, "-f")) {
    if (stemListed(optionStem(Text), FrontEndFOptions, FrontEndFPrefixes))
      Args.push_back(Text);
    return true;
  }
  if (startsWith(Text, "-m")) {
    if (!stemListed(optionStem(Text), GccOnlyMOptions, GccOnlyMPrefixes))
      Args.push_back(Text);
    return true;
  }
  if (startsWith(Text, "-g"))
    return true; // debug information: gcc has -g forms clang rejects
  if (Text == "-Ofast") {
    // Deprecated in clang 22 (a warning); this is what it stands for.
    Args.push_back("-O3");
    Args.push_back("-ffast-math");
    return true;
  }
  if (startsWith(Text, "--std=")) {
    Args.push_back(Text.substr(1));
    return true;
  }
  Args.push_back(Text);
  return true;
}

} // namespace lockstep::cli::translation
