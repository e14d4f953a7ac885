#include "WrapperObjects.h"

#include "CallSite.h"

namespace lockstep::analysis {
using namespace clang;

namespace {
/// A constructor call and the arguments written for it.
struct Construction {
  const CXXConstructorDecl *Constructor;
  llvm::ArrayRef<const Expr *> Arguments;
};
} // namespace

/// Whether \p Field is the only field of its type, as written, in its
/// class: the one communicator an object of it holds (`MPI_Comm` is `int`
/// in MPICH, so the typedef tells it from the counters beside it).
static bool soleOfItsType(const FieldDecl *Field) {
  QualType Type = Field->getType().getUnqualifiedType();
  unsigned Same = 0;
  for (const FieldDecl *Other : Field->getParent()->fields())
    Same += Other->getType().getUnqualifiedType() == Type;
  return Same == 1;
}

/// The construction of a local variable in its declaration: the object
/// itself (`CommGroup g(world, stage, rank)`), or the one its pointer owns
/// (`auto g = std::make_unique<CommGroup>(world, stage, rank)`, `new
/// CommGroup(...)`), whose arguments are the constructor's.
static std::optional<Construction> constructionOf(const VarDecl *Var) {
  const Expr *Init =
      Var && Var->hasLocalStorage() && !isa<ParmVarDecl>(Var) ? Var->getInit() : nullptr;
  if (!Init)
    return std::nullopt;
  if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(Init))
    Init = Cleanups->getSubExpr();
  Init = Init->IgnoreImplicit();
  const auto *Construct = dyn_cast<CXXConstructExpr>(Init);
  if (const auto *Owner = Construct ? Construct->getConstructor()->getParent() : nullptr;
      Owner && isOwningHolder(Owner) && Construct->getNumArgs() == 1)
    Init = Construct->getArg(0)->IgnoreImplicit(); // `std::unique_ptr<CommGroup> g(new ...)`
  else if (Construct)
    return Construction{Construct->getConstructor(),
                        {Construct->getArgs(), Construct->getNumArgs()}};
  if (const auto *New = dyn_cast<CXXNewExpr>(Init); New && New->getConstructExpr()) {
    const CXXConstructExpr *Made = New->getConstructExpr();
    return Construction{Made->getConstructor(), {Made->getArgs(), Made->getNumArgs()}};
  }
  if (const auto *Call = dyn_cast<CallExpr>(Init))
    if (const CXXConstructorDecl *Constructor = madeUniqueBy(Call))
      return Construction{Constructor, {Call->getArgs(), Call->getNumArgs()}};
  return std::nullopt;
}

void WrapperObjects::addSplit(const FunctionDecl *Function, const RankSplit &Split) {
  if (!Split.Color || Split.ByGroup)
    return; // a sub-grid, a group's members: no colour a construction passes
  const auto *Method = dyn_cast<CXXMethodDecl>(Function);
  const auto *Field = dyn_cast_or_null<FieldDecl>(Split.Communicator);
  if (!Method || !Field || Field->getParent() != Method->getParent())
    return;
  const CXXRecordDecl *Class = Method->getParent()->getCanonicalDecl();
  auto Known = Classes.try_emplace(Class, Field).first;
  const auto *Constructor = dyn_cast<CXXConstructorDecl>(Method);
  if (!Constructor || Known->second != Field || !soleOfItsType(Field)) {
    Known->second = nullptr; // re-split by a method, or two fields: no wrapper
    return;
  }
  auto [It, Inserted] = Splitting.try_emplace({Constructor->getCanonicalDecl(), Field}, &Split);
  if (!Inserted && It->second != &Split)
    It->second = nullptr; // two splits of the field: no one colour
}

void WrapperObjects::noteAssignments(const FunctionDecl *Function) {
  if (Splitting.empty())
    return;
  forEachStmtInOrder(Function->getBody(), [&](const Stmt *S) {
    const Expr *Target = nullptr;
    if (const auto *Assign = dyn_cast<BinaryOperator>(S); Assign && Assign->isAssignmentOp())
      Target = Assign->getLHS();
    else if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(S);
             Operator && Operator->isAssignmentOp() && Operator->getNumArgs() == 2)
      Target = Operator->getArg(0);
    if (const auto *Ref = Target ? dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts()) : nullptr)
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
        Reassigned.insert(Var);
  });
}

const RankSplit *WrapperObjects::splitOf(const VarDecl *Var, const FieldDecl *Field) const {
  std::optional<Construction> Made = constructionOf(Var);
  return Made ? Splitting.lookup({Made->Constructor->getCanonicalDecl(), Field}) : nullptr;
}

const VarDecl *WrapperObjects::objectFor(const VarDecl *Var, const FieldDecl *Field) const {
  if (!Var || Splitting.empty() || !ofFieldsClass(Var, Field) ||
      Classes.lookup(cast<CXXRecordDecl>(Field->getParent())->getCanonicalDecl()) != Field ||
      Reassigned.count(Var))
    return nullptr;
  // A parameter is what each caller passes; a local, what constructed it.
  if (isa<ParmVarDecl>(Var))
    return Var->getType()->isReferenceType() || Var->getType()->isPointerType() ? Var : nullptr;
  return splitOf(Var, Field) ? Var : nullptr;
}

const ValueDecl *WrapperObjects::objectFor(const Expr *Object, const FieldDecl *Field) const {
  if (const FieldDecl *Holding = holdingField(Object))
    return objectFor(static_cast<const ValueDecl *>(Holding), Field);
  if (const Expr *Holder = Object ? accessedThrough(Object->IgnoreParenImpCasts()) : nullptr)
    Object = Holder; // `g->` of a smart pointer
  const auto *Ref = Object ? dyn_cast<DeclRefExpr>(Object->IgnoreParenImpCasts()) : nullptr;
  return Ref ? objectFor(dyn_cast<VarDecl>(Ref->getDecl()), Field) : nullptr;
}

const ValueDecl *WrapperObjects::objectFor(const ValueDecl *Object, const FieldDecl *Field) const {
  if (const auto *Var = dyn_cast_or_null<VarDecl>(Object))
    return objectFor(Var, Field);
  const auto *Holding = dyn_cast_or_null<FieldDecl>(Object);
  if (!Holding || Splitting.empty() || !ofFieldsClass(Holding, Field) ||
      Classes.lookup(cast<CXXRecordDecl>(Field->getParent())->getCanonicalDecl()) != Field)
    return nullptr;
  return Holding;
}

const FieldDecl *WrapperObjects::holdingField(const Expr *Object) {
  if (!Object)
    return nullptr;
  Object = Object->IgnoreParenImpCasts();
  if (const Expr *Holder = accessedThrough(Object))
    Object = Holder->IgnoreParenImpCasts(); // `node_->` of a smart pointer
  if (const auto *Deref = dyn_cast<UnaryOperator>(Object); Deref && Deref->getOpcode() == UO_Deref)
    Object = Deref->getSubExpr()->IgnoreParenImpCasts(); // `(*node_).`
  const auto *Member = dyn_cast<MemberExpr>(Object);
  if (!Member || !isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  return dyn_cast<FieldDecl>(Member->getMemberDecl());
}

void WrapperObjects::forEachConstruction(const FunctionDecl *Function,
                                         llvm::function_ref<void(const Made &)> Visit) const {
  if (Splitting.empty())
    return;
  forEachStmtInOrder(Function->getBody(), [&](const Stmt *S) {
    const auto *Declaration = dyn_cast<DeclStmt>(S);
    if (!Declaration)
      return;
    for (const Decl *D : Declaration->decls()) {
      const auto *Var = dyn_cast<VarDecl>(D);
      std::optional<Construction> Construct = constructionOf(Var);
      if (!Construct || Var->getDeclContext() != Function) // not a lambda's inside
        continue;
      const CXXConstructorDecl *Constructor = Construct->Constructor;
      for (const auto &[Key, Split] : Splitting)
        if (Split && Key.first == Constructor->getCanonicalDecl() &&
            Classes.lookup(Constructor->getParent()->getCanonicalDecl()) == Key.second &&
            !Reassigned.count(Var))
          Visit({Var, Constructor, Split});
    }
  });
}

const Expr *WrapperObjects::constructorArgument(const VarDecl *Var, const ParmVarDecl *Param) {
  std::optional<Construction> Made = constructionOf(Var);
  const auto *Owner = Param ? dyn_cast<FunctionDecl>(Param->getDeclContext()) : nullptr;
  if (!Made || !Owner || Owner->getCanonicalDecl() != Made->Constructor->getCanonicalDecl())
    return nullptr;
  unsigned Index = Param->getFunctionScopeIndex();
  if (Index >= Made->Arguments.size() || isa<CXXDefaultArgExpr>(Made->Arguments[Index]))
    return nullptr;
  // make_unique takes its arguments by forwarding reference: a prvalue is
  // bound to a temporary.
  const Expr *Argument = Made->Arguments[Index];
  if (const auto *Bound = dyn_cast<MaterializeTemporaryExpr>(Argument))
    return Bound->getSubExpr();
  return Argument;
}

bool WrapperObjects::ofFieldsClass(const ValueDecl *Var, const FieldDecl *Field) {
  QualType Type = Var->getType().getNonReferenceType();
  if (Type->isPointerType())
    Type = Type->getPointeeType();
  const CXXRecordDecl *Class = Type->getAsCXXRecordDecl();
  if (const auto *Holder = dyn_cast_or_null<ClassTemplateSpecializationDecl>(Class);
      isOwningHolder(Holder) && !Holder->getTemplateArgs().asArray().empty() &&
      Holder->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
    Class = Holder->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
  return Class && Class->getCanonicalDecl() == Field->getParent()->getCanonicalDecl();
}

const Expr *WrapperObjects::passedFor(const VarDecl *Var, const Expr *InConstructor) {
  const auto *Ref =
      InConstructor ? dyn_cast<DeclRefExpr>(InConstructor->IgnoreImplicit()->IgnoreParenImpCasts())
                    : nullptr;
  return Ref ? constructorArgument(Var, dyn_cast<ParmVarDecl>(Ref->getDecl())) : nullptr;
}

const Expr *WrapperObjects::fieldArgument(const VarDecl *Var, const FieldDecl *Field) {
  std::optional<Construction> Made = constructionOf(Var);
  const CXXConstructorDecl *Constructor = Made ? Made->Constructor : nullptr;
  if (const FunctionDecl *Definition = Constructor ? Constructor->getDefinition() : nullptr)
    Constructor = cast<CXXConstructorDecl>(Definition);
  if (!Constructor)
    return nullptr;
  for (const CXXCtorInitializer *Init : Constructor->inits())
    if (Init->getMember() == Field)
      return passedFor(Var, Init->getInit());
  return nullptr;
}

} // namespace lockstep::analysis
