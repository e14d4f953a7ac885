// The compile database reader and the command translation: the shapes CMake
// 3.25 writes for nvcc and g++, response and options files, gcc-only flags,
// shell quoting, malformed databases; and a database CMake writes for a real
// nvcc project (test/cli/nvcc_project), whose translated commands clang-22
// must parse.
#include "CompileDatabase.h"
#include "ErrorText.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <random>
#include <sstream>

#include <sys/wait.h>

using namespace lockstep::cli;
namespace fs = std::filesystem;

namespace {

using Args = std::vector<std::string>;

// A fresh directory under the system's temporary directory, removed at the end.
class TempDir {
public:
  TempDir() {
    std::random_device Random;
    Path = fs::temp_directory_path() /
           ("lockstep-cdb-" + std::to_string(Random()) + std::to_string(Random()));
    fs::create_directories(Path);
  }
  ~TempDir() {
    std::error_code EC;
    fs::remove_all(Path, EC);
  }
  std::string path() const { return Path.string(); }
  std::string write(const std::string &Name, const std::string &Text) const {
    const fs::path File = Path / Name;
    fs::create_directories(File.parent_path());
    std::ofstream(File) << Text;
    return File.string();
  }

private:
  fs::path Path;
};

Args split(const std::string &Line) {
  lockstep::Expected<Args> Words = splitCommandLine(Line);
  EXPECT_EQ(errorText(Words.takeError()), "");
  return Words ? *Words : Args();
}

// Translates with a CUDA path that exists nowhere, so that the result does
// not depend on this machine's toolkit.
TranslatedCommand translate(const Args &Command, const std::string &Directory = "/build",
                            const std::string &File = "") {
  TranslationOptions Options;
  Options.CudaPath = "/opt/cuda-test";
  TranslatedCommand Out;
  EXPECT_EQ(errorText(translateCommand(Command, Directory, File, Options, Out)), "");
  return Out;
}

std::string translateError(const Args &Command, const std::string &Directory = "/build") {
  TranslatedCommand Out;
  std::string Error =
      errorText(translateCommand(Command, Directory, "", TranslationOptions(), Out));
  EXPECT_NE(Error, "");
  return Error;
}

bool hasRun(const Args &Haystack, const Args &Needle) {
  return std::search(Haystack.begin(), Haystack.end(), Needle.begin(), Needle.end()) !=
         Haystack.end();
}

// What every CUDA translation ends with (nvcc, CUDA path /opt/cuda-test).
const Args CudaTail = {"-x",
                       "cuda",
                       "--cuda-path=/opt/cuda-test",
                       "--cuda-host-only",
                       "-nocudalib",
                       "-Wno-unknown-cuda-version",
                       "-Xclang",
                       "-target-sdk-version=12.9",
                       "-Wno-unknown-warning-option",
                       "-Wno-unused-command-line-argument"};

Args concat(Args A, const Args &B) {
  A.insert(A.end(), B.begin(), B.end());
  return A;
}

} // namespace

// --- Splitting --------------------------------------------------------------

TEST(SplitCommandLine, QuotesAndEscapes) {
  EXPECT_EQ(split("a 'b c' \"d \\\"e\\\" \\$f \\x\" g\\ h '' i\"j\"'k'"),
            (Args{"a", "b c", "d \"e\" $f \\x", "g h", "", "ijk"}));
  EXPECT_EQ(split("  a\t\tb\n c\\\nd  "), (Args{"a", "b", "cd"}));
  EXPECT_EQ(split(""), Args{});
  // What CMake writes for a definition with spaces and quotes.
  EXPECT_EQ(split("-DY=\"\\\"a b\\\"\""), (Args{"-DY=\"a b\""}));
}

TEST(SplitCommandLine, Errors) {
  EXPECT_EQ(errorText(splitCommandLine("gcc 'oops").takeError()),
            "unterminated single quote at character 5");
  EXPECT_EQ(errorText(splitCommandLine("gcc \"oops").takeError()),
            "unterminated double quote at character 5");
  EXPECT_EQ(errorText(splitCommandLine("gcc \\").takeError()), "trailing backslash at character 5");
}

// --- nvcc -------------------------------------------------------------------

TEST(TranslateNvcc, CMake325NinjaShape) {
  const TranslatedCommand T = translate(
      split("/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DX=1 "
            "-DY=\"\\\"a b\\\"\" -I/src/inc -isystem=/usr/local/cuda/include  -O3 -std=c++17 "
            "\"--generate-code=arch=compute_80,code=[compute_80,sm_80]\" "
            "--expt-relaxed-constexpr -Xcompiler=-Wall -x cu -rdc=true -c /src/a.cu -o "
            "CMakeFiles/k.dir/a.cu.o"));
  EXPECT_EQ(T.Arguments,
            concat({"-DX=1", "-DY=\"a b\"", "-I/src/inc", "-isystem", "/usr/local/cuda/include",
                    "-O3", "-std=c++17"},
                   concat(CudaTail, {"-D__CUDACC_RELAXED_CONSTEXPR__", "-D__CUDACC_RDC__"})));
  EXPECT_EQ(T.Inputs, Args{"/src/a.cu"});
  EXPECT_EQ(T.Language, "cuda");
  ASSERT_EQ(T.Warnings.size(), 1u); // /opt/cuda-test has no toolkit
  EXPECT_NE(T.Warnings[0].find("no CUDA toolkit at '/opt/cuda-test'"), std::string::npos);
}

TEST(TranslateNvcc, MakefileOptionsFileAndAtResponseFile) {
  TempDir Build;
  Build.write("CMakeFiles/k.dir/includes_CUDA.rsp", "-I/src/inc -isystem=/opt/sys\n-Irel/inc\n");
  const Args Base = {"/usr/local/cuda/bin/nvcc", "-forward-unknown-to-host-compiler"};
  const Args Expected = {"-I/src/inc", "-isystem", "/opt/sys", "-I" + Build.path() + "/rel/inc",
                         "-std=c++17"};
  // CMake 3.25 with Makefiles: --options-file FILE (also -optf, and =).
  for (const Args &Form : {Args{"--options-file", "CMakeFiles/k.dir/includes_CUDA.rsp"},
                           Args{"-optf", "CMakeFiles/k.dir/includes_CUDA.rsp"},
                           Args{"--options-file=CMakeFiles/k.dir/includes_CUDA.rsp"},
                           Args{"@CMakeFiles/k.dir/includes_CUDA.rsp"}}) {
    const TranslatedCommand T = translate(
        concat(concat(Base, Form), {"-std=c++17", "-x", "cu", "-c", "/src/a.cu"}), Build.path());
    EXPECT_EQ(T.Arguments, concat(Expected, CudaTail)) << Form[0];
  }
}

TEST(TranslateNvcc, DropsNvccOnlyOptions) {
  const TranslatedCommand T = translate(
      split("nvcc -arch sm_80 -arch=sm_90 --gpu-architecture=sm_90 -gencode "
            "arch=compute_80,code=sm_80 -gencode=arch=compute_90,code=sm_90 -code sm_80 "
            "--generate-code arch=compute_70,code=sm_70 --expt-extended-lambda --extended-lambda "
            "-rdc true --relocatable-device-code=false -lineinfo --use_fast_math -use_fast_math "
            "-Xptxas -v -Xptxas=-O3 -Xnvlink --suppress-stack-size-warning -Xfatbin -compress-all "
            "--keep --keep-dir /tmp/k -ccbin /usr/bin/g++-12 --compiler-bindir=/usr/bin/g++ "
            "--diag-suppress=177 -diag-suppress 20012 --diag_suppress=550 -Werror all-warnings "
            "-Werror=cross-execution-space-call -Wno-deprecated-gpu-targets -G -dc "
            "-MD -MT a.o -MF a.d --dependency-output a.d -maxrregcount 64 -t 4 "
            "--default-stream per-thread -cudart static -m 64 -Xcudafe --display_error_number "
            "-ftz=true -fmad false --std c++20 -x cu a.cu -o a.o"));
  EXPECT_EQ(
      T.Arguments,
      concat({"-std=c++20"}, concat(CudaTail, {"-D__CUDACC_EXTENDED_LAMBDA__", "-D__CUDACC_RDC__",
                                               "-DCUDA_API_PER_THREAD_DEFAULT_STREAM"})));
  EXPECT_EQ(T.Inputs, Args{"a.cu"});
}

TEST(TranslateNvcc, XcompilerPassThroughUsesHostRules) {
  const TranslatedCommand T =
      translate({"/usr/local/cuda/bin/nvcc", "-Xcompiler=-fPIC,-Wall,-Wlogical-op", "-Xcompiler",
                 "-fopenmp,-fno-tree-vectorize", "--compiler-options", "-O2 -g -DZ",
                 "-Xcompiler=-isystem,/opt/x", "-Xcompiler", "-include", "-Xcompiler", "/opt/y.h",
                 "-c", "k.cu"});
  EXPECT_EQ(T.Arguments, concat({"-fPIC", "-fopenmp", "-O2", "-DZ", "-isystem", "/opt/x",
                                 "-include", "/opt/y.h"},
                                CudaTail));
  EXPECT_EQ(T.Language, "cuda"); // from the .cu extension, without -x cu
}

TEST(TranslateNvcc, HostSourceGetsTheToolkitHeaders) {
  const TranslatedCommand T =
      translate({"/usr/local/cuda/bin/nvcc", "-c", "host.cpp", "-o", "host.o"});
  EXPECT_EQ(T.Language, "c++");
  EXPECT_EQ(T.Arguments,
            (Args{"-x", "c++", "-isystem", "/opt/cuda-test/include", "-Wno-unknown-warning-option",
                  "-Wno-unused-command-line-argument"}));
}

TEST(TranslateNvcc, CudaRootFromNvccPath) {
  TempDir Root;
  Root.write("cuda/include/cuda_runtime.h", "");
  Root.write("cuda/include/cccl/thrust/version.h", "");
  Root.write("cuda/bin/nvcc", "");
  TranslatedCommand T;
  ASSERT_EQ(errorText(translateCommand({Root.path() + "/cuda/bin/nvcc", "-c", "a.cu"}, "/b", "",
                                       TranslationOptions(), T)),
            "");
  EXPECT_TRUE(hasRun(T.Arguments, {"--cuda-path=" + Root.path() + "/cuda"}));
  // CUDA 13 keeps Thrust, CUB and libcu++ in include/cccl, which nvcc adds.
  EXPECT_TRUE(hasRun(T.Arguments, {"-isystem", Root.path() + "/cuda/include/cccl"}));
  EXPECT_TRUE(T.Warnings.empty());
  // A relative nvcc is relative to the command's directory.
  ASSERT_EQ(errorText(translateCommand({"bin/nvcc", "-c", "a.cu"}, Root.path() + "/cuda", "",
                                       TranslationOptions(), T)),
            "");
  EXPECT_TRUE(hasRun(T.Arguments, {"--cuda-path=" + Root.path() + "/cuda"}));
}

TEST(TranslateNvcc, MissingOptionsFileNamesIt) {
  const std::string Error =
      translateError({"nvcc", "--options-file", "CMakeFiles/k.dir/includes_CUDA.rsp", "-c", "a.cu"},
                     "/nonexistent/build");
  EXPECT_EQ(Error, "cannot read nvcc options file 'CMakeFiles/k.dir/includes_CUDA.rsp' "
                   "(/nonexistent/build/CMakeFiles/k.dir/includes_CUDA.rsp): No such file "
                   "or directory");
  EXPECT_EQ(translateError({"nvcc", "-c", "a.cu", "-arch"}), "option '-arch' expects a value");
}

// --- gcc, g++, clang --------------------------------------------------------

TEST(TranslateHost, GccOnlyWarningsAndOptionsCannotStopTheFile) {
  const TranslatedCommand T = translate(split(
      "/usr/bin/g++ -DNDEBUG -I/src/include -isystem /usr/include/foo -O2 -g -ggdb3 "
      "-Wall -Wextra -Wlogical-op -Wduplicated-cond -Wuseless-cast -Werror "
      "-Werror=format-security -Wno-unused-parameter -Wno-maybe-uninitialized "
      "-fconcepts-diagnostics-depth=2 -fno-tree-vectorize -fipa-pta -fno-gnu-unique "
      "-fstack-clash-protection -fcf-protection -fPIC -fopenmp -fno-exceptions "
      "-fdiagnostics-color=always -std=gnu++17 -pedantic-errors -pipe --param=ssp-buffer-size=4 "
      "-mpreferred-stack-boundary=4 -mindirect-branch=thunk -march=x86-64-v3 -mavx2 "
      "-Wp,-D_FORTIFY_SOURCE=2 -Wp,-MMD,x.d -Wl,-O1 -specs=/usr/share/dpkg/no-pie-compile.specs "
      "-MD -MT x.o -MF x.o.d -o x.o -c /src/x.cpp"));
  EXPECT_EQ(T.Arguments,
            (Args{"-DNDEBUG", "-I/src/include", "-isystem", "/usr/include/foo", "-O2",
                  "-Wno-unused-parameter", "-Wno-maybe-uninitialized", "-fPIC", "-fopenmp",
                  "-fno-exceptions", "-std=gnu++17", "-march=x86-64-v3", "-mavx2",
                  "-Wp,-D_FORTIFY_SOURCE=2", "-x", "c++", "-Wno-unknown-warning-option",
                  "-Wno-unused-command-line-argument"}));
  EXPECT_EQ(T.Inputs, Args{"/src/x.cpp"});
}

TEST(TranslateHost, LanguageFollowsTheBuildCompiler) {
  EXPECT_EQ(translate({"/usr/bin/gcc", "-c", "a.c"}).Language, "c");
  EXPECT_EQ(translate({"/usr/bin/g++-12", "-c", "a.c"}).Language, "c++"); // g++ compiles .c as C++
  EXPECT_EQ(translate({"/usr/bin/cc", "-c", "a.cc"}).Language, "c++");
  EXPECT_EQ(translate({"/usr/bin/mpicxx", "-c", "a.c"}).Language, "c++");
  EXPECT_EQ(translate({"clang", "-xc++", "a.c"}).Language, "c++");
  EXPECT_EQ(translate({"gcc", "-x", "c", "a.cpp"}).Language, "c");
  EXPECT_EQ(translate({"gcc", "-c", "a.cpp"}, "/b", "/src/real.c").Language, "c");
  EXPECT_EQ(translateError({"gcc", "-c", "start.s"}),
            "'start.s' is a '.s' source, not C, C++ or CUDA");
  EXPECT_EQ(translateError({"gcc", "-x", "assembler-with-cpp", "-c", "start.S"}),
            "'-x assembler-with-cpp' is a language, not C, C++ or CUDA");
}

TEST(TranslateHost, ClangCudaGetsHostOnly) {
  const TranslatedCommand T =
      translate({"/usr/bin/clang++", "--cuda-gpu-arch=sm_80", "--cuda-device-only",
                 "--cuda-path=/usr/local/cuda", "-c", "k.cu"});
  EXPECT_EQ(T.Arguments, (Args{"--cuda-gpu-arch=sm_80", "--cuda-path=/usr/local/cuda", "-x", "cuda",
                               "--cuda-host-only", "-nocudalib", "-Wno-unknown-cuda-version",
                               "-Xclang", "-target-sdk-version=12.9", "-Wno-unknown-warning-option",
                               "-Wno-unused-command-line-argument"}));
}

TEST(TranslateHost, PathsBecomeAbsolute) {
  TempDir Build;
  Build.write("pch/prefix.h", "");
  const TranslatedCommand T = translate(
      {"g++", "-Iinc", "-I", "../other", "-isystem", "sys", "-iquote", "q", "-include",
       "pch/prefix.h", "-include", "config.h", "--sysroot=root", "-I=/sysrooted", "-c", "a.cpp"},
      Build.path());
  const std::string B = Build.path();
  EXPECT_EQ(T.Arguments,
            (Args{"-I" + B + "/inc", "-I", fs::path(B).parent_path().string() + "/other",
                  "-isystem", B + "/sys", "-iquote", B + "/q", "-include", B + "/pch/prefix.h",
                  "-include", "config.h", "--sysroot=" + B + "/root", "-I=/sysrooted", "-x", "c++",
                  "-Wno-unknown-warning-option", "-Wno-unused-command-line-argument"}));
}

TEST(TranslateHost, PluginsLaunchersAndOfast) {
  const TranslatedCommand T = translate({"/usr/bin/ccache",
                                         "/usr/bin/clang++-14",
                                         "-Xclang",
                                         "-load",
                                         "-Xclang",
                                         "plugin.so",
                                         "-Xclang",
                                         "-add-plugin",
                                         "-Xclang",
                                         "x",
                                         "-Xclang",
                                         "-fno-pch-timestamp",
                                         "-resource-dir",
                                         "/usr/lib/llvm-14/lib/clang/14",
                                         "-mllvm",
                                         "-inline-threshold=9",
                                         "-Ofast",
                                         "-gcc-toolchain",
                                         "/opt/gcc",
                                         "-c",
                                         "a.cpp"});
  EXPECT_EQ(
      T.Arguments,
      (Args{"-Xclang", "-fno-pch-timestamp", "-O3", "-ffast-math", "-gcc-toolchain", "/opt/gcc",
            "-x", "c++", "-Wno-unknown-warning-option", "-Wno-unused-command-line-argument"}));
}

TEST(TranslateHost, ResponseFilesAndErrors) {
  TempDir Build;
  Build.write("CMakeFiles/foo.dir/includes_CXX.rsp", "-I/a \"-I/with space\" -isystem /s");
  Build.write("loop.rsp", "-DA @loop.rsp");
  const TranslatedCommand T = translate(
      {"/usr/bin/c++", "@CMakeFiles/foo.dir/includes_CXX.rsp", "-c", "a.cpp"}, Build.path());
  EXPECT_TRUE(hasRun(T.Arguments, {"-I/a", "-I/with space", "-isystem", "/s", "-x"}));
  EXPECT_EQ(translateError({"c++", "@missing.rsp", "-c", "a.cpp"}, Build.path()),
            "cannot read response file 'missing.rsp' (" + Build.path() +
                "/missing.rsp): No such file or directory");
  EXPECT_NE(translateError({"c++", "@loop.rsp", "-c", "a.cpp"}, Build.path())
                .find("does one include itself?"),
            std::string::npos);
  EXPECT_EQ(translateError({}), "empty compile command");
  EXPECT_EQ(translateError({"g++", "-c", "a.cpp", "-o"}), "option '-o' expects a value");
}

TEST(TranslateHost, ToClangArguments) {
  lockstep::Expected<Args> Arguments = toClangArguments({"gcc", "-DX", "-c", "a.c"}, "/b");
  ASSERT_EQ(errorText(Arguments.takeError()), "");
  EXPECT_EQ(*Arguments, (Args{"-DX", "-x", "c", "-Wno-unknown-warning-option",
                              "-Wno-unused-command-line-argument"}));
  EXPECT_NE(errorText(toClangArguments({"gcc", "-c", "a.s"}, "/b").takeError()), "");
}

// --- The database -----------------------------------------------------------

namespace {

/// The error of parsing \p Text, "" on success.
std::string parse(const std::string &Text, std::vector<CompileUnit> &Units,
                  LoadReport *Report = nullptr) {
  return errorText(parseCompileDatabase(Text, "/build/compile_commands.json", Units, Report));
}

std::string parseError(const std::string &Text) {
  std::vector<CompileUnit> Units;
  std::string Error = parse(Text, Units);
  EXPECT_NE(Error, "");
  return Error;
}

} // namespace

TEST(CompileDatabase, LoadsCommandsAndArguments) {
  std::vector<CompileUnit> Units;
  LoadReport Report;
  ASSERT_EQ(parse(R"([
    {"directory": "/build", "file": "../src/a.cpp",
     "command": "/usr/bin/c++ -DGREETING=\"\\\"hi there\\\"\" -I../inc -c ../src/a.cpp"},
    {"directory": "/build/", "file": "/src/b.c", "output": "b.o",
     "arguments": ["gcc", "-DB", "-c", "/src/b.c"], "command": "ignored"},
    {"directory": "/build", "file": "/src/a.cpp", "command": "c++ -DSECOND -c /src/a.cpp"},
    {"directory": "/build", "file": "/src/start.s", "command": "gcc -c /src/start.s"},
    {"directory": "sub", "file": "c.cu", "arguments": ["nvcc", "-c", "c.cu"]}
  ])",
                  Units, &Report),
            "");
  ASSERT_EQ(Units.size(), 3u);
  EXPECT_EQ(Units[0].File, "/src/a.cpp");
  EXPECT_EQ(Units[0].Directory, "/build");
  EXPECT_EQ(Units[0].Language, "c++");
  EXPECT_EQ(Units[0].Arguments,
            (Args{"-DGREETING=\"hi there\"", "-I/inc", "-x", "c++", "-Wno-unknown-warning-option",
                  "-Wno-unused-command-line-argument"}));
  EXPECT_EQ(Units[1].File, "/src/b.c");
  EXPECT_EQ(Units[1].Directory, "/build");
  EXPECT_EQ(Units[1].Arguments[0], "-DB"); // "arguments" wins over "command"
  EXPECT_EQ(Units[1].Language, "c");
  // A relative directory is relative to the database.
  EXPECT_EQ(Units[2].File, "/build/sub/c.cu");
  EXPECT_EQ(Units[2].Language, "cuda");

  EXPECT_EQ(Report.DatabasePath, "/build/compile_commands.json");
  EXPECT_EQ(Report.Entries, 5u);
  EXPECT_EQ(Report.Duplicates, 1u);
  ASSERT_EQ(Report.Skipped.size(), 1u);
  EXPECT_EQ(Report.Skipped[0].Index, 3u);
  EXPECT_EQ(Report.Skipped[0].File, "/src/start.s");
  EXPECT_EQ(Report.Skipped[0].Reason, "'/src/start.s' is a '.s' source, not C, C++ or CUDA");
}

TEST(CompileDatabase, TranslatesOnlyNvccEntriesForOtherTools) {
  const std::string Text = R"([
    {"directory": "/build", "file": "/src/a.cpp", "command": "g++ -Wall -c /src/a.cpp"},
    {"directory": "/build", "file": "/src/k.cu",
     "command": "ccache /opt/cuda/bin/nvcc -forward-unknown-to-host-compiler -isystem=/opt/inc -x cu -c /src/k.cu"}
  ])";
  TranslationOptions Options;
  Options.NvccCompatHeader = "/lockstep/include/lockstep/nvcc_compat.h";
  std::vector<std::string> Warnings;
  nlohmann::json Out =
      nlohmann::json::parse(translateNvccEntries(Text, "/llvm/bin/clang++", Options, Warnings));
  EXPECT_TRUE(Warnings.empty());
  EXPECT_EQ(Out[0], nlohmann::json::parse(Text)[0]); // gcc entries stay as they are
  EXPECT_FALSE(Out[1].contains("command"));
  const Args Translated = Out[1]["arguments"].get<Args>();
  EXPECT_EQ(Translated.front(), "/llvm/bin/clang++");
  EXPECT_EQ(Translated.back(), "/src/k.cu");
  for (const char *Expected :
       {"--cuda-host-only", "-nocudalib", "/opt/inc", "/lockstep/include/lockstep/nvcc_compat.h"})
    EXPECT_NE(std::find(Translated.begin(), Translated.end(), Expected), Translated.end())
        << Expected;
  for (const char *Dropped : {"-forward-unknown-to-host-compiler", "-isystem=/opt/inc", "cu"})
    EXPECT_EQ(std::find(Translated.begin(), Translated.end(), Dropped), Translated.end())
        << Dropped;
  // Not a database: left for the tool to report.
  EXPECT_EQ(translateNvccEntries("[{", "clang++", Options, Warnings), "[{");
}

TEST(CompileDatabase, MalformedDatabasesNameFileAndEntry) {
  EXPECT_NE(parseError("[{").find("/build/compile_commands.json: not valid JSON: parse "
                                  "error at line 1, column 3"),
            std::string::npos);
  EXPECT_EQ(parseError("{}"), "/build/compile_commands.json: expected an array of compile "
                              "commands, found an object");
  EXPECT_EQ(parseError(R"([{"directory":"/b","file":"a.c","command":"cc a.c"}, 3])"),
            "/build/compile_commands.json: entry 1: expected an object, found a number");
  EXPECT_EQ(parseError(R"([{"directory":"/b","command":"cc a.c"}])"),
            "/build/compile_commands.json: entry 0: missing \"file\"");
  EXPECT_EQ(parseError(R"([{"file":"a.c","command":"cc a.c"}])"),
            "/build/compile_commands.json: entry 0 (\"a.c\"): missing \"directory\"");
  EXPECT_EQ(parseError(R"([{"directory":"/b","file":"a.c"}])"),
            "/build/compile_commands.json: entry 0 (\"a.c\"): needs \"arguments\" (an "
            "array) or \"command\" (a string)");
  EXPECT_EQ(parseError(R"([{"directory":5,"file":"a.c","command":"cc"}])"),
            "/build/compile_commands.json: entry 0 (\"a.c\"): \"directory\" must be a "
            "non-empty string, found a number");
  EXPECT_EQ(parseError(R"([{"directory":"/b","file":"","command":"cc"}])"),
            "/build/compile_commands.json: entry 0: \"file\" must be a non-empty string, "
            "found an empty string");
  EXPECT_EQ(parseError(R"([{"directory":"/b","file":"a.c","output":[],"command":"cc"}])"),
            "/build/compile_commands.json: entry 0 (\"a.c\"): \"output\" must be a "
            "non-empty string, found an array");
  EXPECT_EQ(parseError(R"([{"directory":"/b","file":"a.c","command":["cc"]}])"),
            "/build/compile_commands.json: entry 0 (\"a.c\"): \"command\" must be a "
            "string, found an array");
  EXPECT_EQ(parseError(R"([{"directory":"/b","file":"a.c","arguments":"cc a.c"}])"),
            "/build/compile_commands.json: entry 0 (\"a.c\"): \"arguments\" must be a "
            "non-empty array of strings, found a string");
  EXPECT_EQ(parseError(R"([{"directory":"/b","file":"a.c","arguments":[]}])"),
            "/build/compile_commands.json: entry 0 (\"a.c\"): \"arguments\" must be a "
            "non-empty array of strings, found an empty array");
  EXPECT_EQ(parseError(R"([{"directory":"/b","file":"a.c","arguments":["cc", 1]}])"),
            "/build/compile_commands.json: entry 0 (\"a.c\"): \"arguments\"[1] must be a "
            "string, found a number");
  EXPECT_EQ(parseError(R"([{"directory":"/b","file":"a.c","command":"cc 'a.c"}])"),
            "/build/compile_commands.json: entry 0 (\"a.c\"): \"command\": unterminated "
            "single quote at character 4");
  EXPECT_EQ(parseError(R"([{"directory":"/b","file":"a.c","command":"  "}])"),
            "/build/compile_commands.json: entry 0 (\"a.c\"): \"command\" is empty");
}

TEST(CompileDatabase, ErrorLeavesOutputUnchanged) {
  std::vector<CompileUnit> Units(1);
  Units[0].File = "kept";
  EXPECT_NE(parse(R"([{"directory":"/b","file":"a.c","command":"cc a.c"}, 1])", Units), "");
  ASSERT_EQ(Units.size(), 1u);
  EXPECT_EQ(Units[0].File, "kept");
}

TEST(CompileDatabase, LoadFromBuildDirectory) {
  TempDir Build;
  std::vector<CompileUnit> Units;
  EXPECT_EQ(errorText(loadCompileDatabase(Build.path() + "/nope", Units)),
            "build directory '" + Build.path() + "/nope' does not exist");
  EXPECT_EQ(errorText(loadCompileDatabase(Build.path(), Units)),
            "no compile_commands.json in '" + Build.path() +
                "': configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON (CMake), or "
                "record the build with Bear");

  const std::string Db =
      Build.write("compile_commands.json", R"([{"directory":")" + Build.path() +
                                               R"(","file":"a.cpp","command":"c++ -c a.cpp"}])");
  LoadReport Report;
  ASSERT_EQ(errorText(loadCompileDatabase(Build.path(), Units, &Report)), "");
  ASSERT_EQ(Units.size(), 1u);
  EXPECT_EQ(Units[0].File, Build.path() + "/a.cpp");
  EXPECT_EQ(Report.DatabasePath, Db);
  ASSERT_EQ(errorText(loadCompileDatabase(Db, Units)), ""); // the file itself
  EXPECT_EQ(Units.size(), 1u);

  Build.write("compile_commands.json", "[]");
  ASSERT_EQ(errorText(loadCompileDatabase(Build.path(), Units, &Report)), "");
  EXPECT_TRUE(Units.empty());
  EXPECT_EQ(Report.Warnings, Args{Db + " lists no compile commands"});
}

// --- A database CMake wrote for a real nvcc project -------------------------

namespace {

std::string shellQuote(const std::string &Arg) {
  std::string Quoted = "'";
  for (char C : Arg)
    Quoted += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Quoted + "'";
}

std::string readFile(const std::string &Path) {
  std::ifstream In(Path);
  std::stringstream Text;
  Text << In.rdbuf();
  return Text.str();
}

// clang 22: LOCKSTEP_CLANG, else clang-22 on PATH.
std::string findClang22() {
  if (const char *Env = std::getenv("LOCKSTEP_CLANG"); Env && *Env)
    return Env;
  for (const char *Candidate : {"/usr/lib/llvm-22/bin/clang", "/usr/bin/clang-22"})
    if (fs::exists(Candidate))
      return Candidate;
  return "";
}

} // namespace

class NvccProject : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(NvccProject, TranslatedCommandsParseWithClang22) {
  const std::string Clang = findClang22();
  if (Clang.empty())
    GTEST_SKIP() << "clang-22 not found (set LOCKSTEP_CLANG)";
  TempDir Build;
  const std::string Script = std::string(LOCKSTEP_SOURCE_DIR) + "/test/cli/make_nvcc_db.sh";
  std::string Command = "bash " + shellQuote(Script) + " " + shellQuote(Build.path());
  for (const std::string &Arg : GetParam())
    Command += " " + shellQuote(Arg);
  const int Status =
      std::system((Command + " > " + shellQuote(Build.path() + ".log") + " 2>&1").c_str());
  const std::string Log = readFile(Build.path() + ".log");
  fs::remove(Build.path() + ".log");
  if (WIFEXITED(Status) && WEXITSTATUS(Status) == 77)
    GTEST_SKIP() << Log;
  ASSERT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0) << Log;

  // The database has the shapes this test is about.
  const std::string Db = readFile(Build.path() + "/compile_commands.json");
  EXPECT_NE(Db.find("-forward-unknown-to-host-compiler"), std::string::npos);
  EXPECT_NE(Db.find("--generate-code=arch=compute_80"), std::string::npos);
  if (GetParam()[0] == "Unix Makefiles") {
    EXPECT_NE(Db.find("--options-file CMakeFiles/train.dir/includes_CUDA.rsp"), std::string::npos);
    EXPECT_NE(Db.find("@CMakeFiles/train.dir/includes_CXX.rsp"), std::string::npos);
  } else {
    EXPECT_NE(Db.find("-isystem="), std::string::npos);
  }

  std::vector<CompileUnit> Units;
  LoadReport Report;
  // As lockstep check does: train_step.cu includes NCCL 2.28's nccl_device.h.
  TranslationOptions Options;
  Options.NvccCompatHeader = std::string(LOCKSTEP_SOURCE_DIR) + "/include/lockstep/nvcc_compat.h";
  ASSERT_EQ(errorText(loadCompileDatabase(Build.path(), Units, &Report, Options)), "");
  EXPECT_TRUE(Report.Skipped.empty());
  EXPECT_TRUE(Report.Warnings.empty()) << Report.Warnings[0];
  ASSERT_EQ(Units.size(), 2u);
  std::vector<std::string> Languages;
  for (const CompileUnit &Unit : Units) {
    Languages.push_back(Unit.Language);
    std::string Run = shellQuote(Clang) + " -fsyntax-only";
    for (const std::string &Arg : Unit.Arguments)
      Run += " " + shellQuote(Arg);
    Run += " " + shellQuote(Unit.File) + " 2>&1";
    const int RunStatus = std::system(Run.c_str());
    EXPECT_TRUE(WIFEXITED(RunStatus) && WEXITSTATUS(RunStatus) == 0) << Run;
  }
  std::sort(Languages.begin(), Languages.end());
  EXPECT_EQ(Languages, (Args{"c++", "cuda"}));
}

INSTANTIATE_TEST_SUITE_P(Generators, NvccProject,
                         ::testing::Values(
                             // Includes in --options-file (CUDA) and @ (C++) response files.
                             std::vector<std::string>{
                                 "Unix Makefiles", "-DCMAKE_CXX_USE_RESPONSE_FILE_FOR_INCLUDES=ON"},
                             // Includes inline, -isystem=DIR.
                             std::vector<std::string>{"Ninja"}),
                         [](const ::testing::TestParamInfo<std::vector<std::string>> &Info) {
                           return Info.param[0] == "Ninja" ? std::string("Ninja")
                                                           : std::string("Makefiles");
                         });
