#include "ConditionFormula.h"
#include "CallSite.h"
#include "ConstantTables.h"
#include "Exceptions.h"
#include "Limits.h"
#include "Membership.h"
#include "ReachingAssignments.h"
#include "WrapperObjects.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/raw_ostream.h"

namespace lockstep::analysis {
using namespace clang;

bool isInteger(const Expr *E) {
  QualType T = E->getType();
  return T->isIntegralOrEnumerationType() || T->isBooleanType();
}

namespace {

/// `MPI_UNDEFINED` or `NCCL_SPLIT_NOCOLOR`, the colour of no communicator.
bool isUndefinedColour(const Expr *E, ASTContext &Context) {
  return spelledAsMacro(E, "MPI_UNDEFINED", Context) ||
         spelledAsMacro(E, "NCCL_SPLIT_NOCOLOR", Context);
}

/// The formula operator of a comparison; \p Swap: of its operands swapped.
FormulaOp comparison(BinaryOperatorKind Op, bool &Swap) {
  Swap = false;
  switch (Op) {
  case BO_EQ:
    return FormulaOp::Eq;
  case BO_NE:
    return FormulaOp::Ne;
  case BO_LT:
    return FormulaOp::Lt;
  case BO_LE:
    return FormulaOp::Le;
  case BO_GT:
    Swap = true;
    return FormulaOp::Lt;
  default:
    Swap = true;
    return FormulaOp::Le; // BO_GE
  }
}

} // namespace

ConditionFormula::ConditionFormula(const FunctionCFG &Function, FormulaArena &Arena,
                                   ConditionFacts Facts)
    : Function(Function), Arena(Arena), Facts(std::move(Facts)) {
  collectWrites(Function.decl()->getBody());
}

// `MPI_Send(&n, ...)`: an address handed to a pointer-to-const parameter is
// only read through; one handed to a release (`MPI_Comm_free(&c)`) leaves
// the handle null, which no read before it sees.
bool ConditionFormula::readOnlyArgument(const Expr *AddressOf) const {
  const Stmt *Child = AddressOf;
  const Stmt *Parent = Function.parents().getParentIgnoreParenImpCasts(const_cast<Stmt *>(Child));
  const auto *Call = dyn_cast_or_null<CallExpr>(Parent);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee)
    return false;
  if (Facts.ReleasesHandle && Facts.ReleasesHandle(Call))
    return true;
  for (unsigned I = 0; I < Call->getNumArgs() && I < Callee->getNumParams(); ++I)
    if (Call->getArg(I)->IgnoreParenImpCasts() == AddressOf) {
      QualType T = Callee->getParamDecl(I)->getType();
      return T->isPointerType() && T->getPointeeType().isConstQualified();
    }
  return false;
}

void ConditionFormula::collectWrites(const Stmt *Body) {
  forEachWrite(
      Body, [this](const UnaryOperator *AddressOf) { return readOnlyArgument(AddressOf); },
      [this](const Expr *E, bool ByMethod) {
        E = E->IgnoreParenImpCasts();
        if (const Expr *Holder = ByMethod ? accessedThrough(E) : nullptr)
          E = Holder->IgnoreParenImpCasts(); // `g->f()` changes the object `g` owns
        if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
          if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
            (ByMethod ? Mutated : Written).insert(Var);
        if (const auto *Member = dyn_cast<MemberExpr>(E))
          WrittenFields.insert(Member->getMemberDecl());
      });
}

// Who writes a field besides its constructors' initializers: the other
// methods (`stage_` of a pipeline stage that only its constructor sets
// keeps its value across calls of them), or a constructor's body. A
// non-const method lockstep cannot read, or a template of one, may write it.
ConditionFormula::FieldWrites ConditionFormula::writesOf(const FieldDecl *Field) {
  if (auto It = FieldWriters.find(Field); It != FieldWriters.end())
    return It->second;
  FieldWrites Found;
  const auto *Class = dyn_cast<CXXRecordDecl>(Field->getParent());
  if (!Class) {
    Found.ByMethods = true;
    return FieldWriters[Field] = Found;
  }
  auto Writes = [&](const Stmt *Body) {
    bool Any = false;
    forEachWrite(
        Body, [](const UnaryOperator *) { return false; },
        [&](const Expr *E, bool) {
          const auto *Member = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
          Any |= Member && Member->getMemberDecl() == Field;
        });
    return Any;
  };
  for (const Decl *D : Class->decls())
    if (const auto *Template = dyn_cast<FunctionTemplateDecl>(D);
        Template && isa<CXXMethodDecl>(Template->getTemplatedDecl()) &&
        !cast<CXXMethodDecl>(Template->getTemplatedDecl())->isConst())
      Found.ByMethods = true;
  for (const CXXMethodDecl *Method : Class->methods()) {
    const FunctionDecl *Definition = Method->getDefinition();
    const Stmt *Body = Definition ? Definition->getBody() : nullptr;
    if (isa<CXXDestructorDecl>(Method) || Method->isStatic())
      continue;
    if (isa<CXXConstructorDecl>(Method))
      Found.ByConstructorBodies |= Body && Writes(Body);
    else if (!Method->isConst() && !Method->isImplicit())
      Found.ByMethods |= !Body || Writes(Body);
  }
  return FieldWriters[Field] = Found;
}

ConditionFormula::~ConditionFormula() = default;

FormulaRef ConditionFormula::condition(const CFGBlock &Block) {
  if (auto Known = Conditions.find(&Block); Known != Conditions.end())
    return Known->second;
  FormulaRef Value = Arena.truth();
  if (exceptionalCall(Block)) {
    // Whether the call returns: per-rank where the ranks it throws on differ.
    const RankValue *Throws = Facts.ConditionAt(Block);
    Value = Throws && Facts.Differs(*Throws) ? Arena.unknownPerRank(/*Boolean=*/true)
                                             : Arena.uniform(exceptionalCall(Block), true);
  } else if (const Expr *Condition = decidingCondition(Block)) {
    if (!Nested)
      Budget = 0;
    Value = translate(Condition, /*WantBoolean=*/true);
  }
  // Looked up again: translating a read may have asked for other conditions.
  return Conditions[&Block] = Value;
}

FormulaRef ConditionFormula::expression(const Expr *E) {
  if (!Nested)
    Budget = 0;
  return translate(E, /*WantBoolean=*/!isInteger(E) || E->getType()->isBooleanType());
}

FormulaRef ConditionFormula::expression(const Expr *E, const Stmt *Scope,
                                        const llvm::DenseSet<const VarDecl *> &Stable) {
  StableScope = Scope;
  StableVars = &Stable;
  FormulaRef F = expression(E);
  StableScope = nullptr;
  StableVars = nullptr;
  return F;
}

FormulaRef ConditionFormula::edge(const CFGBlock &Block, unsigned Index) {
  if (auto Known = Edges.find({&Block, Index}); Known != Edges.end())
    return Known->second;
  FormulaRef Guard = translateEdge(Block, Index);
  return Edges[{&Block, Index}] = Guard;
}

FormulaRef ConditionFormula::translateEdge(const CFGBlock &Block, unsigned Index) {
  const Stmt *Terminator = Block.getTerminatorStmt();
  if (const auto *Switch = dyn_cast_or_null<SwitchStmt>(Terminator)) {
    if (!Nested)
      Budget = 0;
    FormulaRef Value = translate(Switch->getCond(), /*WantBoolean=*/false);
    auto CaseValue = [&](const CaseStmt *Case) -> FormulaRef {
      FormulaRef Low = translate(Case->getLHS(), false);
      if (!Case->getRHS()) // GNU case ranges: low ... high
        return Arena.compare(FormulaOp::Eq, Value, Low);
      return Arena.conjoin(Arena.compare(FormulaOp::Le, Low, Value),
                           Arena.compare(FormulaOp::Le, Value, translate(Case->getRHS(), false)));
    };
    const CFGBlock *Target = (Block.succ_begin() + Index)->getReachableBlock();
    if (const auto *Case = dyn_cast_or_null<CaseStmt>(Target ? Target->getLabel() : nullptr))
      return CaseValue(Case);
    FormulaRef None = Arena.truth(); // default: no case matched
    for (const SwitchCase *Case = Switch->getSwitchCaseList(); Case;
         Case = Case->getNextSwitchCase())
      if (const auto *C = dyn_cast<CaseStmt>(Case))
        None = Arena.conjoin(None, Arena.negate(CaseValue(C)));
    return None;
  }
  if (Block.succ_size() != 2 || !decidingCondition(Block) ||
      (Facts.PassesStatusCheck && Facts.PassesStatusCheck(Block, Index)))
    return Arena.truth();
  FormulaRef Condition = condition(Block);
  return Index == 0 ? Condition : Arena.negate(Condition);
}

FormulaRef ConditionFormula::translate(const Expr *E, bool WantBoolean) {
  auto Sorted = [&](FormulaRef F) { return WantBoolean ? Arena.asBoolean(F) : Arena.asInteger(F); };
  if (++Budget > limits::MaxExpressionNodes) {
    // Past the bound: a value the ranks share stays one shared unknown; only
    // a rank-dependent one loses information (and is said in a remark).
    const RankValue *Value = Facts.ValueAt(E->IgnoreParenCasts());
    if (Value && !Facts.Differs(*Value))
      return Arena.uniform(E->IgnoreParenCasts(), WantBoolean);
    Truncated = true;
    return Arena.unknownPerRank(WantBoolean);
  }
  E = ignoreBranchHints(E);
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (std::optional<FormulaRef> Body = inlinedCall(Call, WantBoolean))
      return *Body;
  if (isUndefinedColour(E, Function.context()))
    return Sorted(Arena.constant(UndefinedColour));
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E); Cast && isInteger(Cast->getSubExpr()))
    return Sorted(translate(Cast->getSubExpr(), WantBoolean));
  if (const auto *Binary = dyn_cast<BinaryOperator>(E))
    return translateBinary(Binary, WantBoolean);
  if (const auto *Unary = dyn_cast<UnaryOperator>(E)) {
    if (Unary->getOpcode() == UO_LNot)
      return Sorted(Arena.negate(translate(Unary->getSubExpr(), true)));
    if (isInteger(Unary->getSubExpr())) {
      if (Unary->getOpcode() == UO_Minus)
        return Sorted(Arena.negative(translate(Unary->getSubExpr(), false)));
      if (Unary->getOpcode() == UO_Plus)
        return translate(Unary->getSubExpr(), WantBoolean);
    }
    return leaf(E, WantBoolean);
  }
  if (const auto *Choice = dyn_cast<ConditionalOperator>(E)) {
    bool Boolean = WantBoolean && !isInteger(E);
    FormulaRef Cond = translate(Choice->getCond(), true);
    FormulaRef Then = translate(Choice->getTrueExpr(), Boolean);
    FormulaRef Else = translate(Choice->getFalseExpr(), Boolean);
    return Sorted(Arena.choose(Cond, Then, Else));
  }
  if (WantBoolean && E->getType()->isPointerType() && Inlined.empty())
    if (const ValueDecl *Handle = namedStorage(E); Handle && Facts.IsSplit(Handle))
      return Arena.negate(Facts.IsNull(Handle)); // `if (comm)`
  return leaf(E, WantBoolean);
}

FormulaRef ConditionFormula::translateBinary(const BinaryOperator *Binary, bool WantBoolean) {
  auto Sorted = [&](FormulaRef F) { return WantBoolean ? Arena.asBoolean(F) : Arena.asInteger(F); };
  BinaryOperatorKind Op = Binary->getOpcode();
  const Expr *L = Binary->getLHS(), *R = Binary->getRHS();
  if (Op == BO_LAnd || Op == BO_LOr) {
    FormulaRef A = translate(L, true), B = translate(R, true);
    return Sorted(Op == BO_LAnd ? Arena.conjoin(A, B) : Arena.disjoin(A, B));
  }
  if (Op == BO_Comma)
    return translate(R, WantBoolean);
  if (Binary->isComparisonOp()) {
    if (std::optional<FormulaRef> Test = communicatorTest(Binary))
      return Sorted(*Test);
    if (isInteger(L) && isInteger(R)) {
      bool Swap;
      FormulaOp Kind = comparison(Op, Swap);
      FormulaRef A = translate(L, false), B = translate(R, false);
      return Sorted(Swap ? Arena.compare(Kind, B, A) : Arena.compare(Kind, A, B));
    }
  }
  static const std::pair<BinaryOperatorKind, FormulaOp> Arithmetic[] = {{BO_Add, FormulaOp::Add},
                                                                        {BO_Sub, FormulaOp::Sub},
                                                                        {BO_Mul, FormulaOp::Mul},
                                                                        {BO_Div, FormulaOp::Div},
                                                                        {BO_Rem, FormulaOp::Rem}};
  // An update (`rows += 1`, as ReachingAssignments hands it) is the value
  // before it, updated: its left side reads the variable there.
  const BinaryOperatorKind Computed =
      arithmeticUpdate(Binary) ? BinaryOperator::getOpForCompoundAssignment(Op) : Op;
  if (isInteger(L) && isInteger(R))
    for (auto [Operator, Kind] : Arithmetic)
      if (Computed == Operator)
        return Sorted(Arena.arithmetic(Kind, translate(L, false), translate(R, false)));
  return leaf(Binary, WantBoolean);
}

FormulaRef ConditionFormula::leaf(const Expr *E, bool WantBoolean) {
  auto Sorted = [&](FormulaRef F) { return WantBoolean ? Arena.asBoolean(F) : Arena.asInteger(F); };
  if (!E->isValueDependent() && isInteger(E) && !isa<CallExpr>(E)) {
    Expr::EvalResult Result;
    if (E->EvaluateAsInt(Result, Function.context()))
      return Sorted(Arena.constant(Result.Val.getInt().getExtValue()));
  }
  if (std::optional<FormulaRef> Element = constantTableRead(
          E, Function.context(), Arena, [&](const Expr *Index) { return translate(Index, false); }))
    return Sorted(*Element);
  if (!Inlined.empty())
    return Sorted(inlinedLeaf(E, WantBoolean));
  // A parameter that every call passes the same value for is that value:
  // the callee's `node_rank == 0` is the test its caller made.
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E); Ref && Facts.ParameterValue)
    if (const auto *Param = dyn_cast<ParmVarDecl>(Ref->getDecl());
        Param && !Written.count(Param) && !Mutated.count(Param))
      if (std::optional<FormulaRef> Passed = Facts.ParameterValue(Param))
        return Sorted(*Passed);
  const RankValue *Value = Facts.ValueAt(E->IgnoreParenCasts());
  const bool PerRank = Value && Facts.Differs(*Value);
  const bool Boolean = !isInteger(E) || E->getType()->isBooleanType();
  if (const void *Coordinate = PerRank ? coordinateKey(E) : nullptr) {
    FormulaRef Symbol = Arena.perRank(Coordinate, Boolean);
    Facts.PerRankSymbol(*Value, Symbol);
    return Sorted(Symbol);
  }
  // A field a split's colour is computed from: the field, whatever object
  // and function read it, as the colour and inlined accessors read it.
  if (const auto *Member = dyn_cast<MemberExpr>(E);
      Member && PerRank && Facts.IsColourField && Facts.IsColourField(Member->getMemberDecl())) {
    FormulaRef Symbol = Arena.perRank(Member->getMemberDecl(), Boolean);
    Facts.PerRankSymbol(*Value, Symbol);
    return Sorted(Symbol);
  }
  if (Value && Value->ExactRank) {
    if (const void *Part = rankPart(Value->Source, Facts.CommunicatorPassed)) {
      // A rank in a part of the job, never negative: `== 0`, `== 1` and
      // `> 1` on it leave no rank out.
      FormulaRef PartRank = Arena.perRank(Part, /*Boolean=*/false);
      return Sorted(Arena.choose(Arena.compare(FormulaOp::Lt, PartRank, Arena.constant(0)),
                                 Arena.constant(0), PartRank));
    }
    return Sorted(Arena.rank());
  }
  if (Value && Value->ExactSize)
    return Sorted(Arena.sizeSymbol());
  const ValueDecl *Named = nullptr;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (Var && !Written.count(Var) && !Mutated.count(Var)) {
      Named = Var;
      // A local computed once from other values is that computation:
      // `int color = rank % 2;`.
      if (Var->hasLocalStorage() && !isa<ParmVarDecl>(Var) && Var->getInit() &&
          Var->getDeclContext() == Function.decl() && isInteger(Var->getInit()) &&
          !Var->getType()->isReferenceType() && Expanding.insert(Var).second) {
        FormulaRef F = translate(Var->getInit(), WantBoolean);
        Expanding.erase(Var);
        return Sorted(F);
      }
    }
  }
  if (std::optional<FormulaRef> Chosen = reachingValue(E, WantBoolean))
    return Sorted(*Chosen);
  if (std::optional<FormulaRef> Size = constructedSize(E))
    return Sorted(*Size);
  // `cfg.n`, `this->n_`: one symbol per object and field the function does
  // not write, so two reads of it are the same value.
  const void *FieldKey = nullptr;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E);
      Ref && !Named && StableVars && StableVars->count(dyn_cast<VarDecl>(Ref->getDecl())))
    FieldKey = fieldKey(StableScope, Ref->getDecl()); // `for (s = start; s < start + 10; ++s)`
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    const Expr *Base = Member->getBase()->IgnoreParenImpCasts();
    const auto *BaseVar = dyn_cast_or_null<VarDecl>(
        isa<DeclRefExpr>(Base) ? cast<DeclRefExpr>(Base)->getDecl() : nullptr);
    if ((isa<CXXThisExpr>(Base) ||
         (BaseVar && !Written.count(BaseVar) && !Mutated.count(BaseVar))) &&
        !WrittenFields.count(Member->getMemberDecl()))
      FieldKey = fieldKey(BaseVar, Member->getMemberDecl());
  }
  if (!FieldKey && PerRank)
    FieldKey = writtenValueKey(E, Value->Definition);
  FormulaRef Symbol =
      FieldKey ? (PerRank ? Arena.perRank(FieldKey, Boolean) : Arena.uniform(FieldKey, Boolean))
               : symbolFor(E, Named, PerRank, Boolean);
  if (PerRank)
    Facts.PerRankSymbol(*Value, Symbol);
  return Sorted(Symbol);
}

// A local assigned more than once is what the assignment that reaches the
// read stored, chosen by the branches that decide which one ran: `dest = 0;`
// makes `rank == dest` a test of rank 0 wherever else `dest` is assigned.
std::optional<FormulaRef> ConditionFormula::reachingValue(const Expr *E, bool WantBoolean) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  // Not inside expression(E, Scope, Stable): the conditions a choice reads
  // are kept for every later question, not only for that loop's.
  if (!Var || !Written.count(Var) || StableVars)
    return std::nullopt;
  if (auto Made = ReachingValues.find({Ref, unsigned(WantBoolean)}); Made != ReachingValues.end())
    return Made->second;
  if (!ExpandingReads.insert(Ref).second)
    return std::nullopt;
  if (!Reaching)
    Reaching = std::make_unique<ReachingAssignments>(Function);
  std::vector<FormulaRef> Values;
  ++Nested; // the branches' conditions count against this expression's budget
  for (const ReachingAssignments::Node &Node : Reaching->of(Ref, ReachingLimited))
    Values.push_back(Node.Branch
                         ? Arena.choose(edge(*Node.Branch, 0), Values[Node.Then], Values[Node.Else])
                         : translate(Node.Assigned, WantBoolean));
  --Nested;
  ExpandingReads.erase(Ref);
  std::optional<FormulaRef> Chosen;
  if (!Values.empty())
    Chosen = Values.back();
  return ReachingValues[{Ref, unsigned(WantBoolean)}] = Chosen;
}

// An integer local (`n` of `MPI_Comm_size(shm, &n)`) or `coords[1]` of a local
// array (`MPI_Cart_coords(grid, rank, 2, coords)`), read where one write
// left it, not where paths that wrote it differently meet: every such read
// is one value, so tests of it line up with each other, with a split by it
// and with the arguments it gives.
const void *ConditionFormula::writtenValueKey(const Expr *E, const void *Write) {
  if (!Write || llvm::is_contained(Function.reversePostOrder(), Write))
    return nullptr;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    return Var && Var->hasLocalStorage() && !Var->getType()->isReferenceType() && isInteger(E)
               ? fieldKey(Var, Write)
               : nullptr;
  }
  const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E);
  const auto *Ref =
      Subscript ? dyn_cast<DeclRefExpr>(Subscript->getBase()->IgnoreParenImpCasts()) : nullptr;
  const auto *Array = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  std::optional<unsigned> Index =
      Array ? constantIndex(Subscript->getIdx(), Function.context()) : std::nullopt;
  if (!Index || !Array->hasLocalStorage() || !Array->getType()->isConstantArrayType())
    return nullptr;
  return elementKey(Array, Write, *Index);
}

// `d.coords[2]` of an array field holding a sub-grid's coordinates.
const void *ConditionFormula::coordinateKey(const Expr *E) const {
  const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E);
  const auto *Member =
      Subscript ? dyn_cast<MemberExpr>(Subscript->getBase()->IgnoreParenImpCasts()) : nullptr;
  const auto *Field = Member ? dyn_cast<FieldDecl>(Member->getMemberDecl()) : nullptr;
  std::optional<unsigned> Index =
      Field ? constantIndex(Subscript->getIdx(), Function.context()) : std::nullopt;
  return Index && Facts.CoordinateKey ? Facts.CoordinateKey(Field, *Index) : nullptr;
}

const void *ConditionFormula::elementKey(const VarDecl *Array, const void *Write, uint64_t At) {
  const void *Element = fieldKey(Array, Write);
  for (uint64_t Step = 0; Step <= At; ++Step)
    Element = fieldKey(Element, nullptr); // the element at At: At + 1 steps from the array
  return Element;
}

FormulaRef ConditionFormula::writtenElement(const VarDecl *Array, const void *Write, unsigned At) {
  return Arena.perRank(elementKey(Array, Write, At), /*Boolean=*/false);
}

const void *ConditionFormula::fieldKey(const void *Owner, const void *Part) {
  auto [It, Inserted] = FieldKeys.try_emplace({Owner, Part}, nullptr);
  if (Inserted) {
    KeyStorage.emplace_back();
    It->second = &KeyStorage.back();
  }
  return It->second;
}

FormulaRef ConditionFormula::symbolFor(const Expr *E, const ValueDecl *Named, bool PerRank,
                                       bool Boolean) {
  const void *Key = Named ? static_cast<const void *>(Named) : static_cast<const void *>(E);
  return PerRank ? Arena.perRank(Key, Boolean) : Arena.uniform(Key, Boolean);
}

std::optional<FormulaRef> ConditionFormula::communicatorTest(const BinaryOperator *Compare) {
  if (Compare->getOpcode() != BO_EQ && Compare->getOpcode() != BO_NE)
    return std::nullopt;
  ASTContext &Context = Function.context();
  const Expr *L = Compare->getLHS()->IgnoreParenImpCasts();
  const Expr *R = Compare->getRHS()->IgnoreParenImpCasts();
  if (isNullHandle(L, Context))
    std::swap(L, R);
  // Whether a handle is a predefined communicator is the same on every rank:
  // a split or a duplicate never equals MPI_COMM_WORLD or MPI_COMM_SELF.
  for (const char *Predefined : {"MPI_COMM_WORLD", "MPI_COMM_SELF"})
    if (spelledAsMacro(R, Predefined, Context) || spelledAsMacro(L, Predefined, Context))
      return Arena.uniform(Compare, /*Boolean=*/true);
  if (!isNullHandle(R, Context) || isInteger(L))
    return std::nullopt;
  const ValueDecl *Handle = Inlined.empty() ? accessedStorage(L) : namedStorage(L);
  if (!Handle)
    return std::nullopt;
  // The communicator field of one object: `g.comm()` or `g.comm_` here, or
  // `comm_` in an accessor inlined for `g` (`g.valid()` of a process-group
  // class): that object's own, where it stands for one.
  const auto *Field = dyn_cast<FieldDecl>(Handle);
  const Expr *Owner = Field ? fieldOwner(L) : nullptr;
  const VarDecl *Object = nullptr;
  // Or the field of the function's object that holds it (`leaders_`).
  const FieldDecl *HeldIn = nullptr;
  if (isa_and_nonnull<CXXThisExpr>(Owner) && !Inlined.empty()) {
    Object = static_cast<const VarDecl *>(Inlined.back().Owner);
    HeldIn = Inlined.back().HeldIn;
  } else if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(Owner); Ref && Inlined.empty()) {
    Object = dyn_cast<VarDecl>(Ref->getDecl());
  } else if (Inlined.empty()) {
    HeldIn = WrapperObjects::holdingField(Owner);
  }
  const ValueDecl *Own = nullptr;
  if (Object && Facts.ObjectCommunicator && (!Mutated.count(Object) || !writesOf(Field).ByMethods))
    Own = Facts.ObjectCommunicator(Object, Field);
  else if (HeldIn && Facts.ObjectCommunicator)
    Own = Facts.ObjectCommunicator(HeldIn, Field);
  if (Own)
    Handle = Own;
  FormulaRef Test = Facts.IsNull(Handle);
  return Compare->getOpcode() == BO_EQ ? Test : Arena.negate(Test);
}

} // namespace lockstep::analysis
