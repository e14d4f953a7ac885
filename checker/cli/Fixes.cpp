#include "Fixes.h"

#include "clang/Tooling/Core/Diagnostic.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

namespace lockstep::cli {
namespace tooling = clang::tooling;

namespace {

/// The byte offset of a line and column (both from 1) in \p File.
unsigned offsetOf(const Location &L) {
  auto Buffer = llvm::MemoryBuffer::getFile(L.File);
  if (!Buffer || L.Line == 0)
    return 0;
  llvm::StringRef Text = (*Buffer)->getBuffer();
  size_t Offset = 0;
  for (unsigned Line = 1; Line < L.Line && Offset != llvm::StringRef::npos; ++Line)
    Offset = Text.find('\n', Offset) + 1;
  return Offset == llvm::StringRef::npos ? 0 : unsigned(Offset + (L.Column ? L.Column - 1 : 0));
}

} // namespace

Error exportFixes(const std::vector<Finding> &Findings, const std::string &Path,
                  const std::string &BuildDirectory) {
  tooling::TranslationUnitDiagnostics Document;
  for (const Finding &F : Findings) {
    if (F.Fix.empty())
      continue;
    tooling::DiagnosticMessage Message(F.Message);
    Message.FilePath = F.Location.File;
    Message.FileOffset = offsetOf(F.Location);
    for (const Replacement &R : F.Fix)
      llvm::consumeError(
          Message.Fix[R.File].add(tooling::Replacement(R.File, R.Offset, R.Length, R.Text)));
    Document.Diagnostics.emplace_back(F.Check, Message,
                                      llvm::SmallVector<tooling::DiagnosticMessage, 1>(),
                                      tooling::Diagnostic::Warning, BuildDirectory);
  }
  std::error_code Code;
  llvm::raw_fd_ostream Out(Path, Code);
  if (Code)
    return Error(Path + ": cannot write the fixes: " + Code.message());
  llvm::yaml::Output YAML(Out);
  YAML << Document;
  return Error::success();
}

AppliedFixes applyFixes(const std::vector<Finding> &Findings) {
  AppliedFixes Result;
  std::map<std::string, tooling::Replacements> ByFile;
  for (const Finding &F : Findings) {
    if (F.Fix.empty())
      continue;
    std::map<std::string, tooling::Replacements> Tried = ByFile;
    bool Fits = true;
    for (const Replacement &R : F.Fix)
      if (llvm::Error E =
              Tried[R.File].add(tooling::Replacement(R.File, R.Offset, R.Length, R.Text))) {
        llvm::consumeError(std::move(E));
        Fits = false;
      }
    if (!Fits) {
      Result.Problems.push_back(F.Location.File + ":" + std::to_string(F.Location.Line) +
                                ": the fix overlaps another one; not applied");
      continue;
    }
    ByFile = std::move(Tried);
    ++Result.Fixes;
  }
  for (const auto &[File, Replacements] : ByFile) {
    auto Buffer = llvm::MemoryBuffer::getFile(File);
    llvm::Expected<std::string> Fixed =
        Buffer ? tooling::applyAllReplacements((*Buffer)->getBuffer(), Replacements)
               : llvm::Expected<std::string>(llvm::errorCodeToError(Buffer.getError()));
    std::error_code Error;
    if (Fixed) {
      llvm::raw_fd_ostream Out(File, Error);
      if (!Error)
        Out << *Fixed;
    }
    if (!Fixed)
      Result.Problems.push_back(File +
                                ": cannot apply the fixes: " + llvm::toString(Fixed.takeError()));
    else if (Error)
      Result.Problems.push_back(File + ": cannot write the fixes: " + Error.message());
    else
      ++Result.Files;
  }
  return Result;
}

} // namespace lockstep::cli
