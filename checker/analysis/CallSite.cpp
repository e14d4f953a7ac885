#include "CallSite.h"

#include "Limits.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Index/USRGeneration.h"

namespace lockstep::analysis {
using namespace clang;

const CXXMethodDecl *methodOf(const CallExpr *Call) {
  if (isa<CXXMemberCallExpr, CXXOperatorCallExpr>(Call))
    return dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  return nullptr;
}

std::optional<unsigned> constantIndex(const Expr *Index, const ASTContext &Context) {
  Expr::EvalResult Result;
  if (!Index || Index->isValueDependent() || !Index->EvaluateAsInt(Result, Context))
    return std::nullopt;
  const llvm::APSInt &Value = Result.Val.getInt();
  if (Value.isNegative() || Value.uge(limits::TrackedElements))
    return std::nullopt;
  return unsigned(Value.getZExtValue());
}

const Expr *accessedBase(const Expr *E, const Expr *&Index) {
  Index = nullptr;
  if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E)) {
    Index = Subscript->getIdx();
    return Subscript->getBase();
  }
  if (const auto *Unary = dyn_cast<UnaryOperator>(E); Unary && Unary->getOpcode() == UO_Deref)
    return Unary->getSubExpr();
  const auto *Call = dyn_cast<CallExpr>(E);
  const CXXMethodDecl *Method = Call ? methodOf(Call) : nullptr;
  if (!Method || Method->isStatic() || !Method->getReturnType()->isLValueReferenceType())
    return nullptr;
  const CXXRecordDecl *Returned = Method->getReturnType()->getPointeeCXXRecordDecl();
  if (Returned && Returned->getCanonicalDecl() == Method->getParent()->getCanonicalDecl())
    return nullptr;
  std::vector<const Expr *> Args = explicitArguments(Call);
  if (Args.size() == 1 && Args.front()->getType()->isIntegralOrEnumerationType())
    Index = Args.front();
  return ruleArgument(Call, rules::ArgRef{rules::ArgRef::Kind::Receiver, 0, ""});
}

const VarDecl *reassignedVariable(const Stmt *S) {
  const Expr *Target = nullptr;
  if (const auto *Binary = dyn_cast<BinaryOperator>(S); Binary && Binary->isAssignmentOp())
    Target = Binary->getLHS();
  else if (const auto *Unary = dyn_cast<UnaryOperator>(S);
           Unary && (Unary->isIncrementDecrementOp() || Unary->getOpcode() == UO_AddrOf))
    Target = Unary->getSubExpr();
  else if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(S);
           Operator && Operator->getOperator() == OO_Equal && Operator->getNumArgs() == 2)
    Target = Operator->getArg(0);
  const auto *Ref = Target ? dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts()) : nullptr;
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

/// Whether the function of local \p Var assigns it after its initialization.
static bool assignedAgain(const VarDecl *Var) {
  const auto *Owner = dyn_cast<FunctionDecl>(Var->getDeclContext());
  bool Assigned = false;
  if (Owner && Owner->getBody())
    forEachStmtInOrder(Owner->getBody(),
                       [&](const Stmt *S) { Assigned |= reassignedVariable(S) == Var; });
  return !Owner || Assigned;
}

// What the one constructor that sets private field \p Field gives it
// (`Layer(...) : tp_(tp[rank / tp_size])`), where no method assigns it, no
// other constructor but copies and moves exists and the class has no
// friends; else null.
static const Expr *onlyInitializer(const FieldDecl *Field) {
  const CXXRecordDecl *Record = dyn_cast<CXXRecordDecl>(Field->getParent());
  if (!Record || Field->getAccess() != AS_private || Record->hasFriends() ||
      Field->hasInClassInitializer())
    return nullptr;
  const Expr *Given = nullptr;
  for (const CXXConstructorDecl *Constructor : Record->ctors()) {
    if (Constructor->isCopyOrMoveConstructor() || Constructor->isDeleted())
      continue;
    const CXXCtorInitializer *Init = nullptr;
    for (const CXXCtorInitializer *Each : Constructor->inits())
      if (Each->isWritten() && Each->getMember() == Field)
        Init = Each;
    if (!Init || Given)
      return nullptr;
    Given = Init->getInit();
  }
  bool Assigned = false;
  for (const CXXMethodDecl *Method : Record->methods())
    if (const Stmt *Body = Method->hasBody() ? Method->getBody() : nullptr)
      forEachWrite(
          Body, [](const UnaryOperator *) { return false; },
          [&](const Expr *E, bool) {
            // Handed on as const (`tp_->allreduce(t)` through `operator->`): read.
            const auto *Written = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
            Assigned |=
                Written && Written->getMemberDecl() == Field && !E->getType().isConstQualified();
          });
  return Assigned ? nullptr : Given;
}

// Each rank's own handle from a list every rank built (`tp_groups[rank /
// tp_size]`, a local bound to or copied from one, a private field one
// constructor sets to one, or an accessor that returns one): the
// ranks that pick the same element are its members, as after a split.
bool pickedFromContainer(const Expr *Handle) {
  for (unsigned Hop = 0; Handle && Hop < 6; ++Hop) {
    Handle = Handle->IgnoreImplicit()->IgnoreParenImpCasts();
    // A copy holds the element it copies (`auto pg = groups[stage];`).
    if (const auto *Copy = dyn_cast<CXXConstructExpr>(Handle);
        Copy && Copy->getNumArgs() == 1 && Copy->getConstructor()->isCopyOrMoveConstructor()) {
      Handle = Copy->getArg(0);
      continue;
    }
    if (const Expr *Holder = accessedThrough(Handle)) {
      Handle = Holder;
      continue;
    }
    const Expr *Index = nullptr;
    if (accessedBase(Handle, Index) && Index)
      return true;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Handle)) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      // A copy assigned again may hold another group by then.
      Handle = Var && Var->hasLocalStorage() && !isa<ParmVarDecl>(Var) &&
                       (Var->getType()->isReferenceType() || !assignedAgain(Var))
                   ? Var->getInit()
                   : nullptr;
      continue;
    }
    if (const auto *Member = dyn_cast<MemberExpr>(Handle)) {
      const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
      Handle = Field && isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts())
                   ? onlyInitializer(Field)
                   : nullptr;
      continue;
    }
    const auto *Call = dyn_cast<CallExpr>(Handle);
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    const auto *Body =
        Callee && Callee->hasBody() ? dyn_cast<CompoundStmt>(Callee->getBody()) : nullptr;
    const auto *Return =
        Body && Body->size() == 1 ? dyn_cast<ReturnStmt>(Body->body_front()) : nullptr;
    Handle = Return ? Return->getRetValue() : nullptr;
  }
  return false;
}

std::vector<const Expr *> explicitArguments(const CallExpr *Call) {
  std::vector<const Expr *> Args(Call->arg_begin(), Call->arg_end());
  if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(Call))
    if (isa_and_nonnull<CXXMethodDecl>(Operator->getDirectCallee()) && !Args.empty())
      Args.erase(Args.begin()); // the object
  return Args;
}

const Expr *ignoreBranchHints(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    const auto *Call = dyn_cast<CallExpr>(E);
    if (!Call || Call->getNumArgs() == 0)
      return E;
    switch (Call->getBuiltinCallee()) {
    case Builtin::BI__builtin_expect:
    case Builtin::BI__builtin_expect_with_probability:
    case Builtin::BI__builtin_unpredictable:
      E = Call->getArg(0);
      break;
    default:
      return E;
    }
  }
}

const FunctionDecl *resolvedCallee(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  // `Base::gather(full)` names the method it runs, even on an object of a
  // final class that overrides it.
  const auto *Named = dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParens());
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
      Member && !(Named && Named->hasQualifier()))
    if (const CXXMethodDecl *Method = Member->getMethodDecl(); Method && Method->isVirtual())
      if (const CXXMethodDecl *Final = Method->getDevirtualizedMethod(
              Member->getImplicitObjectArgument(), /*IsAppleKext=*/false))
        Callee = Final;
  return Callee;
}

namespace {

// c10d options such as BroadcastOptions{.rootRank = 1}: a designated or
// positional initializer list naming the field.
const Expr *fieldInitializer(const Expr *Arg, llvm::StringRef Field) {
  for (const Expr *Previous = nullptr; Previous != Arg;) {
    Previous = Arg;
    Arg = Arg->IgnoreImplicit()->IgnoreCasts();
    if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(Arg))
      Arg = Temp->getSubExpr();
  }
  if (const auto *Init = dyn_cast<InitListExpr>(Arg))
    if (const RecordDecl *Record = Init->getType()->getAsRecordDecl()) {
      unsigned Index = 0;
      for (const FieldDecl *F : Record->fields()) {
        if (F->getName() == Field)
          return Index < Init->getNumInits() ? Init->getInit(Index) : nullptr;
        ++Index;
      }
    }
  return nullptr;
}

} // namespace

const Expr *ruleArgument(const CallExpr *Call, const rules::ArgRef &Ref) {
  if (Ref.K == rules::ArgRef::Kind::Receiver) {
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
      // Through a smart pointer (`pg->allreduce(...)`): the pointer the user
      // named, not its `operator->`.
      const Expr *Object = Member->getImplicitObjectArgument()->IgnoreParenImpCasts();
      if (const auto *Arrow = dyn_cast<CXXOperatorCallExpr>(Object);
          Arrow && Arrow->getOperator() == OO_Arrow && Arrow->getNumArgs() == 1)
        return Arrow->getArg(0);
      return Member->getImplicitObjectArgument();
    }
    if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(Call))
      return Operator->getNumArgs() ? Operator->getArg(0) : nullptr;
    return nullptr;
  }
  std::vector<const Expr *> Args = explicitArguments(Call);
  if (Ref.K != rules::ArgRef::Kind::Argument || Ref.Index >= Args.size())
    return nullptr;
  return Ref.Field.empty() ? Args[Ref.Index] : fieldInitializer(Args[Ref.Index], Ref.Field);
}

std::vector<std::pair<const char *, const rules::ArgRef *>>
agreedArguments(const rules::CollectiveRule &Rule, const CallExpr *Call,
                const ASTContext &Context) {
  const rules::ArgRef *Count = &Rule.Count, *Datatype = &Rule.Datatype;
  if (const auto &In = Rule.InPlace)
    if (const Expr *Buffer = ruleArgument(Call, In->Buffer);
        Buffer && spelledAsMacro(Buffer, In->Marker, Context)) {
      Count = &In->Count;
      Datatype = &In->Datatype;
    }
  return {{"communicator", &Rule.Comm}, {"root", &Rule.Root},   {"count", Count},
          {"datatype", Datatype},       {"operator", &Rule.Op}, {"size", &Rule.Size}};
}

const FunctionDecl *elementCallee(const CFGElement &Element, ASTContext &Context,
                                  SourceLocation &Site, const Stmt *&SiteStmt) {
  if (auto S = Element.getAs<CFGStmt>()) {
    SiteStmt = S->getStmt();
    // Only calls need a site: getBeginLoc walks down a left-nested operand
    // chain, which every element of a 50,000-term expression would repeat.
    if (!isa<CallExpr, CXXConstructExpr>(SiteStmt))
      return nullptr;
    Site = SiteStmt->getBeginLoc();
    if (const auto *Call = dyn_cast<CallExpr>(SiteStmt))
      return resolvedCallee(Call);
    return cast<CXXConstructExpr>(SiteStmt)->getConstructor();
  }
  if (auto Dtor = Element.getAs<CFGImplicitDtor>()) {
    SiteStmt = nullptr;
    if (auto Automatic = Element.getAs<CFGAutomaticObjDtor>()) {
      const Stmt *Trigger = Automatic->getTriggerStmt();
      Site = Trigger ? Trigger->getEndLoc() : Automatic->getVarDecl()->getLocation();
    } else if (auto Deleted = Element.getAs<CFGDeleteDtor>()) {
      Site = Deleted->getDeleteExpr()->getBeginLoc();
    } else if (auto Temporary = Element.getAs<CFGTemporaryDtor>()) {
      Site = Temporary->getBindTemporaryExpr()->getEndLoc();
    }
    return Dtor->getDestructorDecl(Context);
  }
  return nullptr;
}

std::string usrOf(const Decl *D) {
  llvm::SmallString<128> Usr;
  if (clang::index::generateUSRForDecl(D->getCanonicalDecl(), Usr))
    return "";
  return Usr.str().str();
}

bool visibleElsewhere(const ValueDecl *D) {
  // A library's own fields and globals (`MPI::Status`'s) are written by the
  // header's inline code, which every file that reads them analyses too.
  if (D->getASTContext().getSourceManager().isInSystemHeader(D->getLocation()))
    return false;
  if (const auto *Field = dyn_cast<FieldDecl>(D))
    return Field->getParent()->getIdentifier() && Field->getParent()->isExternallyVisible();
  const auto *Var = dyn_cast<VarDecl>(D);
  return Var && Var->hasGlobalStorage() && !Var->isStaticLocal() && Var->isExternallyVisible();
}

bool spelledAsMacro(const Expr *E, llvm::StringRef Name, const ASTContext &Context) {
  if (!E)
    return false;
  const SourceManager &SM = Context.getSourceManager();
  // Cheap first: an expression whose operator is written in the file is no
  // expansion (getBeginLoc walks down a whole left-nested operand chain).
  if (!E->IgnoreParenImpCasts()->getExprLoc().isMacroID())
    return false;
  SourceLocation Begin = E->IgnoreParenImpCasts()->getBeginLoc();
  SourceLocation End = E->IgnoreParenImpCasts()->getEndLoc();
  // The whole expression comes from one expansion of the macro.
  if (!Begin.isMacroID() || SM.getExpansionLoc(Begin) != SM.getExpansionLoc(End))
    return false;
  for (SourceLocation Loc = Begin; Loc.isMacroID(); Loc = SM.getImmediateMacroCallerLoc(Loc))
    if (Lexer::getImmediateMacroName(Loc, SM, Context.getLangOpts()) == Name)
      return true;
  return false;
}

const ValueDecl *namedStorage(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *Unary = dyn_cast<UnaryOperator>(E);
      Unary && (Unary->getOpcode() == UO_AddrOf || Unary->getOpcode() == UO_Deref))
    return namedStorage(Unary->getSubExpr());
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return dyn_cast<VarDecl>(Ref->getDecl());
  if (const auto *Member = dyn_cast<MemberExpr>(E))
    return dyn_cast<FieldDecl>(Member->getMemberDecl());
  return nullptr;
}

const DeclRefExpr *addressTaken(const Expr *E) {
  const auto *Unary = E ? dyn_cast<UnaryOperator>(E->IgnoreParenImpCasts()) : nullptr;
  return Unary && Unary->getOpcode() == UO_AddrOf
             ? dyn_cast<DeclRefExpr>(Unary->getSubExpr()->IgnoreParenImpCasts())
             : nullptr;
}

const ValueDecl *accessedStorage(const Expr *E) {
  if (const ValueDecl *Named = namedStorage(E))
    return Named;
  const auto *Call = dyn_cast_or_null<CallExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  return Call ? accessorTarget(Call->getDirectCallee()) : nullptr;
}

const Expr *fieldOwner(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  const Expr *Object = nullptr;
  if (const auto *Member = dyn_cast<MemberExpr>(E))
    Object = Member->getBase();
  else if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E))
    Object = Call->getImplicitObjectArgument();
  return Object ? Object->IgnoreParenImpCasts() : nullptr;
}

const ValueDecl *accessorTarget(const FunctionDecl *Callee) {
  const FunctionDecl *Definition = Callee ? Callee->getDefinition() : nullptr;
  const auto *Body = Definition ? dyn_cast_or_null<CompoundStmt>(Definition->getBody()) : nullptr;
  const auto *Return =
      Body && Body->size() == 1 ? dyn_cast<ReturnStmt>(Body->body_front()) : nullptr;
  const ValueDecl *Named = Return ? namedStorage(Return->getRetValue()) : nullptr;
  // Only storage that outlives the call: not a parameter or a local.
  if (const auto *Var = dyn_cast_or_null<VarDecl>(Named); Var && !Var->hasGlobalStorage())
    return nullptr;
  return Named;
}

bool writableReference(QualType Type) {
  return Type->isReferenceType() && !Type.getNonReferenceType().isConstQualified();
}

// The variable a by-reference init-capture names; null for any other.
static const VarDecl *initCaptureReferent(const VarDecl *Capture) {
  if (!Capture->isInitCapture() || !Capture->getType()->isReferenceType() || !Capture->getInit())
    return nullptr;
  const auto *Ref = dyn_cast<DeclRefExpr>(Capture->getInit()->IgnoreParenImpCasts());
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

void forEachInitCaptureReference(const CXXRecordDecl *Lambda,
                                 llvm::function_ref<void(const VarDecl *, const VarDecl *)> Visit) {
  for (const LambdaCapture &Capture : Lambda->captures())
    if (const auto *Captured = dyn_cast_or_null<VarDecl>(
            Capture.capturesVariable() ? Capture.getCapturedVar() : nullptr))
      if (const VarDecl *Referent = initCaptureReferent(Captured))
        Visit(Captured, Referent);
}

std::optional<LambdaCaptureKind> captureOf(const VarDecl *Var, const FunctionDecl *Function) {
  const auto *Method = dyn_cast<CXXMethodDecl>(Function);
  if (!Method || !Method->getParent()->isLambda())
    return std::nullopt;
  for (const LambdaCapture &Capture : Method->getParent()->captures())
    if (Capture.capturesVariable() && Capture.getCapturedVar() == Var)
      return Capture.getCaptureKind();
  bool ByReference = false;
  forEachInitCaptureReference(Method->getParent(), [&](const VarDecl *, const VarDecl *Referent) {
    ByReference = ByReference || Referent == Var;
  });
  return ByReference ? std::optional(LCK_ByRef) : std::nullopt;
}

bool capturedByReference(const VarDecl *Var, const FunctionDecl *Function) {
  return captureOf(Var, Function) == LCK_ByRef;
}

void forEachWrittenOperand(const CallExpr *Call, llvm::function_ref<void(const Expr *)> Written) {
  // make_unique's forwarding references write what the constructor does.
  const FunctionDecl *Callee = forwardedTo(Call, Call->getDirectCallee());
  if (!Callee)
    return;
  std::vector<const Expr *> Args = explicitArguments(Call);
  for (size_t I = 0; I < Args.size() && I < Callee->getNumParams(); ++I) {
    QualType T = Callee->getParamDecl(I)->getType();
    if (T->isLValueReferenceType() && !T.getNonReferenceType().isConstQualified())
      Written(Args[I]);
  }
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
      Method && !Method->isStatic() && !Method->isConst() && !isa<CXXConstructorDecl>(Method) &&
      !handsOutAccess(Method))
    if (const Expr *Object =
            ruleArgument(Call, rules::ArgRef{rules::ArgRef::Kind::Receiver, 0, ""}))
      Written(Object);
}

bool isNullHandle(const Expr *E, ASTContext &Context) {
  if (const ValueDecl *Named = namedStorage(E))
    if (Named->getName() == "MPI_COMM_NULL" || Named->getName() == "ompi_mpi_comm_null")
      return true;
  // `nullptr`, `NULL` (GNU's `__null`) and null pointer constants of a
  // pointer type; not a plain `0`, which compares integers too.
  return spelledAsMacro(E, "MPI_COMM_NULL", Context) ||
         ((E->getType()->isPointerType() || E->getType()->isNullPtrType() || isa<GNUNullExpr>(E)) &&
          E->isNullPointerConstant(Context, Expr::NPC_ValueDependentIsNotNull));
}

const ValueDecl *nullTestedHandle(const Expr *Condition, ASTContext &Context) {
  const auto *Compare = dyn_cast<BinaryOperator>(Condition->IgnoreParenImpCasts());
  if (!Compare || !Compare->isEqualityOp())
    return nullptr;
  const Expr *L = Compare->getLHS()->IgnoreParenImpCasts();
  const Expr *R = Compare->getRHS()->IgnoreParenImpCasts();
  if (isNullHandle(L, Context))
    std::swap(L, R);
  if (!isNullHandle(R, Context) || L->getType()->isIntegralOrEnumerationType())
    return nullptr;
  return namedStorage(L);
}

const Expr *calledMemberPointer(const CallExpr *Call) {
  const auto *Bound = dyn_cast<BinaryOperator>(Call->getCallee()->IgnoreParens());
  return Bound && Bound->isPtrMemOp() ? Bound->getRHS() : nullptr;
}

const Expr *dispatchHolder(const CallExpr *Call) {
  if (const Expr *Pointer = calledMemberPointer(Call))
    return Pointer; // the member pointer decides, not the object
  const Expr *Holder = Call->getCallee();
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
    Holder = Member->getImplicitObjectArgument();
  else if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(Call))
    Holder = Operator->getArg(0);
  // A smart pointer's `->` and `*` reach what it holds: the pointer decides.
  if (const Expr *Pointer = accessedThrough(Holder->IgnoreParenImpCasts()))
    Holder = Pointer;
  return Holder;
}

void forEachWrite(const Stmt *Body, llvm::function_ref<bool(const UnaryOperator *)> ReadOnly,
                  llvm::function_ref<void(const Expr *, bool ByMethod)> Visit) {
  std::vector<const Stmt *> Stack{Body};
  while (!Stack.empty()) {
    const Stmt *S = Stack.back();
    Stack.pop_back();
    if (!S)
      continue;
    if (const auto *Binary = dyn_cast<BinaryOperator>(S); Binary && Binary->isAssignmentOp())
      Visit(Binary->getLHS(), false);
    else if (const auto *Unary = dyn_cast<UnaryOperator>(S);
             Unary && (Unary->isIncrementDecrementOp() ||
                       (Unary->getOpcode() == UO_AddrOf && !ReadOnly(Unary))))
      Visit(Unary->getSubExpr(), false);
    else if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(S);
             Operator && Operator->isAssignmentOp())
      Visit(Operator->getArg(0), false);
    else if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
      const Expr *Object = Member ? Member->getImplicitObjectArgument() : nullptr;
      forEachWrittenOperand(Call, [&](const Expr *E) { Visit(E, E == Object); });
    } else if (const auto *Decl = dyn_cast<DeclStmt>(S)) {
      // `int &r = rounds;`: what is written through `r` is written to `rounds`.
      for (const auto *D : Decl->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D);
            Var && Var->getInit() && writableReference(Var->getType()))
          Visit(Var->getInit(), false);
    } else if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
      forEachInitCaptureReference(Lambda->getLambdaClass(),
                                  [&](const VarDecl *Capture, const VarDecl *) {
                                    if (writableReference(Capture->getType()))
                                      Visit(Capture->getInit(), false);
                                  });
    }
    for (const Stmt *Child : S->children())
      Stack.push_back(Child);
  }
}

} // namespace lockstep::analysis
