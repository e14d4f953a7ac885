// The option tables of the compile command translation, kept apart so that the
// translation logic stays readable: which gcc, clang and nvcc options the
// host-side front end needs, which it must not see, and which take a value.
// Checked against clang-22 (`clang-22 -fsyntax-only OPTION empty.cpp`) and
// nvcc 13.0's option list. Internal: include it only from
// HostOptionTranslation.cpp and NvccOptionTranslation.cpp.
#pragma once

namespace lockstep::cli::options {

// ---------------------------------------------------------------------------
// Host compiler (gcc and clang) options.

enum HostForm : unsigned {
  Separate = 1, // -I dir
  Joined = 2,   // -Idir
  Equals = 4,   // --sysroot=dir
};

enum class HostAction {
  Keep,     // clang knows it and it can change what the front end sees
  KeepPath, // as Keep, with a relative directory made absolute
  KeepFile, // as KeepPath, but only when the file exists there (gcc looks
            // for -include files in the working directory first, then on
            // the include path)
  Language, // -x: decided once, emitted at the end
  XClang,   // kept unless it loads a plugin or a PCH the build made
  Drop,     // the build's own clang and its files
};

using HA = HostAction;

struct HostOption {
  const char *Name;
  unsigned Forms; // 0: a flag without value
  HostAction Action;
};

// Options whose value may be a separate argument must be listed, or the value
// would be taken for an input. Exact names win over joined prefixes, and the
// longest joined prefix wins (-isystem-after over -isystem).
inline constexpr HostOption HostOptions[] = {
    {"-I", Separate | Joined, HA::KeepPath},
    {"-isystem", Separate | Joined, HA::KeepPath},
    {"-iquote", Separate | Joined, HA::KeepPath},
    {"-idirafter", Separate | Joined, HA::KeepPath},
    {"-isystem-after", Separate | Joined, HA::KeepPath},
    {"-cxx-isystem", Separate | Joined, HA::KeepPath},
    {"-isysroot", Separate | Joined, HA::KeepPath},
    {"-iprefix", Separate | Joined, HA::KeepPath},
    {"-iwithprefix", Separate | Joined, HA::Keep},
    {"-iwithprefixbefore", Separate | Joined, HA::Keep},
    {"-ivfsoverlay", Separate, HA::KeepPath},
    {"--sysroot", Separate | Equals, HA::KeepPath},
    {"--cuda-path", Equals, HA::KeepPath},
    {"-gcc-toolchain", Separate, HA::KeepPath},
    {"--gcc-toolchain", Equals, HA::KeepPath},
    {"--gcc-install-dir", Equals, HA::KeepPath},
    {"-include", Separate, HA::KeepFile},
    {"-imacros", Separate, HA::KeepFile},
    {"-D", Separate | Joined, HA::Keep},
    {"-U", Separate | Joined, HA::Keep},
    {"-Xpreprocessor", Separate, HA::Keep},
    {"-target", Separate, HA::Keep},
    {"--target", Equals, HA::Keep},
    {"-x", Separate | Joined, HA::Language},
    {"-Xclang", Separate, HA::XClang},
    // The build compiler's own headers, not clang 22's.
    {"-resource-dir", Separate | Equals, HA::Drop},
    // A precompiled header from another compiler, or one not built yet.
    {"-include-pch", Separate, HA::Drop},
    {"-working-directory", Separate | Equals, HA::Drop},
    {"--param", Separate | Equals, HA::Drop},
    {"-specs", Separate | Equals, HA::Drop},
    {"--specs", Separate | Equals, HA::Drop},
};

// Output, dependency files, linking, other tools: dropped with their value.
inline constexpr const char *HostDropSeparateOrJoined[] = {"-o",  "-MF", "-MT", "-MQ",
                                                           "-MJ", "-l",  "-L",  "-B"};
inline constexpr const char *HostDropSeparate[] = {"--serialize-diagnostics",
                                                   "-Xlinker",
                                                   "-Xassembler",
                                                   "-Xanalyzer",
                                                   "-Xcuda-ptxas",
                                                   "-Xcuda-fatbinary",
                                                   "-mllvm",
                                                   "-u",
                                                   "-T",
                                                   "-z",
                                                   "-aux-info",
                                                   "-dumpbase",
                                                   "-dumpbase-ext",
                                                   "-dumpdir",
                                                   "-wrapper"};
// Flags the front end does not need. -pedantic-errors turns extensions the
// build accepted into errors; the CUDA modes are replaced by host-only (a
// device compilation would hide the host code).
inline constexpr const char *HostDropFlags[] = {"-c",
                                                "-S",
                                                "-E",
                                                "-M",
                                                "-MM",
                                                "-MD",
                                                "-MMD",
                                                "-MP",
                                                "-MG",
                                                "-H",
                                                "-P",
                                                "-C",
                                                "-CC",
                                                "-dM",
                                                "-dD",
                                                "-v",
                                                "-###",
                                                "-pipe",
                                                "-save-temps",
                                                "-emit-llvm",
                                                "-p",
                                                "-pg",
                                                "--coverage",
                                                "-shared",
                                                "-static",
                                                "-static-libgcc",
                                                "-static-libstdc++",
                                                "-shared-libgcc",
                                                "-rdynamic",
                                                "-pie",
                                                "-no-pie",
                                                "-s",
                                                "-nostartfiles",
                                                "-nodefaultlibs",
                                                "-nostdlib",
                                                "-pedantic",
                                                "-pedantic-errors",
                                                "--pedantic",
                                                "--pedantic-errors",
                                                "--cuda-host-only",
                                                "--cuda-device-only",
                                                "--cuda-compile-host-device",
                                                "--offload-host-only",
                                                "--offload-device-only",
                                                "--offload-host-device",
                                                "-nocudalib"};

// -f options that change what the front end accepts or which macros it
// defines (after an optional "no-", before any "="). Every other -f option
// only shapes code generation or diagnostics, and gcc has hundreds that
// clang 22 rejects (-fno-tree-*, -fipa-*, -fconcepts-diagnostics-depth=,
// -fno-gnu-unique, ...): keeping only these is the robust way.
inline constexpr const char *FrontEndFOptions[] = {
    "exceptions",
    "cxx-exceptions",
    "rtti",
    "openmp",
    "openmp-simd",
    "openmp-version",
    "openacc",
    "fast-math",
    "finite-math-only",
    "math-errno",
    "honor-nans",
    "honor-infinities",
    "pic",
    "PIC",
    "pie",
    "PIE",
    "char8_t",
    "signed-char",
    "unsigned-char",
    "short-wchar",
    "short-enums",
    "pack-struct",
    "ms-extensions",
    "ms-compatibility",
    "ms-compatibility-version",
    "delayed-template-parsing",
    "declspec",
    "blocks",
    "gnu-keywords",
    "operator-names",
    "builtin",
    "freestanding",
    "hosted",
    "sized-deallocation",
    "aligned-new",
    "aligned-allocation",
    "new-alignment",
    "dollars-in-identifiers",
    "lax-vector-conversions",
    "gnu89-inline",
    "template-depth",
    "constexpr-depth",
    "constexpr-steps",
    "bracket-depth",
    "trigraphs",
    "digraphs",
    "asm",
    "gnu-inline-asm",
    "extended-identifiers",
    "input-charset",
    "exec-charset",
    "access-control",
};
// Prefixes of front-end -f options: -fno-builtin-memcpy, clang's CUDA modes.
inline constexpr const char *FrontEndFPrefixes[] = {"builtin-", "cuda-", "gpu-"};

// gcc-only -m options (x86 code generation) that clang 22 rejects. Other -m
// options stay: target features decide which intrinsics a file may call.
inline constexpr const char *GccOnlyMOptions[] = {"preferred-stack-boundary",
                                                  "incoming-stack-boundary",
                                                  "pc32",
                                                  "pc64",
                                                  "pc80",
                                                  "function-return",
                                                  "tune-ctrl",
                                                  "dump-tune-features",
                                                  "needed",
                                                  "veclibabi",
                                                  "accumulate-outgoing-args",
                                                  "push-args",
                                                  "memcpy-strategy",
                                                  "memset-strategy",
                                                  "stringop-strategy",
                                                  "nop-mcount",
                                                  "fentry",
                                                  "record-mcount",
                                                  "direct-extern-access",
                                                  "align-data",
                                                  "move-max",
                                                  "store-max"};
inline constexpr const char *GccOnlyMPrefixes[] = {"indirect-branch"};

// ---------------------------------------------------------------------------
// nvcc options.

// nvcc options that are not simply dropped (NvccDropFlags, NvccDropWithValue).
enum class NvccAction {
  Macro,         // a flag nvcc turns into a predefined macro (Extra)
  Rewrite,       // the host option Extra; "name=" joins the value
  HostCompiler,  // -Xcompiler: comma-separated host compiler arguments
  OptionsFile,   // --options-file: comma-separated files of nvcc arguments
  Rdc,           // -rdc=true defines __CUDACC_RDC__
  DefaultStream, // -default-stream per-thread changes the runtime API names
  Werror,        // nvcc's -Werror takes a list of its warning kinds
};

struct NvccOption {
  const char *Short;
  const char *Long;
  bool TakesValue; // as `-opt value` or `-opt=value`
  NvccAction Action;
  const char *Extra;
};

inline constexpr NvccOption NvccOptions[] = {
    {"-Xcompiler", "--compiler-options", true, NvccAction::HostCompiler, ""},
    {"-optf", "--options-file", true, NvccAction::OptionsFile, ""},
    {"-std", "--std", true, NvccAction::Rewrite, "-std="},
    {"-x", "--x", true, NvccAction::Rewrite, "-x"},
    {"-I", "--include-path", true, NvccAction::Rewrite, "-I"},
    {"-isystem", "--system-include", true, NvccAction::Rewrite, "-isystem"},
    {"-D", "--define-macro", true, NvccAction::Rewrite, "-D"},
    {"-U", "--undefine-macro", true, NvccAction::Rewrite, "-U"},
    {"-include", "--pre-include", true, NvccAction::Rewrite, "-include"},
    {"-ftemplate-depth", "--ftemplate-depth", true, NvccAction::Rewrite, "-ftemplate-depth="},
    {"-expt-relaxed-constexpr", "--expt-relaxed-constexpr", false, NvccAction::Macro,
     "__CUDACC_RELAXED_CONSTEXPR__"},
    {"-expt-extended-lambda", "--expt-extended-lambda", false, NvccAction::Macro,
     "__CUDACC_EXTENDED_LAMBDA__"},
    {"-extended-lambda", "--extended-lambda", false, NvccAction::Macro,
     "__CUDACC_EXTENDED_LAMBDA__"},
    {"-dc", "--device-c", false, NvccAction::Macro, "__CUDACC_RDC__"},
    {"-rdc", "--relocatable-device-code", true, NvccAction::Rdc, ""},
    {"-default-stream", "--default-stream", true, NvccAction::DefaultStream, ""},
    {"-Werror", "--Werror", false, NvccAction::Werror, ""},
};

// nvcc options for device code, nvcc's own steps, outputs and linking, which
// take a value (`-opt value` or `-opt=value`)...
inline constexpr const char *NvccDropWithValue[] = {"-arch",
                                                    "--gpu-architecture",
                                                    "-code",
                                                    "--gpu-code",
                                                    "-gencode",
                                                    "--generate-code",
                                                    "-ccbin",
                                                    "--compiler-bindir",
                                                    "-Xptxas",
                                                    "--ptxas-options",
                                                    "-Xnvlink",
                                                    "--nvlink-options",
                                                    "-Xfatbin",
                                                    "--fatbin-options",
                                                    "-Xlinker",
                                                    "--linker-options",
                                                    "-Xarchive",
                                                    "--archive-options",
                                                    "-Xcudafe",
                                                    "-maxrregcount",
                                                    "--maxrregcount",
                                                    "-cudart",
                                                    "--cudart",
                                                    "-cudadevrt",
                                                    "--cudadevrt",
                                                    "-t",
                                                    "--threads",
                                                    "-split-compile",
                                                    "--split-compile",
                                                    "-split-compile-extended",
                                                    "--split-compile-extended",
                                                    "-keep-dir",
                                                    "--keep-dir",
                                                    "-odir",
                                                    "--output-directory",
                                                    "-MF",
                                                    "--dependency-output",
                                                    "-MT",
                                                    "--dependency-target-name",
                                                    "-o",
                                                    "--output-file",
                                                    "-L",
                                                    "--library-path",
                                                    "-l",
                                                    "--library",
                                                    "-m",
                                                    "--machine",
                                                    "-time",
                                                    "--time",
                                                    "-ftz",
                                                    "--ftz",
                                                    "-prec-div",
                                                    "--prec-div",
                                                    "-prec-sqrt",
                                                    "--prec-sqrt",
                                                    "-fmad",
                                                    "--fmad",
                                                    "-dopt",
                                                    "--dopt",
                                                    "-Ofc",
                                                    "--Ofast-compile",
                                                    "-ldir",
                                                    "--libdevice-directory",
                                                    "-target-dir",
                                                    "--target-directory",
                                                    "-diag-suppress",
                                                    "--diag-suppress",
                                                    "-diag-warn",
                                                    "--diag-warn",
                                                    "-diag-error",
                                                    "--diag-error",
                                                    "-diag_suppress",
                                                    "--diag_suppress",
                                                    "-diag_warn",
                                                    "--diag_warn",
                                                    "-diag_error",
                                                    "--diag_error",
                                                    "-ftemplate-backtrace-limit",
                                                    "--ftemplate-backtrace-limit",
                                                    "-static-global-template-stub",
                                                    "--static-global-template-stub",
                                                    "-fdevice-time-trace",
                                                    "--fdevice-time-trace",
                                                    "-compress-mode",
                                                    "--compress-mode"};
// ...and which do not.
inline constexpr const char *NvccDropFlags[] = {"-forward-unknown-to-host-compiler",
                                                "--forward-unknown-to-host-compiler",
                                                "-forward-unknown-to-host-linker",
                                                "--forward-unknown-to-host-linker",
                                                "-dw",
                                                "--device-w",
                                                "-dlink",
                                                "--device-link",
                                                "-dlto",
                                                "--dlink-time-opt",
                                                "-lineinfo",
                                                "--generate-line-info",
                                                "-use_fast_math",
                                                "--use_fast_math",
                                                "-G",
                                                "--device-debug",
                                                "-keep",
                                                "--keep",
                                                "-save-temps",
                                                "--save-temps",
                                                "-clean-targets",
                                                "--clean-targets",
                                                "-dryrun",
                                                "--dryrun",
                                                "-v",
                                                "--verbose",
                                                "-res-usage",
                                                "--resource-usage",
                                                "-src-in-ptx",
                                                "--source-in-ptx",
                                                "-restrict",
                                                "--restrict",
                                                "-allow-unsupported-compiler",
                                                "--allow-unsupported-compiler",
                                                "-extra-device-vectorization",
                                                "--extra-device-vectorization",
                                                "-nohdinitlist",
                                                "--no-host-device-initializer-list",
                                                "-nohdmoveforward",
                                                "--no-host-device-move-forward",
                                                "-noprof",
                                                "--dont-use-profile",
                                                "-err-no",
                                                "--display-error-number",
                                                "-no-err-no",
                                                "--no-display-error-number",
                                                "-ewp",
                                                "--extensible-whole-program",
                                                "-no-align-double",
                                                "--no-align-double",
                                                "-no-device-link",
                                                "--no-device-link",
                                                "-Wno-deprecated-gpu-targets",
                                                "-lib",
                                                "--lib",
                                                "-link",
                                                "--link",
                                                "-run",
                                                "--run",
                                                "-cuda",
                                                "--cuda",
                                                "-ptx",
                                                "--ptx",
                                                "-cubin",
                                                "--cubin",
                                                "-fatbin",
                                                "--fatbin",
                                                "-optix-ir",
                                                "--optix-ir",
                                                "-c",
                                                "--compile",
                                                "-E",
                                                "--preprocess",
                                                "-M",
                                                "--generate-dependencies",
                                                "-MM",
                                                "--generate-nonsystem-dependencies",
                                                "-MD",
                                                "--generate-dependencies-with-compile",
                                                "-MMD",
                                                "--generate-nonsystem-dependencies-with-compile",
                                                "-MP",
                                                "--generate-dependency-targets",
                                                "-shared",
                                                "--shared"};

} // namespace lockstep::cli::options
