#include "ConstantTables.h"

#include "Limits.h"

#include "clang/AST/ASTContext.h"

namespace lockstep::analysis {
using namespace clang;

std::optional<FormulaRef> constantTableRead(const Expr *E, const ASTContext &Context,
                                            FormulaArena &Arena,
                                            llvm::function_ref<FormulaRef(const Expr *)> Index) {
  const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts());
  const auto *Ref =
      Subscript ? dyn_cast<DeclRefExpr>(Subscript->getBase()->IgnoreParenImpCasts()) : nullptr;
  const auto *Table = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  const auto *Array = Table ? Context.getAsConstantArrayType(Table->getType()) : nullptr;
  if (!Array || !Array->getElementType().isConstQualified() ||
      !Array->getElementType()->isIntegerType() || !Table->getAnyInitializer())
    return std::nullopt;
  const auto *Elements = dyn_cast<InitListExpr>(Table->getAnyInitializer()->IgnoreParenImpCasts());
  if (!Elements || Elements->getNumInits() == 0 ||
      Elements->getNumInits() > limits::ConstantTableElements)
    return std::nullopt;
  std::vector<int64_t> Values;
  for (const Expr *Element : Elements->inits()) {
    Expr::EvalResult Result;
    if (Element->isValueDependent() || !Element->EvaluateAsInt(Result, Context))
      return std::nullopt;
    Values.push_back(Result.Val.getInt().getExtValue());
  }
  // Elements past the initialiser are zero; an index outside the table is
  // undefined, so the last element stands for it.
  if (Array->getSize().ugt(Values.size()))
    Values.push_back(0);
  FormulaRef At = Index(Subscript->getIdx());
  FormulaRef Read = Arena.constant(Values.back());
  for (size_t I = Values.size() - 1; I-- > 0;)
    Read = Arena.choose(Arena.compare(FormulaOp::Eq, At, Arena.constant(int64_t(I))),
                        Arena.constant(Values[I]), Read);
  return Read;
}

} // namespace lockstep::analysis
