#include "UnitRunner.h"
#include "InstallPaths.h"

#include "../analysis/CallSite.h"
#include "../analysis/FunctionCFG.h"
#include "../checks/DivergenceNotes.h"
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

namespace lockstep::cli {
using namespace clang;

namespace {

/// What the engine knows about a finding's site that the diagnostic text
/// does not carry as data: the collective, communicator, condition, function.
struct SiteFacts {
  std::string function, collective, communicator, condition;
  std::vector<std::string> callArguments; // a pending call's, as written
};
using FactsBySite = std::map<std::pair<std::string, unsigned>, SiteFacts>;

std::pair<std::string, unsigned> siteKey(const SourceManager &SM, SourceLocation Loc) {
  Loc = SM.getExpansionLoc(Loc);
  OptionalFileEntryRef File = SM.getFileEntryRefForID(SM.getFileID(Loc));
  return {File ? File->getName().str() : "", SM.getFileOffset(Loc)};
}

void collectFacts(const analysis::TranslationUnitAnalysis &Analysis, ASTContext &Context,
                  FactsBySite &Out) {
  const SourceManager &SM = Context.getSourceManager();
  auto Add = [&](SourceLocation Site, const clang::FunctionDecl *Function,
                 const analysis::CollectiveEvent *Event, const clang::Stmt *Condition) {
    SiteFacts &Facts = Out[siteKey(SM, Site)];
    Facts.function = Function ? Function->getQualifiedNameAsString() : "";
    if (Event) {
      Facts.collective = Event->collective;
      Facts.communicator = Event->communicator;
      if (const auto *Call = dyn_cast_or_null<CallExpr>(Event->siteStmt); Call && Event->pending)
        for (const Expr *Argument : analysis::explicitArguments(Call))
          Facts.callArguments.push_back(checks::sourceText(Argument, Context));
    }
    Facts.condition = checks::sourceText(Condition, Context);
  };
  for (const analysis::Divergence &D : Analysis.divergences())
    Add(D.event.site, D.function, &D.event, D.condition);
  for (const analysis::LoopDivergence &D : Analysis.loopDivergences())
    Add(D.event.site, D.function, &D.event, D.condition);
  for (const analysis::RankArgument &A : Analysis.rankArguments()) {
    analysis::CollectiveEvent Event;
    Event.collective = A.collective;
    Event.communicator = A.communicator;
    Add(A.argument->getBeginLoc(), A.function, &Event, A.argument);
  }
  for (const analysis::GroupImbalance &P : Analysis.groupImbalances())
    Add(P.site, P.function, nullptr, nullptr);
}

/// The functions the analysis skipped because they do not compile.
struct SkippedFunctions : RecursiveASTVisitor<SkippedFunctions> {
  std::vector<std::string> names;
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() && !analysis::FunctionCFG::analysable(FD))
      names.push_back(FD->getQualifiedNameAsString());
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

/// Turns file offsets into lines and columns, reading each file once.
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

UnitResult analyseUnit(const CompileUnit &Unit, const CheckConfig &Config) {
  UnitResult Result;
  tidy::ClangTidyOptions Options = tidy::ClangTidyOptions::getDefaults();
  Options.Checks = "-*," + Config.checks;
  Options.HeaderFilterRegex = ".*"; // --header-filter and --exclude apply to the whole run
  Options.SystemHeaders = false;
  Options.CheckOptions["PendingExternalCalls"] = tidy::ClangTidyOptions::ClangTidyValue("true");
  if (!Config.ruleFiles.empty())
    Options.CheckOptions["RuleFiles"] = tidy::ClangTidyOptions::ClangTidyValue(Config.ruleFiles);
  for (auto [Name, On] : {std::pair("ErrorPathsAsExits", Config.paths.errorPathsAsExits),
                          std::pair("AssertionsAsExits", Config.paths.assertionsAsExits)})
    if (On)
      Options.CheckOptions[Name] = tidy::ClangTidyOptions::ClangTidyValue("true");
  if (!Config.summaryFile.empty())
    Options.CheckOptions["SummaryFile"] =
        tidy::ClangTidyOptions::ClangTidyValue(Config.summaryFile);
  tidy::ClangTidyContext Context(std::make_unique<tidy::DefaultOptionsProvider>(
      tidy::ClangTidyGlobalOptions(), Options));

  FactsBySite Facts;
  checks::setAnalysisObserver([&](const analysis::TranslationUnitAnalysis &Analysis,
                                  ASTContext &AST) {
    Result.summaries = Analysis.exportSummaries();
    // Sites in headers found through a relative -I are relative to the unit.
    for (auto &[USR, Function] : Result.summaries) {
      for (analysis::ExternalFunction::Collective &C : Function.collectives)
        C.site.file = inDirectory(C.site.file, Unit.directory);
      Function.rankSite.file = inDirectory(Function.rankSite.file, Unit.directory);
    }
    collectFacts(Analysis, AST, Facts);
    const SourceManager &SM = AST.getSourceManager();
    for (const analysis::AnalysisLimit &Limit : Analysis.limits()) {
      PresumedLoc Where = SM.getPresumedLoc(SM.getExpansionLoc(Limit.where));
      std::string At = Where.isValid() ? inDirectory(Where.getFilename(), Unit.directory) + ":" +
                                             std::to_string(Where.getLine()) + ":" +
                                             std::to_string(Where.getColumn()) + ": "
                                       : "";
      Result.incomplete.push_back(At + "analysis of '" + Limit.function->getQualifiedNameAsString() +
                                  "' incomplete: " + Limit.what);
    }
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
      Result.inputs.push_back(inDirectory(It->first.getName(), Unit.directory));
    if (Config.verbose) {
      SkippedFunctions Skipped;
      Skipped.TraverseDecl(AST.getTranslationUnitDecl());
      for (const std::string &Name : Skipped.names)
        Result.notes.push_back("'" + Name + "' was not analysed: it does not compile");
    }
  });
  // The clang 22 this lockstep was built with: its CUDA wrappers and builtin
  // headers, not a directory next to the lockstep binary.
  std::vector<std::string> Arguments = Unit.arguments;
  if (std::none_of(Arguments.begin(), Arguments.end(), [](const std::string &A) {
        return A.rfind("-resource-dir", 0) == 0;
      }))
    Arguments.push_back(std::string("-resource-dir=") + clangResourceDir());
  tooling::FixedCompilationDatabase Database(Unit.directory, Arguments);
  // A physical file system has its own working directory: the real one would
  // chdir the whole process into each unit's directory.
  auto FileSystem = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>(llvm::vfs::createPhysicalFileSystem()));
  std::vector<tidy::ClangTidyError> Errors =
      tidy::runClangTidy(Context, Database, {Unit.file}, FileSystem, /*ApplyAnyFix=*/false,
                         /*EnableCheckProfile=*/false, "", /*Quiet=*/true);
  checks::setAnalysisObserver(nullptr);

  LineTable Lines;
  auto Locate = [&](const tooling::DiagnosticMessage &Message) {
    return Message.FilePath.empty()
               ? Location{}
               : Lines.locate(inDirectory(Message.FilePath, Unit.directory), Message.FileOffset);
  };
  for (const tidy::ClangTidyError &Error : Errors) {
    const tooling::DiagnosticMessage &Message = Error.Message;
    if (Error.DiagnosticName.rfind("clang-diagnostic-error", 0) == 0 ||
        Error.DiagLevel == tooling::Diagnostic::Error) {
      Location Where = Locate(Message);
      std::string At = Where.file.empty() ? "" : Where.file + ":" + std::to_string(Where.line) +
                                                     ":" + std::to_string(Where.column) + ": ";
      Result.errors.push_back(At + "error: " + Message.Message);
      continue;
    }
    // Remarks are the engine's bounds, taken from the analysis above as data.
    if (Error.DiagnosticName.rfind("lockstep-", 0) != 0 ||
        Error.DiagLevel == tooling::Diagnostic::Remark)
      continue;
    Finding F;
    F.check = Error.DiagnosticName;
    F.location = Locate(Message);
    F.message = Message.Message;
    if (auto It = Facts.find({Message.FilePath, Message.FileOffset}); It != Facts.end()) {
      F.function = It->second.function;
      F.collective = It->second.collective;
      F.communicator = It->second.communicator;
      F.condition = It->second.condition;
      F.callArguments = It->second.callArguments;
    }
    for (const tooling::DiagnosticMessage &Note : Error.Notes)
      F.notes.push_back({Locate(Note), Note.Message});
    for (const auto &FileFix : Message.Fix)
      for (const tooling::Replacement &R : FileFix.second)
        F.fix.push_back({inDirectory(R.getFilePath(), Unit.directory), R.getOffset(),
                         R.getLength(), R.getReplacementText().str()});
    Result.findings.push_back(std::move(F));
  }
  if (!Result.errors.empty()) {
    Result.failure = "does not compile";
    Result.findings.clear(); // a unit that does not parse is not analysed
  }
  return Result;
}

} // namespace

UnitResult runUnit(const CompileUnit &Unit, const CheckConfig &Config) {
  UnitResult Result;
  if (!llvm::sys::fs::is_directory(Unit.directory)) {
    Result.failure = "cannot be compiled";
    Result.errors.push_back("the directory of its compile command, '" + Unit.directory +
                            "', does not exist");
    return Result;
  }
  if (!llvm::sys::fs::exists(Unit.file)) {
    Result.failure = "cannot be compiled";
    Result.errors.push_back(Unit.file + ": no such file");
    return Result;
  }
  // A thread of its own per unit: a crash loses only this unit, and the
  // checks' per-thread state of a crashed unit is never reused.
  llvm::CrashRecoveryContext Recovery;
  if (!Recovery.RunSafelyOnThread([&] { Result = analyseUnit(Unit, Config); }, 8 << 20)) {
    Result = UnitResult();
    Result.failure = "crashed lockstep";
    Result.errors.push_back("the analysis of this unit crashed; please report it");
  }
  return Result;
}

} // namespace lockstep::cli
