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

/// The table's entry for \p Text: the longest name that is the argument
/// itself, or its prefix in a form the option accepts (name=value, or
/// joined). \p Form and \p Value get the form and the value it carries.
const HostOption *findHostOption(const std::string &Text, unsigned &Form, std::string &Value) {
  const HostOption *Match = nullptr;
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
  return Match;
}

} // namespace

Error Translator::xclang(const std::string &Value) {
  // Plugins and PCHs of the build's clang do not load into clang 22; their
  // operand comes as the next -Xclang pair.
  const bool DropsOperand = Value == "-load" || Value == "-plugin" || Value == "-add-plugin" ||
                            Value == "-include-pch" || startsWith(Value, "-plugin-arg-");
  if (DropsOperand) {
    if (!Pending.empty() && Pending.front().Text == "-Xclang") {
      Pending.pop_front();
      std::string Operand;
      return takeValue("-Xclang", Operand);
    }
    return Error::success();
  }
  if (Value.find("-target-sdk-version") != std::string::npos)
    HasSdkVersion = true;
  Args.push_back("-Xclang");
  Args.push_back(Value);
  return Error::success();
}

Error Translator::hostOption(const Token &T) {
  const std::string &Text = T.Text;
  if (Text.empty())
    return Error::success();
  if (Text[0] != '-' || Text == "-") {
    Out.Inputs.push_back(Text);
    return Error::success();
  }

  std::string Value;
  for (const char *Name : HostDropFlags)
    if (Text == Name)
      return Error::success();
  for (const char *Name : HostDropSeparate)
    if (Text == Name)
      return takeValue(Text, Value);
  for (const char *Name : HostDropSeparateOrJoined)
    if (startsWith(Text, Name))
      return Text != Name ? Error::success() : takeValue(Text, Value);

  unsigned Form = 0;
  if (const HostOption *Match = findHostOption(Text, Form, Value))
    return tableOption(*Match, Form, Text, Value);
  classifiedOption(Text);
  return Error::success();
}

Error Translator::tableOption(const HostOption &Match, unsigned Form, const std::string &Text,
                              std::string Value) {
  if (Form == Separate)
    if (Error E = takeValue(Text, Value))
      return E;
  std::string Name = Match.Name;
  switch (Match.Action) {
  case HA::Drop:
    return Error::success();
  case HA::Language:
    XLanguage = languageOfX(Value);
    return Error::success();
  case HA::XClang:
    return xclang(Value);
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
  return Error::success();
}

void Translator::classifiedOption(const std::string &Text) {
  if (startsWith(Text, "-W")) {
    // Warnings only matter to the build; -Werror and gcc-only warning names
    // would stop the file. -Wno- only silences (unknown ones are ignored
    // with -Wno-unknown-warning-option); -Wp, passes preprocessor options,
    // except dependency files (-Wp,-MD,file), which the analysis must not write.
    if (startsWith(Text, "-Wno-") ||
        (startsWith(Text, "-Wp,") && Text.find(",-M") == std::string::npos))
      Args.push_back(Text);
    return;
  }
  if (startsWith(Text, "-f")) {
    if (stemListed(optionStem(Text), FrontEndFOptions, FrontEndFPrefixes))
      Args.push_back(Text);
    return;
  }
  if (startsWith(Text, "-m")) {
    if (!stemListed(optionStem(Text), GccOnlyMOptions, GccOnlyMPrefixes))
      Args.push_back(Text);
    return;
  }
  if (startsWith(Text, "-g"))
    return; // debug information: gcc has -g forms clang rejects
  if (Text == "-Ofast") {
    // Deprecated in clang 22 (a warning); this is what it stands for.
    Args.push_back("-O3");
    Args.push_back("-ffast-math");
    return;
  }
  if (startsWith(Text, "--std=")) {
    Args.push_back(Text.substr(1));
    return;
  }
  Args.push_back(Text);
}

} // namespace lockstep::cli::translation
