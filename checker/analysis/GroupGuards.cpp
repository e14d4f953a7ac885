#include "GroupGuards.h"
#include "CallSite.h"

#include "clang/AST/StmtCXX.h"

#include <utility>
#include <vector>

namespace lockstep::analysis {
using namespace clang;

/// The field of `*this` that \p Condition reads as a whole (`active_`).
static const FieldDecl *testedOwnField(const Expr *Condition) {
  const auto *Member = Condition ? dyn_cast<MemberExpr>(Condition->IgnoreParenImpCasts()) : nullptr;
  return Member && isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts())
             ? dyn_cast<FieldDecl>(Member->getMemberDecl())
             : nullptr;
}

namespace {
/// The group markers of one body, and the one field they all run under.
struct GuardedMarkers {
  unsigned Begins = 0, Ends = 0;
  const FieldDecl *Field = nullptr;
  bool Unguarded = false; // a marker outside such a test, or under another field
};
} // namespace

/// Whether \p S runs each statement it holds once whenever it runs: a block,
/// an expression, a declaration, or the `do { ... } while (0)` of a macro.
static bool runsItsPartsOnce(const Stmt *S) {
  if (const auto *Loop = dyn_cast<DoStmt>(S)) {
    const auto *Zero = dyn_cast<IntegerLiteral>(Loop->getCond()->IgnoreParenImpCasts());
    return Zero && Zero->getValue() == 0;
  }
  return isa<CompoundStmt, Expr, DeclStmt, ReturnStmt>(S);
}

static GuardedMarkers markersOf(const Stmt *Body, const CallClassifier &Classifier) {
  GuardedMarkers Found;
  // Each statement with how it runs: once per call (no field, not
  // conditional), exactly when one test of a field holds (that field), or
  // under anything else (conditional).
  struct Item {
    const Stmt *S;
    const FieldDecl *Guard;
    bool Conditional;
  };
  std::vector<Item> Work{{Body, nullptr, false}};
  while (!Work.empty()) {
    auto [S, Guard, Conditional] = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    if (const auto *If = dyn_cast<IfStmt>(S); If && !If->getInit() && !If->getConditionVariable()) {
      const FieldDecl *Tested = Guard || Conditional ? nullptr : testedOwnField(If->getCond());
      Work.push_back({If->getCond(), Guard, Conditional});
      Work.push_back({If->getThen(), Tested, !Tested});
      Work.push_back({If->getElse(), nullptr, true});
      continue;
    }
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        if (const rules::GroupMarkerRule *Marker = Classifier.classify(Callee).GroupMarker) {
          (Marker->Role == rules::GroupRole::Begin ? Found.Begins : Found.Ends) += 1;
          if (!Guard || Conditional || (Found.Field && Found.Field != Guard))
            Found.Unguarded = true;
          Found.Field = Guard;
        }
    const bool Once = runsItsPartsOnce(S);
    for (const Stmt *Child : S->children())
      Work.push_back({Child, Once ? Guard : nullptr, Conditional || !Once});
  }
  return Found;
}

const FieldDecl *conditionalGroupGuard(const CXXMethodDecl *Member,
                                       const CallClassifier &Classifier) {
  if (!isa<CXXConstructorDecl, CXXDestructorDecl>(Member))
    return nullptr;
  const CXXRecordDecl *Class = Member->getParent();
  const CXXDestructorDecl *Destructor = Class->getDestructor();
  const FunctionDecl *Ends = Destructor ? Destructor->getDefinition() : nullptr;
  if (!Ends || !Ends->getBody())
    return nullptr;
  GuardedMarkers Closing = markersOf(Ends->getBody(), Classifier);
  const FieldDecl *Field = Closing.Field;
  if (!Field || Closing.Unguarded || Closing.Begins || !Closing.Ends)
    return nullptr;
  bool Opens = false;
  for (const CXXConstructorDecl *Constructor : Class->ctors()) {
    const FunctionDecl *Definition = Constructor->getDefinition();
    if (!Definition || !Definition->getBody())
      continue;
    GuardedMarkers Opening = markersOf(Definition->getBody(), Classifier);
    if (Opening.Ends || (Opening.Begins && (Opening.Unguarded || Opening.Field != Field)))
      return nullptr;
    Opens = Opens || Opening.Begins;
  }
  // A method that changes the field would unpair them (`release()`); the
  // destructor may clear it once it has ended the group.
  bool Rewritten = false;
  for (const CXXMethodDecl *Method : Class->methods()) {
    const FunctionDecl *Definition = Method->getDefinition();
    if (isa<CXXConstructorDecl, CXXDestructorDecl>(Method) || !Definition || !Definition->getBody())
      continue;
    forEachWrite(
        Definition->getBody(), [](const UnaryOperator *) { return false; },
        [&](const Expr *E, bool) { Rewritten = Rewritten || testedOwnField(E) == Field; });
  }
  return Opens && !Rewritten ? Field : nullptr;
}

} // namespace lockstep::analysis
