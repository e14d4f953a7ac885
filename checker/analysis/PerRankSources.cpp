#include "PerRankSources.h"
#include "SourceText.h"

#include "clang/AST/ExprCXX.h"

namespace lockstep::analysis {
using namespace clang;

namespace {

/// The storage a returned value is stored into as written: `t` in
/// `double t = MPI_Wtime();` or `t = clock::now();`; empty when the value is
/// used in a larger expression.
std::string receivingStorage(const Expr *Call, const FunctionCFG &Function) {
  const Stmt *Current = Call;
  const Stmt *Parent = Function.parents().getParent(Current);
  // Temporaries and conversions of a returned object are still the value.
  while (isa_and_nonnull<ImplicitCastExpr, ParenExpr, ExprWithCleanups, MaterializeTemporaryExpr,
                         CXXBindTemporaryExpr, CXXConstructExpr>(Parent)) {
    Current = Parent;
    Parent = Function.parents().getParent(Current);
  }
  const ASTContext &Context = Function.context();
  if (const auto *Decl = dyn_cast_or_null<DeclStmt>(Parent)) {
    for (const auto *D : Decl->decls())
      if (const auto *Var = dyn_cast<VarDecl>(D); Var && Var->getInit() == Current)
        return Var->getNameAsString();
  } else if (const auto *Assign = dyn_cast_or_null<BinaryOperator>(Parent);
             Assign && Assign->getOpcode() == BO_Assign && Assign->getRHS() == Current) {
    return sourceText(Assign->getLHS(), Context);
  } else if (const auto *Operator = dyn_cast_or_null<CXXOperatorCallExpr>(Parent);
             Operator && Operator->getOperator() == OO_Equal && Operator->getNumArgs() == 2 &&
             Operator->getArg(1) == Current) {
    return sourceText(Operator->getArg(0), Context);
  }
  return "";
}

} // namespace

const Provenance *perRankData(const CallExpr *Call, const Expr *Received, const std::string &Name,
                              const std::string &Why, ProvenanceArena &Arena,
                              const FunctionCFG &Function, const Provenance *Via,
                              const ValueDecl *MembersOf) {
  std::string Holder;
  if (Received == Call) {
    Holder = receivingStorage(Call, Function);
  } else {
    const Expr *Target = Received->IgnoreParenImpCasts();
    if (const auto *Address = dyn_cast<UnaryOperator>(Target);
        Address && Address->getOpcode() == UO_AddrOf)
      Target = Address->getSubExpr();
    Holder = sourceText(Target, Function.context());
  }
  const FunctionDecl *Callee = Call->getDirectCallee();
  return Arena.makePerRank(Callee ? Callee->getQualifiedNameAsString() : Name, Call->getBeginLoc(),
                           Why, std::move(Holder), Via, MembersOf);
}

} // namespace lockstep::analysis
