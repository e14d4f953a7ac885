#include "WrapperObjects.h"

#include "CallSite.h"

namespace lockstep::analysis {
using namespace clang;

/// Whether \p Field is the only field of its type in its class: the one
/// communicator an object of it holds.
static bool soleOfItsType(const FieldDecl *Field) {
  QualType Type = Field->getType().getCanonicalType().getUnqualifiedType();
  unsigned Same = 0;
  for (const FieldDecl *Other : Field->getParent()->fields())
    Same += Other->getType().getCanonicalType().getUnqualifiedType() == Type;
  return Same == 1;
}

/// The construction of a local variable in its declaration.
static const CXXConstructExpr *constructionOf(const VarDecl *Var) {
  const Expr *Init =
      Var && Var->hasLocalStorage() && !isa<ParmVarDecl>(Var) ? Var->getInit() : nullptr;
  if (!Init)
    return nullptr;
  if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(Init))
    Init = Cleanups->getSubExpr();
  return dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit());
}

void WrapperObjects::addSplit(const FunctionDecl *Function, const RankSplit &Split) {
  const auto *Constructor = dyn_cast<CXXConstructorDecl>(Function);
  const auto *Field = dyn_cast_or_null<FieldDecl>(Split.Communicator);
  if (!Constructor || !Field || Field->getParent() != Constructor->getParent() ||
      !soleOfItsType(Field))
    return;
  auto [It, Inserted] = Splitting.try_emplace({Constructor->getCanonicalDecl(), Field}, &Split);
  if (!Inserted && It->second != &Split)
    It->second = nullptr; // two splits of the field: no one colour
  Classes.insert(Constructor->getParent()->getCanonicalDecl());
}

const RankSplit *WrapperObjects::splitOf(const VarDecl *Var, const FieldDecl *Field) const {
  const CXXConstructExpr *Construct = constructionOf(Var);
  if (!Construct)
    return nullptr;
  return Splitting.lookup({Construct->getConstructor()->getCanonicalDecl(), Field});
}

const VarDecl *WrapperObjects::objectFor(const VarDecl *Var, const FieldDecl *Field) const {
  if (!Var || Splitting.empty())
    return nullptr;
  QualType Type = Var->getType().getNonReferenceType();
  if (Type->isPointerType())
    Type = Type->getPointeeType();
  const CXXRecordDecl *Class = Type->getAsCXXRecordDecl();
  if (!Class || !Classes.count(cast<CXXRecordDecl>(Field->getParent())->getCanonicalDecl()) ||
      Class->getCanonicalDecl() != Field->getParent()->getCanonicalDecl())
    return nullptr;
  // A parameter is what each caller passes; a local, what constructed it.
  if (isa<ParmVarDecl>(Var))
    return Var->getType()->isReferenceType() || Var->getType()->isPointerType() ? Var : nullptr;
  return splitOf(Var, Field) ? Var : nullptr;
}

const VarDecl *WrapperObjects::objectFor(const Expr *Object, const FieldDecl *Field) const {
  const auto *Ref = Object ? dyn_cast<DeclRefExpr>(Object->IgnoreParenImpCasts()) : nullptr;
  return Ref ? objectFor(dyn_cast<VarDecl>(Ref->getDecl()), Field) : nullptr;
}

void WrapperObjects::forEachConstruction(
    const FunctionDecl *Function, llvm::function_ref<void(const Construction &)> Visit) const {
  if (Splitting.empty())
    return;
  forEachStmtInOrder(Function->getBody(), [&](const Stmt *S) {
    const auto *Declaration = dyn_cast<DeclStmt>(S);
    if (!Declaration)
      return;
    for (const Decl *D : Declaration->decls()) {
      const auto *Var = dyn_cast<VarDecl>(D);
      const CXXConstructExpr *Construct = constructionOf(Var);
      if (!Construct || Var->getDeclContext() != Function) // not a lambda's inside
        continue;
      for (const auto &[Key, Split] : Splitting)
        if (Split && Key.first == Construct->getConstructor()->getCanonicalDecl())
          Visit({Var, Construct, Split});
    }
  });
}

const Expr *WrapperObjects::constructorArgument(const VarDecl *Var, const ParmVarDecl *Param) {
  const CXXConstructExpr *Construct = constructionOf(Var);
  const auto *Owner = Param ? dyn_cast<FunctionDecl>(Param->getDeclContext()) : nullptr;
  if (!Construct || !Owner ||
      Owner->getCanonicalDecl() != Construct->getConstructor()->getCanonicalDecl())
    return nullptr;
  unsigned Index = Param->getFunctionScopeIndex();
  if (Index >= Construct->getNumArgs() || isa<CXXDefaultArgExpr>(Construct->getArg(Index)))
    return nullptr;
  return Construct->getArg(Index);
}

const Expr *WrapperObjects::fieldArgument(const VarDecl *Var, const FieldDecl *Field) {
  const CXXConstructExpr *Construct = constructionOf(Var);
  const CXXConstructorDecl *Constructor = Construct ? Construct->getConstructor() : nullptr;
  if (const FunctionDecl *Definition = Constructor ? Constructor->getDefinition() : nullptr)
    Constructor = cast<CXXConstructorDecl>(Definition);
  if (!Constructor)
    return nullptr;
  for (const CXXCtorInitializer *Init : Constructor->inits())
    if (Init->getMember() == Field)
      if (const auto *Ref = dyn_cast<DeclRefExpr>(Init->getInit()->IgnoreImplicit()))
        return constructorArgument(Var, dyn_cast<ParmVarDecl>(Ref->getDecl()));
  return nullptr;
}

} // namespace lockstep::analysis
