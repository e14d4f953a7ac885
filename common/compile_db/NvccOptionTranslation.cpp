// nvcc in compile commands: its own options (macros it defines, host
// compiler options it passes on, options files) and its CUDA toolkit.
#include "CommandTranslator.h"
#include "CompilerOptionTables.h"

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <system_error>

namespace lockstep::cli::translation {

namespace fs = std::filesystem;
using namespace options;

namespace {

// The kinds nvcc's `-Werror kind,...` accepts: a separate argument is only
// its value when it is a list of these (gcc's -Werror takes none).
bool isNvccWarningKindList(const std::string &Value) {
  static const char *const Kinds[] = {
      "all-warnings",           "cross-execution-space-call", "reorder",
      "default-stream-launch",  "missing-launch-bounds",      "ext-lambda-captures-this",
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

template <std::size_t N>
bool isAnyNvccOption(const std::string &Text, const char *const (&Names)[N], bool &HasEquals,
                     std::string &Value) {
  for (const char *Name : Names)
    if (isNvccOption(Text, Name, HasEquals, Value))
      return true;
  return false;
}

} // namespace

bool isNvccOption(const std::string &Text, const char *Name, bool &HasEquals, std::string &Value) {
  const std::size_t Length = std::strlen(Name);
  HasEquals = Text.size() > Length && Text[Length] == '=' && startsWith(Text, Name);
  if (HasEquals)
    Value = Text.substr(Length + 1);
  return HasEquals || Text == Name;
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

Expected<bool> Translator::nvccOption(const Token &T) {
  bool HasEquals = false;
  std::string Value;
  if (isAnyNvccOption(T.Text, NvccDropFlags, HasEquals, Value))
    return true;
  if (isAnyNvccOption(T.Text, NvccDropWithValue, HasEquals, Value)) {
    if (!HasEquals)
      if (Error E = takeValue(T.Text, Value))
        return E;
    return true;
  }
  const NvccOption *Match = nullptr;
  for (const NvccOption &O : NvccOptions)
    if (isNvccOption(T.Text, O.Short, HasEquals, Value) ||
        isNvccOption(T.Text, O.Long, HasEquals, Value)) {
      Match = &O;
      break;
    }
  if (!Match)
    return false;
  if (Match->TakesValue && !HasEquals)
    if (Error E = takeValue(T.Text, Value))
      return E;

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
      Expected<std::vector<std::string>> Words = splitCommandLine(Item);
      if (!Words)
        Words = std::vector<std::string>{Item};
      HostArgs.insert(HostArgs.end(), Words->begin(), Words->end());
    }
    pushFront(HostArgs, true);
    return true;
  }
  case NvccAction::OptionsFile: {
    // Expanded last file first, so that they end up in order at the front.
    const std::vector<std::string> Files = splitOnCommas(Value);
    for (auto It = Files.rbegin(); It != Files.rend(); ++It)
      if (Error E = expandFile(*It, false, "nvcc options file"))
        return E;
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

} // namespace lockstep::cli::translation
