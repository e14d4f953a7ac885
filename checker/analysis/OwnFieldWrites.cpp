#include "OwnFieldWrites.h"
#include "CallSite.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

#include "llvm/ADT/STLExtras.h"

namespace lockstep::analysis {
using namespace clang;

/// The field of `*this` that \p E names (`n_`, `this->v_`, `v_[i]`), or null.
static const FieldDecl *ownField(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E))
    return ownField(Subscript->getBase());
  if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(E);
      Operator && Operator->getOperator() == OO_Subscript)
    return ownField(Operator->getArg(0));
  const auto *Member = dyn_cast<MemberExpr>(E);
  if (!Member || !isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  return dyn_cast<FieldDecl>(Member->getMemberDecl());
}

const std::vector<const FieldDecl *> &OwnFieldWrites::of(const CXXMethodDecl *Method) {
  Method = Method->getCanonicalDecl();
  if (auto It = Known.find(Method); It != Known.end())
    return It->second; // also a method met again while its callees are scanned
  Known[Method];
  std::vector<const FieldDecl *> Fields;
  auto Add = [&Fields](const FieldDecl *Field) {
    if (Field && !llvm::is_contained(Fields, Field))
      Fields.push_back(Field);
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
      else if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S)) {
        const CXXMethodDecl *Callee = Call->getMethodDecl();
        const Expr *Object = Call->getImplicitObjectArgument();
        if (!Callee || !Object || Callee->isConst())
          return;
        if (isa<CXXThisExpr>(Object->IgnoreParenImpCasts())) {
          // What it copies now: the map may grow while the callee is scanned.
          std::vector<const FieldDecl *> Inner = of(Callee);
          for (const FieldDecl *Field : Inner)
            Add(Field);
        } else if (!handsOutAccess(Callee) && !Callee->getReturnType()->isPointerType()) {
          // `samples_.push_back(ms)`; not an accessor that a non-const
          // method calls in its non-const form (`front()`, `data()`).
          Add(ownField(Object));
        }
      }
    });
  return Known[Method] = std::move(Fields);
}

} // namespace lockstep::analysis
