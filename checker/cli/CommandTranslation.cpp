// Compile command translation: see CommandTranslation.h for what is kept and
// why, and CompilerOptionTables.h for the options themselves.
#include "CommandTranslation.h"
#include "CompilerOptionTables.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace lockstep::cli {
namespace {

namespace fs = std::filesystem;
using namespace options;

bool startsWith(const std::string &S, const char *Prefix) {
  return S.compare(0, std::strlen(Prefix), Prefix) == 0;
}

bool endsWith(const std::string &S, const std::string &Suffix) {
  return S.size() >= Suffix.size() &&
         S.compare(S.size() - Suffix.size(), Suffix.size(), Suffix) == 0;
}

std::string baseName(const std::string &Path) {
  std::string::size_type Slash = Path.find_last_of('/');
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

std::vector<std::string> splitOnCommas(const std::string &List) {
  std::vector<std::string> Items;
  std::string::size_type Start = 0;
  while (Start <= List.size()) {
    std::string::size_type Comma = List.find(',', Start);
    if (Comma == std::string::npos)
      Comma = List.size();
    if (Comma > Start)
      Items.push_back(List.substr(Start, Comma - Start));
    Start = Comma + 1;
  }
  return Items;
}

// ---------------------------------------------------------------------------
// Compilers and languages.

enum class Driver { C, Cxx, Nvcc };

Driver classifyDriver(const std::string &Compiler) {
  std::string Name = baseName(Compiler);
  if (endsWith(Name, ".exe"))
    Name.resize(Name.size() - 4);
  if (Name == "nvcc")
    return Driver::Nvcc;
  // g++-12, x86_64-linux-gnu-g++, clang++-22, c++, nvc++, mpicxx, mpiCC.
  if (Name.find("++") != std::string::npos || endsWith(Name, "cxx") || Name == "CC" ||
      Name == "mpiCC" || Name == "icpc" || Name == "icpx")
    return Driver::Cxx;
  return Driver::C;
}

// Launchers that run the real compiler named by their first argument.
bool isLauncher(const std::string &Program) {
  const std::string Name = baseName(Program);
  return Name == "ccache" || Name == "sccache" || Name == "distcc" || Name == "icecc" ||
         Name == "buildcache";
}

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

// The language the build's compiler gave \p File: g++ compiles `.c` files as
// C++, nvcc compiles `.cu` as CUDA and `.c` as C.
std::string languageOfFile(const std::string &File, Driver D) {
  const std::string Name = baseName(File);
  const std::string::size_type Dot = Name.find_last_of('.');
  const std::string Ext = Dot == std::string::npos ? "" : Name.substr(Dot + 1);
  if (Ext == "cu" || Ext == "cuh")
    return "cuda";
  if (Ext == "c")
    return D == Driver::Cxx ? "c++" : "c";
  if (Ext == "h" || Ext.empty())
    return D == Driver::C ? "c" : "c++";
  if (Ext == "i")
    return "c";
  static const char *const CxxExtensions[] = {
      "cc", "cp", "cxx", "cpp", "CPP", "c++", "C", "ii", "hh", "hpp", "hxx", "h++",
      "H", "tcc", "ipp", "inl", "ixx", "cppm", "cxxm", "c++m", "ccm"};
  for (const char *Known : CxxExtensions)
    if (Ext == Known)
      return "c++";
  return "'." + Ext + "' source";
}

bool isAnalysedLanguage(const std::string &Language) {
  return Language == "c" || Language == "c++" || Language == "cuda";
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

// The kinds nvcc's `-Werror kind,...` accepts: a separate argument is only
// its value when it is a list of these (gcc's -Werror takes none).
bool isNvccWarningKindList(const std::string &Value) {
  static const char *const Kinds[] = {
      "all-warnings",         "cross-execution-space-call", "reorder",
      "default-stream-launch", "missing-launch-bounds",     "ext-lambda-captures-this",
      "deprecated-declarations"};
  const std::vector<std::string> Items = splitOnCommas(Value);
  if (Items.empty())
    return false;
  for (const std::string &Item : Items) {
    bool Known = false;
    for (const char *Kind : Kinds)
      Known = Known || Item == Kind;
    if (!Known)
      return false;
  }
  return true;
}

// Where nvcc's toolkit lives: bin/nvcc's grandparent, following a symlinked
// nvcc (Debian's /usr/bin/nvcc) when the path as written has no toolkit.
std::string cudaRootOf(const std::string &Nvcc, const std::string &Directory) {
  fs::path Path(Nvcc);
  if (Nvcc.find('/') == std::string::npos) {
    // A bare "nvcc": the build found it on PATH.
    const char *Env = std::getenv("PATH");
    std::stringstream Dirs(Env ? Env : "");
    std::string Dir;
    std::error_code EC;
    Path.clear();
    while (std::getline(Dirs, Dir, ':'))
      if (!Dir.empty() && fs::is_regular_file(fs::path(Dir) / Nvcc, EC)) {
        Path = fs::path(Dir) / Nvcc;
        break;
      }
    if (Path.empty()) {
      for (const char *Var : {"CUDA_PATH", "CUDA_HOME"})
        if (const char *Root = std::getenv(Var); Root && *Root)
          return Root;
      return "/usr/local/cuda";
    }
  } else if (Path.is_relative() && !Directory.empty()) {
    Path = fs::path(Directory) / Path;
  }
  Path = Path.lexically_normal();
  const fs::path Root = Path.parent_path().parent_path();
  std::error_code EC;
  if (!fs::exists(Root / "include" / "cuda_runtime.h", EC)) {
    const fs::path Real = fs::canonical(Path, EC);
    if (!EC && Real.parent_path().filename() == "bin")
      return Real.parent_path().parent_path().string();
  }
  return Root.string();
}

// Whether \p Text is nvcc's option \p Name, alone or as Name=value (which
// sets \p Value).
bool isNvccOption(const std::string &Text, const char *Name, bool &HasEquals,
                  std::string &Value) {
  const std::size_t Length = std::strlen(Name);
  HasEquals = Text.size() > Length && Text[Length] == '=' && startsWith(Text, Name);
  if (HasEquals)
    Value = Text.substr(Length + 1);
  return HasEquals || Text == Name;
}

template <std::size_t N>
bool isAnyNvccOption(const std::string &Text, const char *const (&Names)[N],
                     bool &HasEquals, std::string &Value) {
  for (const char *Name : Names)
    if (isNvccOption(Text, Name, HasEquals, Value))
      return true;
  return false;
}

// ---------------------------------------------------------------------------

struct Token {
  std::string Text;
  bool Host; // came through -Xcompiler: nvcc's own options do not apply
};

// Safety net against a response file that names itself.
constexpr int MaxFileExpansions = 64;

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

bool Translator::takeValue(const std::string &Option, std::string &Value,
                           std::string &Error) {
  // `-Xcompiler -isystem -Xcompiler /dir`: nvcc joins the items of all
  // -Xcompiler options into one host command line, so a host option's value
  // can come from the next -Xcompiler.
  const bool FromXcompiler = !Pending.empty() && Kind == Driver::Nvcc && CurrentIsHost;
  if (FromXcompiler && !Pending.front().Host) {
    bool HasEquals = false;
    std::string Ignored;
    const Token Next = Pending.front();
    if (isNvccOption(Next.Text, "-Xcompiler", HasEquals, Ignored) ||
        isNvccOption(Next.Text, "--compiler-options", HasEquals, Ignored)) {
      Pending.pop_front();
      bool Handled = false;
      if (!nvccOption(Next, Handled, Error))
        return false;
    }
  }
  if (Pending.empty()) {
    Error = "option '" + Option + "' expects a value";
    return false;
  }
  Value = Pending.front().Text;
  Pending.pop_front();
  return true;
}

void Translator::pushFront(const std::vector<std::string> &Texts, bool Host) {
  for (auto It = Texts.rbegin(); It != Texts.rend(); ++It)
    Pending.push_front({*It, Host});
}

void Translator::define(const std::string &Macro) {
  const std::string Arg = "-D" + Macro;
  for (const std::string &Known : Macros)
    if (Known == Arg)
      return;
  Macros.push_back(Arg);
}

std::string Translator::absolute(const std::string &Path) const {
  if (Path.empty() || Directory.empty() || Path[0] == '/' || Path[0] == '=')
    return Path;
  return (fs::path(Directory) / Path).lexically_normal().string();
}

bool Translator::expandFile(const std::string &File, bool Host, const char *What,
                            std::string &Error) {
  if (++Expansions > MaxFileExpansions) {
    Error = "more than " + std::to_string(MaxFileExpansions) + " " + What +
            "s expanded at '" + File + "': does one include itself?";
    return false;
  }
  const std::string Path = absolute(File);
  std::ifstream In(Path, std::ios::binary);
  std::stringstream Text;
  if (In)
    Text << In.rdbuf();
  if (!In || In.bad()) {
    Error = std::string("cannot read ") + What + " '" + File + "'";
    if (Path != File)
      Error += " (" + Path + ")";
    Error += std::string(": ") + std::strerror(errno);
    return false;
  }
  std::vector<std::string> Words;
  std::string SplitError;
  if (!splitCommandLine(Text.str(), Words, SplitError)) {
    Error = std::string(What) + " '" + Path + "': " + SplitError;
    return false;
  }
  pushFront(Words, Host);
  return true;
}

bool Translator::nvccOption(const Token &T, bool &Handled, std::string &Error) {
  Handled = true;
  bool HasEquals = false;
  std::string Value;
  if (isAnyNvccOption(T.Text, NvccDropFlags, HasEquals, Value))
    return true;
  if (isAnyNvccOption(T.Text, NvccDropWithValue, HasEquals, Value))
    return HasEquals || takeValue(T.Text, Value, Error);
  const NvccOption *Match = nullptr;
  for (const NvccOption &O : NvccOptions)
    if (isNvccOption(T.Text, O.Short, HasEquals, Value) ||
        isNvccOption(T.Text, O.Long, HasEquals, Value)) {
      Match = &O;
      break;
    }
  if (!Match) {
    Handled = false;
    return true;
  }
  if (Match->TakesValue && !HasEquals && !takeValue(T.Text, Value, Error))
    return false;

  const std::string Extra = Match->Extra;
  switch (Match->Action) {
  case NvccAction::Macro:
    define(Extra);
    return true;
  case NvccAction::Rewrite:
    if (endsWith(Extra, "="))
      pushFront({Extra + Value}, true);
    else
      pushFront({Extra, Value}, true);
    return true;
  case NvccAction::HostCompiler: {
    // nvcc splits the list on commas and hands each item to the host
    // compiler's command line, where `-Xcompiler "-Wall -fPIC"` splits again.
    std::vector<std::string> HostArgs;
    for (const std::string &Item : splitOnCommas(Value)) {
      std::vector<std::string> Words;
      std::string Ignored;
      if (!splitCommandLine(Item, Words, Ignored))
        Words = {Item};
      HostArgs.insert(HostArgs.end(), Words.begin(), Words.end());
    }
    pushFront(HostArgs, true);
    return true;
  }
  case NvccAction::OptionsFile: {
    // Expanded last file first, so that they end up in order at the front.
    const std::vector<std::string> Files = splitOnCommas(Value);
    for (auto It = Files.rbegin(); It != Files.rend(); ++It)
      if (!expandFile(*It, false, "nvcc options file", Error))
        return false;
    return true;
  }
  case NvccAction::Rdc:
    if (Value == "true")
      define("__CUDACC_RDC__");
    return true;
  case NvccAction::DefaultStream:
    if (Value == "per-thread")
      define("CUDA_API_PER_THREAD_DEFAULT_STREAM");
    return true;
  case NvccAction::Werror:
    if (!HasEquals && !Pending.empty() && isNvccWarningKindList(Pending.front().Text))
      Pending.pop_front();
    return true;
  }
  return true;
}

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

void Translator::finish(const std::string &Language, const std::string &Compiler) {
  Out.arguments = std::move(Args);
  Out.nvcc = Kind == Driver::Nvcc;
  std::vector<std::string> &A = Out.arguments;
  A.push_back("-x");
  A.push_back(Language);
  if (Kind == Driver::Nvcc) {
    const std::string Root =
        Options.cudaPath.empty() ? cudaRootOf(Compiler, Directory) : Options.cudaPath;
    std::error_code EC;
    if (!fs::exists(fs::path(Root) / "include" / "cuda_runtime.h", EC))
      Out.warnings.push_back("no CUDA toolkit at '" + Root + "' (from nvcc '" + Compiler +
                             "'): CUDA headers may not be found");
    if (Language == "cuda")
      A.push_back("--cuda-path=" + Root);
    else
      // nvcc puts the toolkit's headers on the path of every file it
      // compiles; clang does so itself only in CUDA mode.
      A.insert(A.end(), {"-isystem", (fs::path(Root) / "include").string()});
    // Since CUDA 13, Thrust, CUB and libcu++ live in include/cccl, which
    // nvcc adds (nvcc.profile) and clang does not.
    const fs::path Cccl = fs::path(Root) / "include" / "cccl";
    if (fs::is_directory(Cccl, EC))
      A.insert(A.end(), {"-isystem", Cccl.string()});
  }
  if (Language == "cuda") {
    // Host side only: a device compilation would hide host code under
    // #ifndef __CUDA_ARCH__. clang 22 does not know CUDA 13's version; without
    // -target-sdk-version it cannot parse kernel launches.
    A.insert(A.end(), {"--cuda-host-only", "-nocudalib", "-Wno-unknown-cuda-version"});
    if (!HasSdkVersion)
      A.insert(A.end(), {"-Xclang", "-target-sdk-version=12.9"});
    // nvcc defines __CUDACC__ as 1, clang as empty (in its CUDA wrapper,
    // after any -D): headers that test `#if __CUDACC__` (NCCL 2.28's
    // nccl_device.h) only parse with nvcc's.
    if (Kind == Driver::Nvcc && !Options.nvccCompatHeader.empty())
      A.insert(A.end(), {"-include", Options.nvccCompatHeader});
  }
  A.insert(A.end(), {"-Wno-unknown-warning-option", "-Wno-unused-command-line-argument"});
  A.insert(A.end(), Macros.begin(), Macros.end());

  const std::string Name = baseName(Compiler);
  if (startsWith(Name, "mpi"))
    Out.warnings.push_back("'" + Name +
                           "' adds MPI's include directories itself and the compile "
                           "command does not show them: if mpi.h is not found, add the "
                           "flags of '" +
                           Name + " --showme:compile'");
}

bool Translator::run(const std::vector<std::string> &Command,
                     const std::string &SourceFile, std::string &Error) {
  std::size_t First = 0;
  while (First + 1 < Command.size() && isLauncher(Command[First]) &&
         !startsWith(Command[First + 1], "-"))
    ++First;
  if (First >= Command.size() || Command[First].empty()) {
    Error = "empty compile command";
    return false;
  }
  const std::string &Compiler = Command[First];
  Kind = classifyDriver(Compiler);
  for (std::size_t I = First + 1; I < Command.size(); ++I)
    Pending.push_back({Command[I], false});

  while (!Pending.empty()) {
    const Token T = Pending.front();
    Pending.pop_front();
    CurrentIsHost = T.Host;
    if (T.Text.size() > 1 && T.Text[0] == '@') {
      // gcc, clang and CMake's includes_CXX.rsp: arguments read from a file.
      if (!expandFile(T.Text.substr(1), T.Host, "response file", Error))
        return false;
      continue;
    }
    if (Kind == Driver::Nvcc && !T.Host) {
      bool Handled = false;
      if (!nvccOption(T, Handled, Error))
        return false;
      if (Handled)
        continue;
    }
    if (!hostOption(T, Error))
      return false;
  }

  // The language: the last -x, else the entry's file, else the command's
  // last input, else what the compiler compiles by default.
  std::string Language = XLanguage;
  const std::string File = !SourceFile.empty()    ? SourceFile
                           : !Out.inputs.empty() ? Out.inputs.back()
                                                 : std::string();
  if (Language.empty() && File.empty())
    Language = Kind == Driver::C ? "c" : Kind == Driver::Nvcc ? "cuda" : "c++";
  else if (Language.empty())
    Language = languageOfFile(File, Kind);
  if (!isAnalysedLanguage(Language)) {
    Error = (XLanguage.empty() ? "'" + File + "' is a " + Language
                               : "'-x " + XLanguage + "' is a language") +
            ", not C, C++ or CUDA";
    return false;
  }
  Out.language = Language;
  finish(Language, Compiler);
  return true;
}

} // namespace

bool splitCommandLine(const std::string &Line, std::vector<std::string> &Out,
                      std::string &Error) {
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
      if (I + 1 >= Line.size()) {
        Error = "trailing backslash at character " + std::to_string(I + 1);
        return false;
      }
      ++I;
      if (Line[I] == '\n')
        continue; // a line continuation joins, it adds nothing
      Word += Line[I];
    } else if (C == '\'') {
      const std::size_t End = Line.find('\'', I + 1);
      if (End == std::string::npos) {
        Error = "unterminated single quote at character " + std::to_string(I + 1);
        return false;
      }
      Word.append(Line, I + 1, End - I - 1);
      I = End;
    } else if (C == '"') {
      const std::size_t Start = I;
      for (++I;; ++I) {
        if (I >= Line.size()) {
          Error = "unterminated double quote at character " + std::to_string(Start + 1);
          return false;
        }
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
  Out = std::move(Words);
  return true;
}

bool translateCommand(const std::vector<std::string> &Command,
                      const std::string &Directory, const std::string &SourceFile,
                      const TranslationOptions &Options, TranslatedCommand &Out,
                      std::string &Error) {
  TranslatedCommand Result;
  Translator T(Directory, Options, Result);
  if (!T.run(Command, SourceFile, Error))
    return false;
  Out = std::move(Result);
  return true;
}

std::vector<std::string> toClangArguments(const std::vector<std::string> &Command,
                                          const std::string &Directory,
                                          std::string &Error) {
  Error.clear();
  TranslatedCommand Result;
  if (!translateCommand(Command, Directory, "", TranslationOptions(), Result, Error))
    return {};
  return Result.arguments;
}

} // namespace lockstep::cli
