#include "OwnFieldWrites.h"
#include "CallClassifier.h"
#include "CallSite.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include "llvm/ADT/STLExtras.h"

namespace lockstep::analysis {
using namespace clang;

/// The field of `*this` that \p E names (`n_`, `this->v_`, `v_[i]`, the
/// latter an element only; not `counts_[key]` of a map, which inserts), or a
/// null field.
static OwnFieldWrite ownField(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E))
    return {ownField(Subscript->getBase()).Field, /*ElementsOnly=*/true};
  if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(E);
      Operator && Operator->getOperator() == OO_Subscript) {
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Operator->getDirectCallee());
    return {ownField(Operator->getArg(0)).Field, !Method || handsOutAccess(Method)};
  }
  const auto *Member = dyn_cast<MemberExpr>(E);
  if (!Member || !isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()))
    return {nullptr, false};
  return {dyn_cast<FieldDecl>(Member->getMemberDecl()), false};
}

const std::vector<OwnFieldWrite> &OwnFieldWrites::of(const CXXMethodDecl *Method) {
  Method = Method->getCanonicalDecl();
  if (auto It = Known.find(Method); It != Known.end())
    return It->second; // also a method met again while its callees are scanned
  Known[Method];
  std::vector<OwnFieldWrite> Fields;
  auto Add = [&Fields](OwnFieldWrite Write) {
    if (!Write.Field)
      return;
    auto Earlier = llvm::find_if(
        Fields, [&](const OwnFieldWrite &Other) { return Other.Field == Write.Field; });
    if (Earlier == Fields.end())
      Fields.push_back(Write);
    else
      Earlier->ElementsOnly = Earlier->ElementsOnly && Write.ElementsOnly;
  };
  const FunctionDecl *Definition = Method->getDefinition();
  const Stmt *Body = Definition ? Definition->getBody() : nullptr;
  if (Body)
    forEachStmtInOrder(Body, [&](const Stmt *S) {
      if (const auto *Binary = dyn_cast<BinaryOperator>(S); Binary && Binary->isAssignmentOp())
        Add(ownField(Binary->getLHS()));
      else if (const auto *Unary = dyn_cast<UnaryOperator>(S);
               Unary && Unary->isIncrementDecrementOp())
        Add(ownField(Unary->getSubExpr()));
      else if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(S);
               Operator && Operator->isAssignmentOp())
        Add(ownField(Operator->getArg(0)));
      else if (Operator && Operator->getOperator() == OO_Subscript &&
               insertsElement(dyn_cast_or_null<CXXMethodDecl>(Operator->getDirectCallee())))
        Add(ownField(Operator)); // a map's `buckets_[name]` inserts, however it is used after
      else if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S)) {
        const CXXMethodDecl *Callee = Call->getMethodDecl();
        const Expr *Object = Call->getImplicitObjectArgument();
        if (!Callee || !Object || Callee->isConst())
          return;
        if (isa<CXXThisExpr>(Object->IgnoreParenImpCasts())) {
          // What it copies now: the map may grow while the callee is scanned.
          std::vector<OwnFieldWrite> Inner = of(Callee);
          for (const OwnFieldWrite &Write : Inner)
            Add(Write);
        } else if (!Classifier.classify(Callee).Collective) { // `pg_.barrier()`: the same group
          // `samples_.push_back(ms)`; an accessor in its non-const form
          // (`data()`, `find(key)`) hands out the elements for writing
          // (`it->second += v`) and leaves the size alone.
          OwnFieldWrite Write = ownField(Object);
          Write.ElementsOnly = Write.ElementsOnly || handsOutAccess(Callee) ||
                               Callee->getReturnType()->isPointerType();
          Add(Write);
        }
      }
    });
  return Known[Method] = std::move(Fields);
}

// Only its own methods write a class's fields, besides an assignment from
// another object of it.
bool OwnFieldWrites::libraryMayWrite(const CXXRecordDecl *Class, const CallExpr *Call,
                                     std::vector<const FieldDecl *> &Fields) {
  if (!Class || !Class->hasDefinition() || Class->isLambda() ||
      Class->getDefinition()->getNumBases() > 0 || // their methods write their fields
      Class->getASTContext().getSourceManager().isInSystemHeader(Class->getLocation()))
    return false;
  const CXXRecordDecl *Definition = Class->getDefinition();
  unsigned SameClass = 0;
  for (const Expr *Arg : Call->arguments())
    if (const CXXRecordDecl *Other = Arg->getType()->getAsCXXRecordDecl();
        Other && Other->getCanonicalDecl() == Definition->getCanonicalDecl())
      ++SameClass;
  if (SameClass > 1)
    return false;
  bool AnyMethod = false;
  for (const CXXMethodDecl *Method : Definition->methods()) {
    if (Method->isImplicit() || isa<CXXConstructorDecl>(Method) || isa<CXXDestructorDecl>(Method) ||
        Method->isStatic())
      continue;
    AnyMethod = true;
    for (const OwnFieldWrite &Write : of(Method))
      if (!llvm::is_contained(Fields, Write.Field))
        Fields.push_back(Write.Field);
  }
  return AnyMethod;
}

} // namespace lockstep::analysis
