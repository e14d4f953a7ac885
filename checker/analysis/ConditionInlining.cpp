// Calls translated in place (ConditionFormula.h): a call of a one-expression
// accessor is its body, with its parameters the call's arguments and its
// object's fields one symbol per object and field; the size of a local
// container that keeps the size it was constructed with is that count.
#include "CallSite.h"
#include "ConditionFormula.h"
#include "WrapperObjects.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace lockstep::analysis {
using namespace clang;

const Expr *returnedExpression(const FunctionDecl *Callee) {
  const FunctionDecl *Definition = Callee ? Callee->getDefinition() : nullptr;
  if (!Definition || Definition->isVariadic() ||
      Definition->getASTContext().getSourceManager().isInSystemHeader(Definition->getLocation()))
    return nullptr;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Definition);
      Method && (Method->isVirtual() || Method->getParent()->isLambda()))
    return nullptr;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Definition->getBody());
  const auto *Return =
      Body && Body->size() == 1 ? dyn_cast<ReturnStmt>(Body->body_front()) : nullptr;
  const Expr *Value = Return ? Return->getRetValue() : nullptr;
  return Value && !Value->isValueDependent() && isInteger(Value) ? Value : nullptr;
}

void fieldsBehind(const Expr *E, llvm::DenseSet<const ValueDecl *> &Into) {
  llvm::SmallPtrSet<const Stmt *, 8> Seen;
  std::vector<const Stmt *> Pending{E};
  while (!Pending.empty()) {
    const Stmt *S = Pending.back();
    Pending.pop_back();
    if (!S || !Seen.insert(S).second)
      continue;
    if (const auto *Member = dyn_cast<MemberExpr>(S);
        Member && isa<FieldDecl>(Member->getMemberDecl()) && isInteger(Member))
      Into.insert(Member->getMemberDecl());
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
          Var && Var->hasLocalStorage() && !isa<ParmVarDecl>(Var))
        Pending.push_back(Var->getInit());
    if (const auto *Call = dyn_cast<CallExpr>(S))
      Pending.push_back(returnedExpression(Call->getDirectCallee()));
    for (const Stmt *Child : S->children())
      Pending.push_back(Child);
  }
}

// An accessor's body in place of its call, so that two tests of the same
// accessor line up (`if (t.is_first()) ...; if (!t.is_first()) ...`) and
// with tests of what it returns (`is_root(r)` and `r != 0`). Only calls
// whose value differs between ranks and is not the rank itself: a shared
// one is one symbol anyway, and a rank (`local_rank()`) is known as the
// rank of its part of the job, which a split's colour may name too.
std::optional<FormulaRef> ConditionFormula::inlinedCall(const CallExpr *Call, bool WantBoolean) {
  if (isa<CXXOperatorCallExpr>(Call))
    return std::nullopt;
  const FunctionDecl *Callee = Call->getDirectCallee();
  const Expr *Body = returnedExpression(Callee);
  if (!Body || Callee->getCanonicalDecl() == Function.decl()->getCanonicalDecl() ||
      llvm::any_of(Inlined, [&](const InlinedCall &Outer) {
        return Outer.Callee->getCanonicalDecl() == Callee->getCanonicalDecl();
      }))
    return std::nullopt;
  if (Inlined.empty()) {
    const RankValue *Value = Facts.ValueAt(Call);
    if (!Value || !Facts.Differs(*Value) || Value->ExactRank || Value->ExactSize)
      return std::nullopt;
  }
  std::optional<const void *> Owner = Inlined.empty() ? nullptr : Inlined.back().Owner;
  bool Anonymous = !Inlined.empty() && Inlined.back().Anonymous;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
      Member && !isa<CXXThisExpr>(Member->getImplicitObjectArgument()->IgnoreParenImpCasts())) {
    Owner = objectKey(Member->getImplicitObjectArgument());
    Anonymous = !Owner;
  }
  const FieldDecl *HeldIn = nullptr;
  bool FieldWise = false;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
    if (Anonymous)
      HeldIn = WrapperObjects::holdingField(Member->getImplicitObjectArgument());
    FieldWise = Inlined.empty() && writtenFieldWise(Member->getImplicitObjectArgument());
  }
  return translateIn({Call, Callee, Owner.value_or(nullptr), Anonymous, HeldIn, FieldWise}, Body,
                     WantBoolean);
}

// Whether \p Object is a local the function uses only through its fields,
// const methods, copies and const references (never assigned or handed
// over to change), declared without a value that differs between ranks
// (`PipelineRank r{};`).
bool ConditionFormula::writtenFieldWise(const Expr *Object) const {
  const auto *Ref = dyn_cast<DeclRefExpr>(Object->IgnoreParenImpCasts());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var) ||
      Var->getType()->isReferenceType() || Var->getDeclContext() != Function.decl())
    return false;
  if (const Expr *Init = Var->getInit()) {
    const RankValue *Value = Facts.ValueAt(Init->IgnoreParenImpCasts());
    const auto *List = dyn_cast<InitListExpr>(Init->IgnoreImplicit());
    if (Value ? Facts.Differs(*Value) : !(List && List->getNumInits() == 0))
      return false;
  }
  // Field by field or read only: a field, a const method, a copy, a const
  // reference handed over.
  auto ReadOnly = [&](const DeclRefExpr *Use) {
    const Stmt *Parent =
        Function.parents().getParentIgnoreParenImpCasts(const_cast<DeclRefExpr *>(Use));
    if (const auto *Member = dyn_cast_or_null<MemberExpr>(Parent)) {
      const auto *Method = dyn_cast<CXXMethodDecl>(Member->getMemberDecl());
      return !Method || Method->isConst();
    }
    if (const auto *Copy = dyn_cast_or_null<CXXConstructExpr>(Parent))
      return Copy->getConstructor()->isCopyOrMoveConstructor();
    const auto *Call = dyn_cast_or_null<CallExpr>(Parent);
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    std::vector<const Expr *> Args = Call ? explicitArguments(Call) : std::vector<const Expr *>();
    for (size_t I = 0; Callee && I < Args.size() && I < Callee->getNumParams(); ++I)
      if (Args[I]->IgnoreParenImpCasts() == Use) {
        QualType Type = Callee->getParamDecl(I)->getType();
        return Type->isReferenceType() && Type.getNonReferenceType().isConstQualified();
      }
    return false;
  };
  bool Whole = false;
  forEachStmtInOrder(Function.decl()->getBody(), [&](const Stmt *S) {
    if (const auto *Use = dyn_cast<DeclRefExpr>(S); Use && Use->getDecl() == Var)
      Whole = Whole || !ReadOnly(Use);
  });
  return !Whole;
}

std::optional<FormulaRef> ConditionFormula::translateIn(InlinedCall Frame, const Expr *E,
                                                        bool WantBoolean) {
  Inlined.push_back(Frame);
  FormulaRef F = translate(E, WantBoolean);
  bool Failed = Inlined.back().Failed;
  Inlined.pop_back();
  return Failed ? std::nullopt : std::optional<FormulaRef>(F);
}

std::optional<FormulaRef> ConditionFormula::atCall(const CallExpr *Call, const Expr *E) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  std::optional<const void *> Owner = nullptr;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
    Owner = objectKey(Member->getImplicitObjectArgument());
  if (!Callee || !Owner || !Inlined.empty())
    return std::nullopt;
  Budget = 0;
  return translateIn({Call, Callee, *Owner}, E,
                     /*WantBoolean=*/!isInteger(E) || E->getType()->isBooleanType());
}

// The object a method is called on, as the owner of field keys: a variable
// the function never writes, or `this`. Anything else has no stable identity.
std::optional<const void *> ConditionFormula::objectKey(const Expr *Object) const {
  if (!Object)
    return std::nullopt;
  Object = Object->IgnoreParenImpCasts();
  if (const Expr *Holder = accessedThrough(Object))
    Object = Holder->IgnoreParenImpCasts(); // `g->` of a smart pointer: the object it owns
  if (isa<CXXThisExpr>(Object))
    return Inlined.empty() ? nullptr : Inlined.back().Owner;
  const auto *Ref = dyn_cast<DeclRefExpr>(Object);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Inlined.empty() || !Var || Written.count(Var))
    return std::nullopt;
  return Var;
}

// A leaf of an inlined body: a parameter is what the call passes, a field of
// `this` that of the object it is called on, a global its one symbol. Each
// may differ between ranks (the call's value does); anything else gives up
// the inlining.
FormulaRef ConditionFormula::inlinedLeaf(const Expr *E, bool WantBoolean) {
  const bool Boolean = !isInteger(E) || E->getType()->isBooleanType();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *Param = dyn_cast<ParmVarDecl>(Ref->getDecl())) {
      const auto *Owner = dyn_cast<FunctionDecl>(Param->getDeclContext());
      auto Frame = llvm::find_if(Inlined, [&](const InlinedCall &Call) {
        return Owner && Call.Callee->getCanonicalDecl() == Owner->getCanonicalDecl();
      });
      unsigned Index = Param->getFunctionScopeIndex();
      if (Frame == Inlined.end() || Index >= Frame->Call->getNumArgs() ||
          isa<CXXDefaultArgExpr>(Frame->Call->getArg(Index)))
        return notInlined(WantBoolean);
      // The argument is an expression of the frame around the call.
      const Expr *Argument = Frame->Call->getArg(Index);
      std::vector<InlinedCall> Inner(Frame, Inlined.end());
      Inlined.erase(Frame, Inlined.end());
      FormulaRef F = translate(Argument, WantBoolean);
      Inlined.insert(Inlined.end(), Inner.begin(), Inner.end());
      return F;
    }
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
        Var && Var->hasGlobalStorage() && !Written.count(Var))
      return Arena.perRank(Var, Boolean);
  }
  // A process-grid coordinate (`coords_[0]` of `x()`): the coordinate,
  // whatever object reads it, as in translate.
  if (const void *Coordinate = coordinateKey(E))
    return Arena.perRank(Coordinate, Boolean);
  const auto *Member = dyn_cast<MemberExpr>(E);
  const auto *Field = Member ? dyn_cast<FieldDecl>(Member->getMemberDecl()) : nullptr;
  // A split's colour is the field, whatever object reads it (as in
  // translate): also a C accessor's `t->node_rank` of the struct it is handed.
  if (Field && Facts.IsColourField && Facts.IsColourField(Field))
    return Arena.perRank(Field, Boolean);
  if (!Field || !isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()))
    return notInlined(WantBoolean);
  // A field nothing writes a per-rank value into is the same on every rank
  // in an object built field by field (`stage == pp - 1` of `r.last()`
  // after `r.pp = 2`): a symbol of this call's own, as the function writes it.
  const bool SameEverywhere = Facts.FieldDiffers && !Facts.FieldDiffers(Field);
  if (Inlined.back().Anonymous || WrittenFields.count(Field))
    return SameEverywhere && Inlined.back().FieldWise
               ? Arena.uniform(fieldKey(Inlined.back().Call, Field), Boolean)
               : notInlined(WantBoolean);
  if (SameEverywhere)
    return Arena.uniform(fieldKey(Inlined.back().Owner, Field), Boolean);
  // An object the function calls non-const methods of keeps only the fields
  // those methods never write.
  const auto *Object = static_cast<const VarDecl *>(Inlined.back().Owner);
  if (Object && Mutated.count(Object) &&
      (!WrapperObjects::ofFieldsClass(Object, Field) || writesOf(Field).ByMethods))
    return notInlined(WantBoolean);
  // A field the object's constructor set from its argument (`stage_(stage)`)
  // is that argument, read where the object was declared.
  if (const Expr *Argument = Object && Object->getDeclContext() == Function.decl() &&
                                     !writesOf(Field).ByConstructorBodies
                                 ? WrapperObjects::fieldArgument(Object, Field)
                                 : nullptr) {
    std::vector<InlinedCall> Inner;
    Inner.swap(Inlined);
    FormulaRef F = translate(Argument, WantBoolean);
    Inlined.swap(Inner);
    return F;
  }
  return Arena.perRank(fieldKey(Inlined.back().Owner, Field), Boolean);
}

FormulaRef ConditionFormula::notInlined(bool WantBoolean) {
  Inlined.back().Failed = true;
  return Arena.unknownPerRank(WantBoolean);
}

// `recv.size()` of `std::vector<double> recv(is_root ? n : 0);`: the count
// it was constructed with, where nothing in the function changes its size
// (so that `recv.size()` on the ranks that take `is_root` is `n`); of
// `const std::vector<Event> schedule = {a, b, c, d};`, the elements listed.
std::optional<FormulaRef> ConditionFormula::constructedSize(const Expr *E) {
  const auto *Call = dyn_cast<CXXMemberCallExpr>(E);
  const CXXMethodDecl *Method = Call ? Call->getMethodDecl() : nullptr;
  if (!Method || !Method->getIdentifier() || Method->getName() != "size" || Call->getNumArgs() != 0)
    return std::nullopt;
  const auto *Ref = dyn_cast<DeclRefExpr>(Call->getImplicitObjectArgument()->IgnoreParenImpCasts());
  const auto *Container = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Container || !Container->hasLocalStorage() || isa<ParmVarDecl>(Container) ||
      Container->getType()->isReferenceType() || Written.count(Container))
    return std::nullopt;
  const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(
      Container->getInit() ? Container->getInit()->IgnoreImplicit() : nullptr);
  const CXXConstructorDecl *Constructor = Construct ? Construct->getConstructor() : nullptr;
  if (!Constructor || Constructor->isCopyOrMoveConstructor() || Construct->getNumArgs() == 0 ||
      Constructor->getNumParams() == 0 ||
      !Function.context().getSourceManager().isInSystemHeader(Constructor->getLocation()) ||
      !keepsSize(Container))
    return std::nullopt;
  if (const auto *List =
          dyn_cast<CXXStdInitializerListExpr>(Construct->getArg(0)->IgnoreImplicit()))
    if (const auto *Elements = dyn_cast<InitListExpr>(List->getSubExpr()->IgnoreImplicit()))
      return Arena.constant(Elements->getNumInits());
  if (!Constructor->getParamDecl(0)->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  return translate(Construct->getArg(0), false);
}

/// Whether no call in the function changes the size of \p Container: its
/// non-const methods are those that hand out its elements only.
bool ConditionFormula::keepsSize(const VarDecl *Container) {
  auto [It, Inserted] = SizeKept.try_emplace(Container, true);
  if (!Inserted || !Mutated.count(Container))
    return It->second;
  static constexpr llvm::StringLiteral Accessors[] = {"data", "begin", "end",  "rbegin",
                                                      "rend", "front", "back", "at"};
  std::vector<const Stmt *> Stack{Function.decl()->getBody()};
  while (!Stack.empty() && It->second) {
    const Stmt *S = Stack.back();
    Stack.pop_back();
    if (!S)
      continue;
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S)) {
      const auto *Object =
          dyn_cast<DeclRefExpr>(Call->getImplicitObjectArgument()->IgnoreParenImpCasts());
      const CXXMethodDecl *Method = Call->getMethodDecl();
      if (Object && Object->getDecl() == Container && Method && !Method->isConst() &&
          (!Method->getIdentifier() || !llvm::is_contained(Accessors, Method->getName())))
        It->second = false;
    }
    for (const Stmt *Child : S->children())
      Stack.push_back(Child);
  }
  return It->second;
}

} // namespace lockstep::analysis
