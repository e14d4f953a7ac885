// One finding of a check, built from a routed engine result as data (a
// findings::Finding and its Wording) and emitted by one path: the clang-tidy
// diagnostic (warning, notes in order, fix-it) and, when the thread has a
// sink, the finding itself (how `lockstep check` takes its findings).
#pragma once

#include "../analysis/CollectiveEvents.h"
#include "../analysis/RankValue.h"

#include "Finding.h"

#include "clang-tidy/ClangTidyCheck.h"

#include <functional>
#include <string_view>
#include <vector>

namespace lockstep::checks {

using findings::Message;
using findings::Naming;

class FindingBuilder {
public:
  FindingBuilder(clang::tidy::ClangTidyCheck &Check, std::string_view CheckName,
                 const clang::ASTContext &Context);

  /// What the finding is about, for the outputs: the enclosing function, its
  /// own collective and the deciding condition (or differing expression).
  void about(const clang::FunctionDecl *Function, const analysis::CollectiveEvent *Event,
             const clang::Stmt *Condition);

  /// \p Event named as \p N in a message.
  Message name(const analysis::CollectiveEvent &Event, Naming N = Naming::Called);

  void warning(clang::SourceLocation Loc, Message Text, clang::SourceRange Range = {},
               std::vector<clang::FixItHint> Fix = {});
  void note(clang::SourceLocation Loc, Message Text, clang::SourceRange Range = {});

  /// The note at \p Event's collective inside the function called at its
  /// site, at \p Inside; a pending call's takes this place once resolved.
  void calleeNote(const analysis::CollectiveEvent &Event, clang::SourceLocation Inside);

  /// The finding stands only if another file writes \p Storage (pending)
  /// with a per-rank value; the note at that write goes here once known.
  void awaitStorage(const analysis::Provenance &Storage);

  /// Emits the diagnostic, and hands the finding to the thread's sink.
  void emit();

private:
  unsigned callOf(const analysis::CollectiveEvent &Event);
  findings::Location location(clang::SourceLocation Loc) const;

  struct Anchor {
    clang::SourceLocation Loc;
    clang::SourceRange Range;
  };
  clang::tidy::ClangTidyCheck &Check;
  const clang::ASTContext &Context;
  findings::Finding Finding;
  findings::Wording Wording;
  // The event of each call of Wording.
  std::vector<const analysis::CollectiveEvent *> Events;
  Anchor Warning;
  std::vector<Anchor> Notes;
  std::vector<clang::FixItHint> Fix;
};

/// A finding as a check emitted it, with the place clang-tidy keeps its
/// warning at (file as the source manager names it, offset): clang-tidy's
/// filters (NOLINT, system headers) decide per check and place.
struct EmittedFinding {
  findings::Finding Finding;
  std::string DiagnosticFile;
  unsigned DiagnosticOffset = 0;
};

/// Receives every finding the checks emit on this thread, in emission order.
using FindingSink = std::function<void(EmittedFinding)>;
void setFindingSink(FindingSink Sink);

} // namespace lockstep::checks
