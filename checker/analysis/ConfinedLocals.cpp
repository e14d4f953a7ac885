// Which struct locals stay inside their function (see ConfinedLocals.h).
// A use is followed upwards through the expressions around it until it
// ends (a copy, a comparison, a field that holds no struct) or may be kept
// (stored, returned as a pointer, handed to code not seen). An argument of
// a call the file defines continues at the callee's parameter, through a
// worklist: call chains do not nest the search.
#include "ConfinedLocals.h"
#include "CallSite.h"
#include "FunctionCFG.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <vector>

namespace lockstep::analysis {
using namespace clang;

namespace {

/// A parameter a use continues at: its function's definition and index.
struct ParameterUse {
  const FunctionDecl *Definition;
  unsigned Index;
};

class UseSearch {
public:
  explicit UseSearch(const std::function<bool(const FunctionDecl *)> &FillsIn) : FillsIn(FillsIn) {}

  /// Whether the uses of \p Var in \p Body may keep the object it names
  /// (\p ThroughPointer: the object \p Var points to). Arguments of calls
  /// to the file's functions are queued in Pending.
  bool escapes(const Stmt *Body, const ParentMap &Parents, const VarDecl *Var,
               bool ThroughPointer) {
    // The variable, then the local pointers its address was copied into.
    std::vector<std::pair<const VarDecl *, bool>> Work{{Var, ThroughPointer}};
    llvm::SmallPtrSet<const VarDecl *, 4> Seen{Var};
    while (!Work.empty()) {
      const VarDecl *Current = Work.back().first;
      const bool Pointer = Work.back().second;
      Work.pop_back();
      Target = Current;
      bool Escapes = false;
      forEachStmtInOrder(Body, [&](const Stmt *S) {
        if (Escapes)
          return;
        if (const auto *Lambda = dyn_cast<LambdaExpr>(S))
          Escapes = llvm::any_of(Lambda->captures(), [&](const LambdaCapture &Capture) {
            return Capture.capturesVariable() && Capture.getCapturedVar() == Current;
          });
        else if (const auto *Ref = dyn_cast<DeclRefExpr>(S); Ref && Ref->getDecl() == Current)
          Escapes = Pointer ? addressEscapes(Ref, Parents) : objectEscapes(Ref, Parents);
      });
      if (Escapes)
        return true;
      for (const VarDecl *Copy : PointerCopies)
        if (Seen.insert(Copy).second)
          Work.push_back({Copy, true});
      PointerCopies.clear();
    }
    return false;
  }

  std::vector<ParameterUse> Pending;

private:
  const std::function<bool(const FunctionDecl *)> &FillsIn;
  const VarDecl *Target = nullptr;
  /// Local pointers initialised with the address searched for.
  std::vector<const VarDecl *> PointerCopies;

  /// \p Arg is argument \p Index of \p Call: where the callee keeps it.
  /// Handed over twice (`run(&c, &c.n)`), one parameter may write what the
  /// other reads.
  bool passed(const CallExpr *Call, unsigned Index) {
    for (unsigned I = 0; I < Call->getNumArgs(); ++I)
      if (I != Index && names(Call->getArg(I)))
        return true;
    const FunctionDecl *Callee = resolvedCallee(Call);
    if (!Callee)
      return true; // through a pointer: any function
    if (isa<CXXOperatorCallExpr>(Call))
      return true; // its arguments may begin with the object
    const FunctionDecl *Definition = nullptr;
    if (!Callee->hasBody(Definition))
      // A library's: one that reads the object may copy it anywhere
      // (`memcpy(&g, &c, sizeof c)`); one that writes it fills it in, if
      // it is known to keep nothing.
      return Index < Callee->getNumParams() &&
             (readsThrough(Callee->getParamDecl(Index)) || !FillsIn(Callee));
    if (Index >= Definition->getNumParams())
      return false; // a variadic tail: used during the call
    QualType Type = Definition->getParamDecl(Index)->getType();
    if (Type->isPointerType() || Type->isReferenceType())
      Pending.push_back({Definition, Index});
    return false;
  }

  /// Whether \p E names the object where it is evaluated (not `sizeof c`).
  bool names(const Expr *E) const {
    std::vector<const Stmt *> Work{E};
    while (!Work.empty()) {
      const Stmt *S = Work.back();
      Work.pop_back();
      if (!S || isa<UnaryExprOrTypeTraitExpr>(S))
        continue;
      if (const auto *Ref = dyn_cast<DeclRefExpr>(S); Ref && Ref->getDecl() == Target)
        return true;
      Work.insert(Work.end(), S->child_begin(), S->child_end());
    }
    return false;
  }

  static bool readsThrough(const ParmVarDecl *Param) {
    QualType Type = Param->getType().getNonReferenceType();
    return Type->isPointerType() ? Type->getPointeeType().isConstQualified()
                                 : Param->getType()->isReferenceType() && Type.isConstQualified();
  }

  /// Whether the copy \p Copy of the object lands in storage the analysis
  /// names and no pointer elsewhere reaches (a local, a field of one, a
  /// parameter, a returned value), which carries the copied fields on.
  static bool copiedIntoNamedStorage(const Expr *Copy, const ParentMap &Parents) {
    auto Named = [](const Expr *E) {
      E = E->IgnoreParenImpCasts();
      for (const auto *Member = dyn_cast<MemberExpr>(E); Member && !Member->isArrow();
           Member = dyn_cast<MemberExpr>(E))
        E = Member->getBase()->IgnoreParenImpCasts();
      const auto *Ref = dyn_cast<DeclRefExpr>(E);
      const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
      return Var && Var->hasLocalStorage();
    };
    while (const Stmt *P = Parents.getParent(Copy)) {
      if (isa<ParenExpr, ImplicitCastExpr, CXXConstructExpr, MaterializeTemporaryExpr,
              CXXBindTemporaryExpr, ExprWithCleanups>(P)) {
        Copy = cast<Expr>(P);
        continue;
      }
      if (const auto *Binary = dyn_cast<BinaryOperator>(P))
        return Binary->getOpcode() == BO_Assign && Binary->getRHS() == Copy &&
               Named(Binary->getLHS());
      if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(P))
        return Operator->isAssignmentOp() && Operator->getNumArgs() == 2 &&
               Operator->getArg(1) == Copy && Named(Operator->getArg(0));
      if (const auto *Decl = dyn_cast<DeclStmt>(P))
        return llvm::all_of(Decl->decls(), [](const clang::Decl *D) {
          const auto *Var = dyn_cast<VarDecl>(D);
          return Var && Var->hasLocalStorage();
        });
      return isa<ReturnStmt, InitListExpr, CallExpr>(P);
    }
    return false;
  }

  static std::optional<unsigned> argumentIndex(const CallExpr *Call, const Stmt *Arg) {
    for (unsigned I = 0; I < Call->getNumArgs(); ++I)
      if (Call->getArg(I) == Arg)
        return I;
    return std::nullopt;
  }

  /// \p E names the object (or a struct inside it).
  bool objectEscapes(const Expr *E, const ParentMap &Parents) {
    while (const Stmt *P = Parents.getParent(E)) {
      if (isa<ParenExpr>(P)) {
        E = cast<Expr>(P);
        continue;
      }
      if (const auto *Cast = dyn_cast<ImplicitCastExpr>(P)) {
        if (Cast->getCastKind() == CK_LValueToRValue)
          return E->getType()->isRecordType() && !copiedIntoNamedStorage(Cast, Parents);
        if (Cast->getCastKind() != CK_NoOp && Cast->getCastKind() != CK_DerivedToBase &&
            Cast->getCastKind() != CK_UncheckedDerivedToBase)
          return true;
        E = Cast;
        continue;
      }
      if (const auto *Member = dyn_cast<MemberExpr>(P)) {
        const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
        if (!Field)
          return true; // a method: `this` may be kept
        if (!Field->getType()->isRecordType())
          return false; // a number's address holds no struct
        E = Member;
        continue;
      }
      if (const auto *Unary = dyn_cast<UnaryOperator>(P))
        return Unary->getOpcode() != UO_AddrOf || addressEscapes(Unary, Parents);
      if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(P))
        return !Operator->isAssignmentOp() ||
               (Operator->getArg(0) != E && !copiedIntoNamedStorage(E, Parents));
      if (const auto *Call = dyn_cast<CallExpr>(P)) {
        std::optional<unsigned> Index = argumentIndex(Call, E);
        return !Index || passed(Call, *Index);
      }
      if (const auto *Construct = dyn_cast<CXXConstructExpr>(P))
        return !Construct->getConstructor()->isCopyOrMoveConstructor() ||
               !copiedIntoNamedStorage(Construct, Parents);
      if (const auto *Binary = dyn_cast<BinaryOperator>(P))
        return !Binary->isAssignmentOp() || Binary->getLHS() != E; // filled in
      if (const auto *Decl = dyn_cast<DeclStmt>(P))
        return llvm::any_of(Decl->decls(), [](const clang::Decl *D) {
          const auto *Var = dyn_cast<VarDecl>(D);
          return !Var || Var->getType()->isReferenceType();
        });
      return !isa<UnaryExprOrTypeTraitExpr, InitListExpr, ReturnStmt>(P);
    }
    return false;
  }

  /// \p E is a pointer to the object.
  bool addressEscapes(const Expr *E, const ParentMap &Parents) {
    while (const Stmt *P = Parents.getParent(E)) {
      if (isa<ParenExpr, ImplicitCastExpr, CStyleCastExpr>(P)) {
        E = cast<Expr>(P);
        continue;
      }
      if (const auto *Member = dyn_cast<MemberExpr>(P)) {
        const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
        if (!Field)
          return true;
        return Field->getType()->isRecordType() && objectEscapes(Member, Parents);
      }
      if (const auto *Unary = dyn_cast<UnaryOperator>(P)) {
        if (Unary->getOpcode() == UO_Deref)
          return objectEscapes(Unary, Parents);
        return Unary->getOpcode() != UO_LNot;
      }
      if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(P))
        return Subscript->getBase() != E || objectEscapes(Subscript, Parents);
      if (const auto *Call = dyn_cast<CallExpr>(P)) {
        std::optional<unsigned> Index = argumentIndex(Call, E);
        return !Index || passed(Call, *Index);
      }
      if (const auto *Binary = dyn_cast<BinaryOperator>(P))
        return !Binary->isComparisonOp() && !Binary->isLogicalOp();
      if (const auto *Choice = dyn_cast<ConditionalOperator>(P))
        return Choice->getCond() != E;
      if (const auto *If = dyn_cast<IfStmt>(P))
        return If->getCond() != E;
      if (const auto *While = dyn_cast<WhileStmt>(P))
        return While->getCond() != E;
      // `const ctx_t *c = arg;` (a callback's `void *arg`): the search goes
      // on at the uses of `c`; assigning `c` or taking its address keeps it.
      if (const auto *Decl = dyn_cast<DeclStmt>(P)) {
        const auto *Copy =
            Decl->isSingleDecl() ? dyn_cast<VarDecl>(Decl->getSingleDecl()) : nullptr;
        if (!Copy || !Copy->hasLocalStorage() || !Copy->getType()->isPointerType())
          return true;
        PointerCopies.push_back(Copy);
        return false;
      }
      return true;
    }
    return false;
  }
};

} // namespace

bool ConfinedLocals::confined(const VarDecl *Local) const {
  auto [It, New] = Known.try_emplace(Local, false);
  if (!New)
    return It->second;
  const CXXRecordDecl *Class = Local->getType()->getAsCXXRecordDecl();
  if (!Local->hasLocalStorage() || !Local->getType()->isRecordType() ||
      (Class && Class->hasDefinition() && !Class->hasTrivialDestructor()))
    return false;
  UseSearch Search(FillsIn);
  if (Search.escapes(Function.decl()->getBody(), Function.parents(), Local,
                     /*ThroughPointer=*/false))
    return false;
  llvm::DenseSet<std::pair<const FunctionDecl *, unsigned>> Seen;
  while (!Search.Pending.empty()) {
    ParameterUse Use = Search.Pending.back();
    Search.Pending.pop_back();
    if (!Seen.insert({Use.Definition, Use.Index}).second)
      continue;
    const ParmVarDecl *Param = Use.Definition->getParamDecl(Use.Index);
    const Stmt *Body = Use.Definition->getBody();
    ParentMap Parents(const_cast<Stmt *>(Body));
    if (Search.escapes(Body, Parents, Param, Param->getType()->isPointerType()))
      return false;
  }
  return It->second = true;
}

} // namespace lockstep::analysis
