// lockstep-wrapgen: writes the interposer's wrappers from rules/*.json.
// Each collective of an API with a header gets one extern "C" wrapper whose
// parameter types come from the real declaration (decltype), so the
// compiler checks every wrapper against the header; the generator only
// reads from the header how many parameters each function has.
//
// An API other than mpi and nccl is a user's (a library's own collectives,
// named by a rules file, declared by its header, exported from a shared
// library): its wrappers reach the next definition with dlsym and read the
// communicator argument with the traits of its type (MPI_Comm, ncclComm_t).
//
//   lockstep-wrapgen -o OUT.cpp [--header API=PATH]... RULES.json...
#include "RulesLoader.h"

#include <cctype>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using lockstep::rules::ArgRef;
using lockstep::rules::CollectiveRule;
using lockstep::rules::GroupRole;
using lockstep::rules::RuleSet;

namespace {

/// What the generated code needs per API: its traits, its support header,
/// how to reach the real function, and whether a call returns only once the
/// collective completed (MPI) or when it is enqueued on a stream (NCCL).
struct ApiInfo {
  const char *Traits;
  const char *Include;
  bool HostBlocking;
  bool Profiling; // PMPI_ names; otherwise dlsym(RTLD_NEXT)
};
const std::map<std::string, ApiInfo> Apis = {
    {"mpi", {"lockstep::rt::MpiTraits", "MpiApi.h", true, true}},
    {"nccl", {"lockstep::rt::NcclTraits", "NcclApi.h", false, false}},
};

/// The text of \p Path, or nothing when it cannot be read.
std::optional<std::string> readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream S;
  S << In.rdbuf();
  if (!In)
    return std::nullopt;
  return S.str();
}

/// The header without comments or preprocessor lines, so that only
/// declarations remain to be scanned.
std::string declarationsOnly(const std::string &Text) {
  std::string Out;
  bool LineStart = true;
  for (size_t I = 0; I < Text.size();) {
    if (Text.compare(I, 2, "/*") == 0) {
      size_t End = Text.find("*/", I + 2);
      I = End == std::string::npos ? Text.size() : End + 2;
      Out += ' ';
    } else if (Text.compare(I, 2, "//") == 0 || (LineStart && Text[I] == '#')) {
      bool Directive = Text[I] == '#';
      while (I < Text.size() && Text[I] != '\n') // a directive may continue with a backslash
        I += (Directive && Text[I] == '\\' && I + 1 < Text.size()) ? 2 : 1;
    } else {
      if (Text[I] == '\n')
        LineStart = true;
      else if (!std::isspace(static_cast<unsigned char>(Text[I])))
        LineStart = false;
      Out += Text[I++];
    }
  }
  return Out;
}

/// Parameter counts of every function declared in \p Decls (first
/// declaration wins).
std::map<std::string, int> arities(const std::string &Decls) {
  std::map<std::string, int> Result;
  auto IsIdent = [](char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; };
  for (size_t I = 0; I < Decls.size();) {
    if (!IsIdent(Decls[I]) || (I > 0 && IsIdent(Decls[I - 1]))) {
      ++I;
      continue;
    }
    size_t End = I;
    while (End < Decls.size() && IsIdent(Decls[End]))
      ++End;
    std::string Name = Decls.substr(I, End - I);
    size_t Open = Decls.find_first_not_of(" \t\r\n", End);
    I = End;
    if (Open == std::string::npos || Decls[Open] != '(' || Result.count(Name))
      continue;
    int Depth = 0, Commas = 0;
    bool Any = false;
    size_t J = Open;
    std::string Params;
    for (; J < Decls.size(); ++J) {
      char C = Decls[J];
      if (C == '(' && Depth++ == 0)
        continue;
      if (C == ')' && --Depth == 0)
        break;
      if (C == ',' && Depth == 1)
        ++Commas;
      Params += C;
      Any |= !std::isspace(static_cast<unsigned char>(C));
    }
    std::string Trimmed;
    for (char C : Params)
      if (!std::isspace(static_cast<unsigned char>(C)))
        Trimmed += C;
    Result[Name] = (!Any || Trimmed == "void") ? 0 : Commas + 1;
  }
  return Result;
}

int index(const ArgRef &A) { return A.K == ArgRef::Kind::Argument ? int(A.Index) : -1; }

bool isIdentifier(const std::string &S) {
  if (S.empty() || std::isdigit(static_cast<unsigned char>(S[0])))
    return false;
  for (char C : S)
    if (!std::isalnum(static_cast<unsigned char>(C)) && C != '_')
      return false;
  return true;
}

struct Wrapper {
  std::string Name, Api, Operation, Kind, Origin;
  int Comm = -1, Root = -1, Count = -1, Datatype = -1, Op = -1;
  int InPlaceBuffer = -1, InPlaceCount = -1, InPlaceDatatype = -1;
  std::string InPlaceMarker;
  bool Blocking = true;
};

/// "the traits of the communicator argument's type", for a user's API.
std::string userTraits(const Wrapper &W) {
  return "lockstep::rt::TraitsFor<lockstep::rt::ArgT<decltype(&" + W.Name + "), " +
         std::to_string(W.Comm) + ">>::Type";
}

void emit(std::ostream &Out, const std::vector<Wrapper> &Wrappers,
          const std::map<std::string, std::map<std::string, int>> &Arity,
          const std::map<std::string, std::string> &Headers,
          const std::vector<std::string> &Skipped, const std::vector<std::string> &Sources) {
  Out << "// Generated by lockstep-wrapgen from";
  for (const auto &S : Sources)
    Out << ' ' << S;
  Out << ": do not edit.\n";
  for (const auto &[Api, _] : Arity)
    if (Apis.count(Api))
      Out << "#include \"" << Apis.at(Api).Include << "\"\n";
  for (const auto &[Api, Path] : Headers)
    if (!Apis.count(Api))
      Out << "#include \"UserApi.h\"\nextern \"C\" {\n#include \"" << Path << "\"\n}\n";
  Out << "\n// Not intercepted:\n";
  for (const auto &S : Skipped)
    Out << "//   " << S << "\n";
  Out << "\nnamespace lockstep::rt {\nconst FunctionSpec Functions[] = {\n";
  for (const auto &W : Wrappers) {
    std::string Flags;
    if (!Apis.count(W.Api)) {
      Flags = W.Blocking ? "(" + userTraits(W) + "::HostBlocking ? wire::HostBlocking : 0)" : "0";
    } else {
      const ApiInfo &A = Apis.at(W.Api);
      Flags = (A.HostBlocking && W.Blocking) ? "wire::HostBlocking" : "0";
      if (A.Profiling && !W.Blocking)
        Flags += " | wire::NonblockingCall";
    }
    Out << "    {\"" << W.Name << "\", \"" << W.Operation << "\", " << Flags << "},\n";
  }
  if (Wrappers.empty())
    Out << "    {\"none\", \"none\", 0},\n";
  Out << "};\nconst uint32_t FunctionCount = " << Wrappers.size() << ";\n}\n\nextern \"C\" {\n";
  for (size_t Id = 0; Id < Wrappers.size(); ++Id) {
    const Wrapper &W = Wrappers[Id];
    bool User = !Apis.count(W.Api);
    bool Profiling = !User && Apis.at(W.Api).Profiling;
    int N = Arity.at(W.Api).at(W.Name);
    std::string Sig = "decltype(&" + (Profiling ? "P" + W.Name : W.Name) + ")";
    Out << "\n// " << W.Name << ": " << W.Operation << " (" << W.Origin << ")\n";
    Out << "__attribute__((visibility(\"default\"))) lockstep::rt::Ret<" << Sig << "> " << W.Name
        << "(";
    for (int I = 0; I < N; ++I)
      Out << (I ? ", " : "") << "lockstep::rt::ArgT<" << Sig << ", " << I << "> a" << I;
    Out << ") {\n";
    if (Profiling)
      Out << "  const auto Real = &P" << W.Name << ";\n";
    else
      Out << "  static const auto Real = lockstep::rt::" << (User ? "userReal<" : "ncclReal<")
          << Sig << ">(\"" << W.Name << "\");\n";
    Out << "  using S = lockstep::rt::Spec<" << Id << ", lockstep::rt::Kind::" << W.Kind << ", "
        << W.Comm << ", " << W.Root << ", " << W.Count << ", " << W.Datatype << ", " << W.Op << ", "
        << W.InPlaceCount << ", " << W.InPlaceDatatype << ">;\n";
    std::string InPlace = W.InPlaceBuffer < 0
                              ? "false"
                              : "(const void *)a" + std::to_string(W.InPlaceBuffer) +
                                    " == (const void *)(" + W.InPlaceMarker + ")";
    Out << "  return lockstep::rt::intercept<" << (User ? userTraits(W) : Apis.at(W.Api).Traits)
        << ", S>(Real, __builtin_return_address(0), " << InPlace;
    for (int I = 0; I < N; ++I)
      Out << ", a" << I;
    Out << ");\n}\n";
  }
  Out << "}\n";
}

int usage() {
  std::fprintf(stderr, "usage: lockstep-wrapgen -o OUT.cpp [--header API=PATH]... RULES.json...\n");
  return 2;
}

struct Options {
  std::string Output;
  std::map<std::string, std::map<std::string, int>> Arity; // per API with a header
  std::map<std::string, std::string> Headers;              // API -> header path
  std::vector<std::string> RuleFiles;
};

/// Reads the command line and the headers it names; 0 or the exit code.
int parseArguments(int Argc, char **Argv, Options &Opts) {
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "-o" && I + 1 < Argc) {
      Opts.Output = Argv[++I];
    } else if (A == "--header" && I + 1 < Argc) {
      std::string Spec = Argv[++I];
      size_t Eq = Spec.find('=');
      if (Eq == std::string::npos || !isIdentifier(Spec.substr(0, Eq))) {
        std::fprintf(stderr, "lockstep-wrapgen: error: --header wants API=PATH, got '%s'\n",
                     Spec.c_str());
        return 2;
      }
      std::optional<std::string> Text = readFile(Spec.substr(Eq + 1));
      if (!Text) {
        std::fprintf(stderr, "lockstep-wrapgen: error: cannot read '%s'\n", Spec.c_str() + Eq + 1);
        return 1;
      }
      Opts.Arity[Spec.substr(0, Eq)] = arities(declarationsOnly(*Text));
      Opts.Headers[Spec.substr(0, Eq)] = Spec.substr(Eq + 1);
    } else if (!A.empty() && A[0] == '-') {
      return usage();
    } else {
      Opts.RuleFiles.push_back(A);
    }
  }
  return Opts.Output.empty() || Opts.RuleFiles.empty() ? usage() : 0;
}

bool declared(const Options &Opts, const std::string &Api, const std::string &Name) {
  auto It = Opts.Arity.find(Api);
  return It != Opts.Arity.end() && It->second.count(Name);
}

/// Why no wrapper is generated for \p R; nothing when one is.
std::optional<std::string> skipReason(const Options &Opts, const CollectiveRule &R) {
  if (!Opts.Arity.count(R.Api) && !Apis.count(R.Api))
    return "API '" + R.Api + "' has no header here (--header " + R.Api + "=PATH)";
  if (!Opts.Arity.count(R.Api))
    return "no " + R.Api + " header at build time";
  if (!isIdentifier(R.Name))
    return "not a C function name";
  if (!declared(Opts, R.Api, R.Name))
    return "not declared by this " + R.Api + " header";
  if (R.Comm.K != ArgRef::Kind::Argument && R.Operation != "finalize")
    return "no communicator argument";
  if (R.Root.K == ArgRef::Kind::Receiver || !R.Root.Field.empty() || !R.Count.Field.empty() ||
      !R.Datatype.Field.empty() || !R.Op.Field.empty() ||
      (R.InPlace && (!R.InPlace->Count.Field.empty() || !R.InPlace->Datatype.Field.empty())))
    return "field arguments are not supported for C functions";
  if (R.InPlace &&
      (!isIdentifier(R.InPlace->Marker) || R.InPlace->Buffer.K != ArgRef::Kind::Argument))
    return "the in-place marker must be a macro or constant name and the buffer an argument";
  return std::nullopt;
}

Wrapper collectiveWrapper(const CollectiveRule &R) {
  Wrapper W{R.Name, R.Api, R.Operation, R.Operation == "finalize" ? "Finalize" : "Collective",
            R.Origin};
  W.Comm = index(R.Comm);
  W.Root = index(R.Root);
  W.Count = index(R.Count);
  W.Datatype = index(R.Datatype);
  W.Op = index(R.Op);
  if (R.InPlace) {
    W.InPlaceBuffer = index(R.InPlace->Buffer);
    W.InPlaceCount = index(R.InPlace->Count);
    W.InPlaceDatatype = index(R.InPlace->Datatype);
    W.InPlaceMarker = R.InPlace->Marker;
  }
  W.Blocking = R.Blocking;
  return W;
}

/// The wrappers the rules ask for and the header declares; 0 or the exit code.
int collectWrappers(const Options &Opts, const RuleSet &Rules, std::vector<Wrapper> &Wrappers,
                    std::vector<std::string> &Skipped) {
  for (const CollectiveRule &R : Rules.Collectives) {
    if (std::optional<std::string> Why = skipReason(Opts, R)) {
      Skipped.push_back(R.Name + ": " + *Why);
      continue;
    }
    Wrapper W = collectiveWrapper(R);
    int N = Opts.Arity.at(R.Api).at(R.Name);
    for (int I : {W.Comm, W.Root, W.Count, W.Datatype, W.Op, W.InPlaceBuffer, W.InPlaceCount,
                  W.InPlaceDatatype})
      if (I >= N) {
        std::fprintf(stderr,
                     "lockstep-wrapgen: error: %s: '%s' has %d parameters but its rule "
                     "names argument %d\n",
                     R.Origin.c_str(), R.Name.c_str(), N, I);
        return 1;
      }
    Wrappers.push_back(W);
  }
  for (const auto &M : Rules.GroupMarkers) {
    std::string Api;
    for (const auto &[Name, _] : Opts.Arity)
      if (Apis.count(Name) && declared(Opts, Name, M.Name))
        Api = Name;
    if (Api.empty()) {
      Skipped.push_back(M.Name + ": group marker not declared by any header");
      continue;
    }
    Wrappers.push_back({M.Name, Api, M.Role == GroupRole::Begin ? "group_begin" : "group_end",
                        M.Role == GroupRole::Begin ? "GroupBegin" : "GroupEnd", M.Origin});
  }
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  Options Opts;
  if (int Status = parseArguments(Argc, Argv, Opts))
    return Status;
  RuleSet Rules;
  for (const auto &File : Opts.RuleFiles)
    if (lockstep::Error E = lockstep::rules::mergeRulesFile(File, Rules)) {
      std::fprintf(stderr, "lockstep-wrapgen: error: %s\n", E.message().c_str());
      return 1;
    }
  std::vector<Wrapper> Wrappers;
  std::vector<std::string> Skipped;
  if (int Status = collectWrappers(Opts, Rules, Wrappers, Skipped))
    return Status;
  std::ostringstream Text;
  emit(Text, Wrappers, Opts.Arity, Opts.Headers, Skipped, Opts.RuleFiles);
  std::ofstream Out(Opts.Output, std::ios::binary);
  Out << Text.str();
  if (!Out) {
    std::fprintf(stderr, "lockstep-wrapgen: error: cannot write '%s'\n", Opts.Output.c_str());
    return 1;
  }
  return 0;
}
