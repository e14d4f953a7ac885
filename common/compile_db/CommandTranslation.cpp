// Compile command translation: see CommandTranslation.h for what is kept and
// why, and CompilerOptionTables.h for the options themselves. This file walks
// a command's arguments; CommandTranslator.h names the files that translate
// them.
#include "CommandTranslator.h"

#include <cstring>
#include <filesystem>
#include <system_error>

namespace lockstep::cli {
namespace translation {

namespace fs = std::filesystem;

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

namespace {

// Compilers and languages.

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
  static const char *const CxxExtensions[] = {"cc",  "cp",  "cxx", "cpp",  "CPP",  "c++",  "C",
                                              "ii",  "hh",  "hpp", "hxx",  "h++",  "H",    "tcc",
                                              "ipp", "inl", "ixx", "cppm", "cxxm", "c++m", "ccm"};
  for (const char *Known : CxxExtensions)
    if (Ext == Known)
      return "c++";
  return "'." + Ext + "' source";
}

bool isAnalysedLanguage(const std::string &Language) {
  return Language == "c" || Language == "c++" || Language == "cuda";
}

} // namespace

Error Translator::takeValue(const std::string &Option, std::string &Value) {
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
      if (Expected<bool> Handled = nvccOption(Next); !Handled)
        return Handled.takeError();
    }
  }
  if (Pending.empty())
    return Error("option '" + Option + "' expects a value");
  Value = Pending.front().Text;
  Pending.pop_front();
  return Error::success();
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

void Translator::finish(const std::string &Language, const std::string &Compiler) {
  Out.Arguments = std::move(Args);
  Out.Nvcc = Kind == Driver::Nvcc;
  std::vector<std::string> &A = Out.Arguments;
  A.push_back("-x");
  A.push_back(Language);
  if (Kind == Driver::Nvcc) {
    const std::string Root =
        Options.CudaPath.empty() ? cudaRootOf(Compiler, Directory) : Options.CudaPath;
    std::error_code EC;
    if (!fs::exists(fs::path(Root) / "include" / "cuda_runtime.h", EC))
      Out.Warnings.push_back("no CUDA toolkit at '" + Root + "' (from nvcc '" + Compiler +
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
    if (Kind == Driver::Nvcc && !Options.NvccCompatHeader.empty())
      A.insert(A.end(), {"-include", Options.NvccCompatHeader});
  }
  A.insert(A.end(), {"-Wno-unknown-warning-option", "-Wno-unused-command-line-argument"});
  A.insert(A.end(), Macros.begin(), Macros.end());

  const std::string Name = baseName(Compiler);
  if (startsWith(Name, "mpi"))
    Out.Warnings.push_back("'" + Name +
                           "' adds MPI's include directories itself and the compile "
                           "command does not show them: if mpi.h is not found, add the "
                           "flags of '" +
                           Name + " --showme:compile'");
}

Error Translator::run(const std::vector<std::string> &Command, const std::string &SourceFile) {
  std::size_t First = 0;
  while (First + 1 < Command.size() && isLauncher(Command[First]) &&
         !startsWith(Command[First + 1], "-"))
    ++First;
  if (First >= Command.size() || Command[First].empty())
    return Error("empty compile command");
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
      if (Error E = expandFile(T.Text.substr(1), T.Host, "response file"))
        return E;
      continue;
    }
    if (Kind == Driver::Nvcc && !T.Host) {
      Expected<bool> Handled = nvccOption(T);
      if (!Handled)
        return Handled.takeError();
      if (*Handled)
        continue;
    }
    if (Error E = hostOption(T))
      return E;
  }

  // The language: the last -x, else the entry's file, else the command's
  // last input, else what the compiler compiles by default.
  std::string Language = XLanguage;
  const std::string File = !SourceFile.empty()   ? SourceFile
                           : !Out.Inputs.empty() ? Out.Inputs.back()
                                                 : std::string();
  if (Language.empty() && File.empty())
    Language = Kind == Driver::C ? "c" : Kind == Driver::Nvcc ? "cuda" : "c++";
  else if (Language.empty())
    Language = languageOfFile(File, Kind);
  if (!isAnalysedLanguage(Language))
    return Error((XLanguage.empty() ? "'" + File + "' is a " + Language
                                    : "'-x " + XLanguage + "' is a language") +
                 ", not C, C++ or CUDA");
  Out.Language = Language;
  finish(Language, Compiler);
  return Error::success();
}

} // namespace translation

Error translateCommand(const std::vector<std::string> &Command, const std::string &Directory,
                       const std::string &SourceFile, const TranslationOptions &Options,
                       TranslatedCommand &Out) {
  TranslatedCommand Result;
  translation::Translator T(Directory, Options, Result);
  if (Error E = T.run(Command, SourceFile))
    return E;
  Out = std::move(Result);
  return Error::success();
}

Expected<std::vector<std::string>> toClangArguments(const std::vector<std::string> &Command,
                                                    const std::string &Directory) {
  TranslatedCommand Result;
  if (Error E = translateCommand(Command, Directory, "", TranslationOptions(), Result))
    return E;
  return Result.Arguments;
}

} // namespace lockstep::cli
