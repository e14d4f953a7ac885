#include "UnitRunner.h"
#include "InstallPaths.h"

#include "../analysis/FunctionCFG.h"
#include "../checks/LockstepCheck.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace lockstep::cli {
using namespace clang;

namespace {

/// The functions the analysis skipped because they do not compile.
struct SkippedFunctions : RecursiveASTVisitor<SkippedFunctions> {
  std::vector<std::string> Names;
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() && !analysis::FunctionCFG::analysable(FD))
      Names.push_back(FD->getQualifiedNameAsString());
    return true;
  }
};

/// \p Path as an absolute, normalised path; a relative one (a file clang
/// found through a relative include path) is relative to \p Directory.
std::string inDirectory(llvm::StringRef Path, llvm::StringRef Directory) {
  llvm::SmallString<256> Result;
  if (!Path.empty() && llvm::sys::path::is_relative(Path))
    Result = Directory;
  llvm::sys::path::append(Result, Path);
  llvm::sys::path::remove_dots(Result, /*remove_dot_dot=*/true);
  return Result.str().str();
}

/// Turns file offsets into lines and columns, reading each file once: where
/// the compiler's errors are.
class LineTable {
public:
  Location locate(const std::string &File, unsigned Offset) {
    auto [It, Inserted] = Starts.try_emplace(File);
    if (Inserted)
      if (auto Buffer = llvm::MemoryBuffer::getFile(File)) {
        It->second.push_back(0);
        llvm::StringRef Text = (*Buffer)->getBuffer();
        for (size_t I = 0; I < Text.size(); ++I)
          if (Text[I] == '\n')
            It->second.push_back(I + 1);
      }
    const std::vector<unsigned> &Lines = It->second;
    auto Line = std::upper_bound(Lines.begin(), Lines.end(), Offset);
    if (Line == Lines.begin())
      return {File, 0, 0};
    return {File, unsigned(Line - Lines.begin()), Offset - *(Line - 1) + 1};
  }

private:
  std::map<std::string, std::vector<unsigned>> Starts;
};

tidy::ClangTidyOptions tidyOptions(const CheckConfig &Config) {
  tidy::ClangTidyOptions Options = tidy::ClangTidyOptions::getDefaults();
  Options.Checks = "-*," + Config.Checks;
  Options.HeaderFilterRegex = ".*"; // --header-filter and --exclude apply to the whole run
  // The analysis skips functions of system headers itself; clang-tidy's own
  // filter would test every AST node's begin location, which costs the depth
  // of a left-nested operand chain per node (quadratic in the chain).
  Options.SystemHeaders = true;
  Options.CheckOptions["PendingExternalFacts"] = tidy::ClangTidyOptions::ClangTidyValue("true");
  Options.CheckOptions["ProjectRoot"] = tidy::ClangTidyOptions::ClangTidyValue(Config.ProjectRoot);
  if (!Config.RuleFiles.empty())
    Options.CheckOptions["RuleFiles"] = tidy::ClangTidyOptions::ClangTidyValue(Config.RuleFiles);
  for (auto [Name, On] : {std::pair("ErrorPathsAsExits", Config.Paths.ErrorPathsAsExits),
                          std::pair("AssertionsAsExits", Config.Paths.AssertionsAsExits)})
    if (On)
      Options.CheckOptions[Name] = tidy::ClangTidyOptions::ClangTidyValue("true");
  if (!Config.SummaryFile.empty())
    Options.CheckOptions["SummaryFile"] =
        tidy::ClangTidyOptions::ClangTidyValue(Config.SummaryFile);
  return Options;
}

/// What \p Analysis gives besides the findings: the summaries, the engine's
/// bounds reached, the files read and, with --verbose, what was skipped.
void takeAnalysis(const analysis::TranslationUnitAnalysis &Analysis, ASTContext &AST,
                  const CompileUnit &Unit, const CheckConfig &Config, UnitResult &Result) {
  Result.Summaries = Analysis.exportSummaries();
  // Sites in headers found through a relative -I are relative to the unit.
  for (auto &[USR, Function] : Result.Summaries) {
    for (analysis::ExternalFunction::Collective &C : Function.Collectives)
      C.Site.File = inDirectory(C.Site.File, Unit.Directory);
    Function.RankSite.File = inDirectory(Function.RankSite.File, Unit.Directory);
  }
  const SourceManager &SM = AST.getSourceManager();
  for (const analysis::AnalysisLimit &Limit : Analysis.limits()) {
    PresumedLoc Where = SM.getPresumedLoc(SM.getExpansionLoc(Limit.Where));
    std::string At = Where.isValid() ? inDirectory(Where.getFilename(), Unit.Directory) + ":" +
                                           std::to_string(Where.getLine()) + ":" +
                                           std::to_string(Where.getColumn()) + ": "
                                     : "";
    Result.Incomplete.push_back(At + "analysis of '" + Limit.Function->getQualifiedNameAsString() +
                                "' incomplete: " + Limit.What);
  }
  for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
    Result.Inputs.push_back(inDirectory(It->first.getName(), Unit.Directory));
  if (Config.Verbose) {
    SkippedFunctions Skipped;
    Skipped.TraverseDecl(AST.getTranslationUnitDecl());
    for (const std::string &Name : Skipped.Names)
      Result.Notes.push_back("'" + Name + "' was not analysed: it does not compile");
  }
}

/// Runs clang-tidy on \p Unit with \p Context: the errors it kept.
std::vector<tidy::ClangTidyError> runTidy(const CompileUnit &Unit,
                                          tidy::ClangTidyContext &Context) {
  // The clang 22 this lockstep was built with: its CUDA wrappers and builtin
  // headers, not a directory next to the lockstep binary.
  std::vector<std::string> Arguments = Unit.Arguments;
  if (std::none_of(Arguments.begin(), Arguments.end(),
                   [](const std::string &A) { return A.rfind("-resource-dir", 0) == 0; }))
    Arguments.push_back(std::string("-resource-dir=") + clangResourceDir());
  tooling::FixedCompilationDatabase Database(Unit.Directory, Arguments);
  // A physical file system has its own working directory: the real one would
  // chdir the whole process into each unit's directory.
  auto FileSystem = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>(llvm::vfs::createPhysicalFileSystem()));
  return tidy::runClangTidy(Context, Database, {Unit.File}, FileSystem,
                            /*ApplyAnyFix=*/false,
                            /*EnableCheckProfile=*/false, "", /*Quiet=*/true);
}

/// \p Emitted without the findings clang-tidy's filters (NOLINT) dropped: a
/// finding stays when a warning of its check was kept at its place, once
/// per message there, as clang-tidy reports it.
std::vector<Finding> keptFindings(std::vector<checks::EmittedFinding> Emitted,
                                  const std::vector<tidy::ClangTidyError> &Errors,
                                  const std::string &Directory) {
  std::set<std::tuple<std::string, std::string, unsigned>> Kept;
  for (const tidy::ClangTidyError &Error : Errors)
    Kept.insert({Error.DiagnosticName, Error.Message.FilePath, Error.Message.FileOffset});
  auto Absolute = [&](std::string &File) {
    if (!File.empty())
      File = inDirectory(File, Directory);
  };
  std::set<std::tuple<std::string, std::string, unsigned, std::string>> Seen;
  std::vector<Finding> Findings;
  for (checks::EmittedFinding &E : Emitted) {
    if (!Kept.count({E.Finding.Check, E.DiagnosticFile, E.DiagnosticOffset}) ||
        !Seen.insert({E.Finding.Check, E.DiagnosticFile, E.DiagnosticOffset, E.Finding.Message})
             .second)
      continue;
    Finding &F = Findings.emplace_back(std::move(E.Finding));
    Absolute(F.Location.File);
    for (Note &N : F.Notes)
      Absolute(N.Location.File);
    for (Replacement &R : F.Fix)
      Absolute(R.File);
  }
  return Findings;
}

UnitResult analyseUnit(const CompileUnit &Unit, const CheckConfig &Config) {
  UnitResult Result;
  tidy::ClangTidyContext Context(std::make_unique<tidy::DefaultOptionsProvider>(
      tidy::ClangTidyGlobalOptions(), tidyOptions(Config)));
  std::vector<checks::EmittedFinding> Emitted;
  checks::setAnalysisObserver(
      [&](const analysis::TranslationUnitAnalysis &Analysis, ASTContext &AST) {
        takeAnalysis(Analysis, AST, Unit, Config, Result);
      });
  checks::setFindingSink([&](checks::EmittedFinding F) { Emitted.push_back(std::move(F)); });
  std::vector<tidy::ClangTidyError> Errors = runTidy(Unit, Context);
  checks::setAnalysisObserver(nullptr);
  checks::setFindingSink(nullptr);

  // The compiler's errors; the findings come as data from the checks.
  LineTable Lines;
  for (const tidy::ClangTidyError &Error : Errors) {
    const tooling::DiagnosticMessage &Message = Error.Message;
    if (Error.DiagnosticName.rfind("clang-diagnostic-error", 0) != 0 &&
        Error.DiagLevel != tooling::Diagnostic::Error)
      continue;
    std::string At;
    if (!Message.FilePath.empty()) {
      Location Where =
          Lines.locate(inDirectory(Message.FilePath, Unit.Directory), Message.FileOffset);
      At =
          Where.File + ":" + std::to_string(Where.Line) + ":" + std::to_string(Where.Column) + ": ";
    }
    Result.Errors.push_back(At + "error: " + Message.Message);
  }
  if (!Result.Errors.empty()) {
    Result.Failure = "does not compile"; // a unit that does not parse is not analysed
    return Result;
  }
  Result.Findings = keptFindings(std::move(Emitted), Errors, Unit.Directory);
  return Result;
}

} // namespace

UnitResult runUnit(const CompileUnit &Unit, const CheckConfig &Config) {
  UnitResult Result;
  if (!llvm::sys::fs::is_directory(Unit.Directory)) {
    Result.Failure = "cannot be compiled";
    Result.Errors.push_back("the directory of its compile command, '" + Unit.Directory +
                            "', does not exist");
    return Result;
  }
  if (!llvm::sys::fs::exists(Unit.File)) {
    Result.Failure = "cannot be compiled";
    Result.Errors.push_back(Unit.File + ": no such file");
    return Result;
  }
  // A thread of its own per unit: a crash loses only this unit, and the
  // checks' per-thread state of a crashed unit is never reused.
  llvm::CrashRecoveryContext Recovery;
  if (!Recovery.RunSafelyOnThread([&] { Result = analyseUnit(Unit, Config); }, 8 << 20)) {
    Result = UnitResult();
    Result.Failure = "crashed lockstep";
    Result.Errors.push_back("the analysis of this unit crashed; please report it");
  }
  return Result;
}

} // namespace lockstep::cli
