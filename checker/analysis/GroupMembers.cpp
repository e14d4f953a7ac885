#include "GroupMembers.h"

#include "CallSite.h"
#include "Limits.h"

#include "llvm/ADT/DenseSet.h"

namespace lockstep::analysis {
using namespace clang;
using Members = rules::RankSetRule::Members;

/// The local array, or the variable, \p E names once casts, `&` and
/// subscripts are peeled (`&range[0]`, `(void *)&range`, `ranks`).
static const VarDecl *referredVariable(const Expr *E) {
  while (true) {
    E = E->IgnoreParenCasts();
    if (const auto *Unary = dyn_cast<UnaryOperator>(E); Unary && Unary->getOpcode() == UO_AddrOf)
      E = Unary->getSubExpr();
    else if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E))
      E = Subscript->getBase();
    else
      break;
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

/// The extents of a constant array type, outermost first (`int r[1][3]`:
/// 1, 3); empty for anything else.
static std::vector<uint64_t> extents(QualType Type, const ASTContext &Context) {
  std::vector<uint64_t> Dims;
  while (const auto *Array = Context.getAsConstantArrayType(Type)) {
    Dims.push_back(Array->getSize().getZExtValue());
    Type = Array->getElementType();
  }
  return Type->isIntegerType() ? Dims : std::vector<uint64_t>{};
}

/// The position of the scalar element \p E of \p Array in its row-major
/// order (`range[0][1]`: 1), when every index is a constant.
static std::optional<uint64_t> flatIndex(const Expr *E, const VarDecl *Array,
                                         const std::vector<uint64_t> &Dims,
                                         const ASTContext &Context) {
  std::vector<uint64_t> Indices;
  E = E->IgnoreParenImpCasts();
  while (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E)) {
    std::optional<llvm::APSInt> Index = Subscript->getIdx()->getIntegerConstantExpr(Context);
    if (!Index || Index->isNegative())
      return std::nullopt;
    Indices.insert(Indices.begin(), Index->getZExtValue());
    E = Subscript->getBase()->IgnoreParenImpCasts();
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  if (!Ref || Ref->getDecl() != Array || Indices.size() != Dims.size())
    return std::nullopt;
  uint64_t Flat = 0;
  for (size_t D = 0; D < Dims.size(); ++D) {
    if (Indices[D] >= Dims[D])
      return std::nullopt;
    Flat = Flat * Dims[D] + Indices[D];
  }
  return Flat;
}

/// Element \p Flat of the initializer \p Init of an array with extents
/// \p Dims: the expression, null for an element the list leaves zero, or
/// nullopt when the initializer is no (nested) list.
static std::optional<const Expr *>
initialElement(const Expr *Init, const std::vector<uint64_t> &Dims, uint64_t Flat) {
  uint64_t Stride = 1;
  for (uint64_t Dim : Dims)
    Stride *= Dim;
  for (uint64_t Dim : Dims) {
    Stride /= Dim;
    const auto *List = dyn_cast_or_null<InitListExpr>(Init ? Init->IgnoreImplicit() : nullptr);
    if (!List)
      return std::nullopt;
    const uint64_t At = Flat / Stride % Dim;
    if (At >= List->getNumInits())
      return nullptr;
    Init = List->getInit(At);
    if (isa<ImplicitValueInitExpr>(Init))
      return nullptr;
  }
  return Init;
}

/// Whether \p E is a library's constant handle (`MPI_GROUP_NULL`,
/// `MPI_GROUP_EMPTY`), through chained assignments (`g0 = g1 =
/// MPI_GROUP_NULL`): no group the function builds.
static bool constantHandle(const Expr *E, ASTContext &Context) {
  for (const auto *Chained = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
       Chained && Chained->getOpcode() == BO_Assign;
       Chained = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts()))
    E = Chained->getRHS();
  E = E->IgnoreParenCasts();
  if (const auto *Unary = dyn_cast<UnaryOperator>(E); Unary && Unary->getOpcode() == UO_AddrOf)
    E = Unary->getSubExpr()->IgnoreParenCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      return Var->hasGlobalStorage() && !Var->isStaticLocal();
  Expr::EvalResult Value;
  return E->EvaluateAsInt(Value, Context);
}

static bool sameCommunicator(const Expr *A, const Expr *B, ASTContext &Context) {
  const Expr *PeeledA = A->IgnoreParenCasts(), *PeeledB = B->IgnoreParenCasts();
  if (const ValueDecl *Named = namedStorage(PeeledA))
    return Named == namedStorage(PeeledB);
  // MPICH's handles are integer constants.
  Expr::EvalResult ValueA, ValueB;
  return PeeledA->EvaluateAsInt(ValueA, Context) && PeeledB->EvaluateAsInt(ValueB, Context) &&
         ValueA.Val.getInt() == ValueB.Val.getInt();
}

namespace {

class GroupReader {
public:
  GroupReader(const GroupMembersQuery &Query, bool &TooLong) : Q(Query), TooLong(TooLong) {}

  std::optional<FormulaRef> members(const Expr *Group, const Expr *Comm) {
    const CallExpr *Built = builder(Group);
    if (!Built)
      return std::nullopt;
    const rules::RankSetRule &Rule = *Q.Classifier.classify(Built->getDirectCallee()).RankSet;
    const Expr *Source = Built->getArg(Rule.Source);
    if (Rule.Of == Members::All)
      return ofCommunicator(Source, Comm) ? std::optional(Q.Arena.truth()) : std::nullopt;
    // Ranks listed in a group of all of `comm`'s members are ranks in `comm`.
    const CallExpr *Whole = builder(Source);
    const rules::RankSetRule *WholeRule =
        Whole ? Q.Classifier.classify(Whole->getDirectCallee()).RankSet : nullptr;
    if (!WholeRule || WholeRule->Of != Members::All ||
        !ofCommunicator(Whole->getArg(WholeRule->Source), Comm))
      return std::nullopt;
    return listed(Rule, Built);
  }

private:
  /// The one call of the function that builds the group \p Group names.
  const CallExpr *builder(const Expr *Group) {
    const ValueDecl *Storage = namedStorage(Group);
    const auto *Var = dyn_cast_or_null<VarDecl>(Storage);
    if (!Var || !Var->hasLocalStorage())
      return nullptr;
    const CallExpr *Found = nullptr;
    bool Unique = true;
    forEachStmtInOrder(Q.Function.decl()->getBody(), [&](const Stmt *S) {
      if (const auto *Assign = dyn_cast<BinaryOperator>(S);
          Assign && Assign->isAssignmentOp() && namedStorage(Assign->getLHS()) == Var &&
          !(Assign->getOpcode() == BO_Assign &&
            constantHandle(Assign->getRHS(), Q.Function.context())))
        Unique = false;
      const auto *Call = dyn_cast<CallExpr>(S);
      const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
      const rules::RankSetRule *Rule = Callee ? Q.Classifier.classify(Callee).RankSet : nullptr;
      if (!Rule || std::max(Rule->Source, Rule->NewSet) >= Call->getNumArgs() ||
          namedStorage(Call->getArg(Rule->NewSet)) != Var)
        return;
      Unique = Unique && !Found;
      Found = Call;
    });
    return Unique ? Found : nullptr;
  }

  /// Whether \p Source, the communicator a group of all members is taken
  /// from, is the job's \p Comm: its ranks are the ranks formulas name.
  bool ofCommunicator(const Expr *Source, const Expr *Comm) {
    const ValueDecl *Named = namedStorage(Comm->IgnoreParenCasts());
    return sameCommunicator(Source, Comm, Q.Function.context()) && !(Named && Q.IsSplit(Named));
  }

  std::optional<FormulaRef> listed(const rules::RankSetRule &Rule, const CallExpr *Built) {
    if (std::max(Rule.Count, Rule.Ranks) >= Built->getNumArgs())
      return std::nullopt;
    FormulaRef CountFormula = Q.Conditions.expression(Built->getArg(Rule.Count));
    const FormulaNode &Count = Q.Arena.node(CountFormula);
    if (Count.Op != FormulaOp::Const || Count.Value < 0)
      return std::nullopt;
    if (Count.Value > int64_t(limits::MaxListedRanks)) {
      TooLong = true;
      return std::nullopt;
    }
    const bool Ranges = Rule.Of == Members::ListedRanges || Rule.Of == Members::UnlistedRanges;
    const bool Listed = Rule.Of == Members::Listed || Rule.Of == Members::ListedRanges;
    std::optional<std::vector<FormulaRef>> Values =
        elements(Built->getArg(Rule.Ranks), Built, uint64_t(Count.Value) * (Ranges ? 3 : 1));
    if (!Values)
      return std::nullopt;
    FormulaRef Rank = Q.Arena.rank();
    FormulaRef In = Q.Arena.falsity();
    for (size_t I = 0; I < size_t(Count.Value); ++I) {
      std::optional<FormulaRef> One = Ranges ? inRange(Rank, &(*Values)[3 * I])
                                             : Q.Arena.compare(FormulaOp::Eq, Rank, (*Values)[I]);
      if (!One)
        return std::nullopt;
      In = Q.Arena.disjoin(In, *One);
    }
    return Listed ? In : Q.Arena.negate(In);
  }

  /// `first <= rank <= last`, every `stride`th from `first` (a constant
  /// stride; a negative one counts down).
  std::optional<FormulaRef> inRange(FormulaRef Rank, const FormulaRef *Triple) {
    const FormulaNode &Stride = Q.Arena.node(Triple[2]);
    if (Stride.Op != FormulaOp::Const || Stride.Value == 0)
      return std::nullopt;
    const bool Up = Stride.Value > 0;
    FormulaRef Low = Up ? Triple[0] : Triple[1], High = Up ? Triple[1] : Triple[0];
    FormulaRef In = Q.Arena.conjoin(Q.Arena.compare(FormulaOp::Le, Low, Rank),
                                    Q.Arena.compare(FormulaOp::Le, Rank, High));
    if (Stride.Value == 1 || Stride.Value == -1)
      return In;
    FormulaRef Offset = Up ? Q.Arena.arithmetic(FormulaOp::Sub, Rank, Triple[0])
                           : Q.Arena.arithmetic(FormulaOp::Sub, Triple[0], Rank);
    FormulaRef Step = Q.Arena.constant(Up ? Stride.Value : -Stride.Value);
    return Q.Arena.conjoin(In, Q.Arena.compare(FormulaOp::Eq,
                                               Q.Arena.arithmetic(FormulaOp::Rem, Offset, Step),
                                               Q.Arena.constant(0)));
  }

  /// The first \p Needed elements of the local array \p List hands
  /// \p Built, as straight-line code before the call leaves them: the
  /// closest `list[k] = v;` on the single path back to the declaration,
  /// else the initializer. nullopt when another statement may write the
  /// array there, or the path back merges paths first.
  std::optional<std::vector<FormulaRef>> elements(const Expr *List, const CallExpr *Built,
                                                  uint64_t Needed) {
    const VarDecl *Array = referredVariable(List);
    const ASTContext &Context = Q.Function.context();
    std::vector<uint64_t> Dims =
        Array ? extents(Array->getType(), Context) : std::vector<uint64_t>{};
    if (Dims.empty() || !Array->hasLocalStorage() || !startsArray(List, Array))
      return std::nullopt;
    std::vector<std::optional<FormulaRef>> Found(Needed);
    uint64_t Missing = Needed;
    auto [Block, Index] = position(Built);
    llvm::DenseSet<const CFGBlock *> Walked;
    while (Block && Missing) {
      for (unsigned I = Index; I-- > 0 && Missing;) {
        std::optional<CFGStmt> Element = (*Block)[I].getAs<CFGStmt>();
        const Stmt *S = Element ? Element->getStmt() : nullptr;
        if (const auto *Decl = dyn_cast_or_null<DeclStmt>(S);
            Decl && llvm::is_contained(Decl->decls(), Array))
          return fromInitializer(Array, Dims, Found);
        if (!S || !mayWrite(S, Array))
          continue;
        const auto *Assign = dyn_cast<BinaryOperator>(S);
        std::optional<uint64_t> At = Assign && Assign->getOpcode() == BO_Assign
                                         ? flatIndex(Assign->getLHS(), Array, Dims, Context)
                                         : std::nullopt;
        if (!At)
          return std::nullopt;
        if (*At < Needed && !Found[*At]) {
          Found[*At] = Q.Conditions.expression(Assign->getRHS());
          --Missing;
        }
      }
      const CFGBlock *Pred =
          Block->pred_size() == 1 ? Block->pred_begin()->getReachableBlock() : nullptr;
      if (!Missing || !Pred || !Walked.insert(Pred).second)
        break;
      Block = Pred;
      Index = Pred->size();
    }
    if (Missing)
      return std::nullopt;
    std::vector<FormulaRef> Values;
    for (const std::optional<FormulaRef> &Value : Found)
      Values.push_back(*Value);
    return Values;
  }

  /// Whether \p List hands the array from its first element on.
  static bool startsArray(const Expr *List, const VarDecl *Array) {
    const Expr *E = List->IgnoreParenCasts();
    if (const auto *Unary = dyn_cast<UnaryOperator>(E); Unary && Unary->getOpcode() == UO_AddrOf)
      E = Unary->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E)) {
      const auto *Zero = dyn_cast<IntegerLiteral>(Subscript->getIdx()->IgnoreParenImpCasts());
      if (!Zero || Zero->getValue() != 0)
        return false;
      E = Subscript->getBase()->IgnoreParenImpCasts();
    }
    const auto *Ref = dyn_cast<DeclRefExpr>(E);
    return Ref && Ref->getDecl() == Array;
  }

  /// The elements still missing, from the declaration's initializer.
  std::optional<std::vector<FormulaRef>>
  fromInitializer(const VarDecl *Array, const std::vector<uint64_t> &Dims,
                  const std::vector<std::optional<FormulaRef>> &Found) {
    std::vector<FormulaRef> Values;
    for (uint64_t At = 0; At < Found.size(); ++At) {
      if (Found[At]) {
        Values.push_back(*Found[At]);
        continue;
      }
      std::optional<const Expr *> Init = initialElement(Array->getInit(), Dims, At);
      if (!Init)
        return std::nullopt;
      Values.push_back(*Init ? Q.Conditions.expression(*Init) : Q.Arena.constant(0));
    }
    return Values;
  }

  /// Whether the statement \p S may change an element of \p Array: an
  /// assignment to one, `++`/`--` of one, or a call handed its address.
  static bool mayWrite(const Stmt *S, const VarDecl *Array) {
    if (const auto *Assign = dyn_cast<BinaryOperator>(S))
      return Assign->isAssignmentOp() && referredVariable(Assign->getLHS()) == Array;
    if (const auto *Unary = dyn_cast<UnaryOperator>(S))
      return Unary->isIncrementDecrementOp() && referredVariable(Unary->getSubExpr()) == Array;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      return llvm::any_of(Call->arguments(), [&](const Expr *Arg) {
        const auto *Read = dyn_cast<ImplicitCastExpr>(Arg->IgnoreParens());
        return !(Read && Read->getCastKind() == CK_LValueToRValue) &&
               referredVariable(Arg) == Array;
      });
    return false;
  }

  std::pair<const CFGBlock *, unsigned> position(const Stmt *S) const {
    for (const CFGBlock *Block : Q.Function.cfg())
      for (unsigned I = 0; I < Block->size(); ++I)
        if (std::optional<CFGStmt> Element = (*Block)[I].getAs<CFGStmt>();
            Element && Element->getStmt() == S)
          return {Block, I};
    return {nullptr, 0};
  }

  const GroupMembersQuery &Q;
  bool &TooLong;
};

} // namespace

std::optional<FormulaRef> groupMembers(const GroupMembersQuery &Query, const Expr *Group,
                                       const Expr *Comm, bool &TooLong) {
  return GroupReader(Query, TooLong).members(Group, Comm);
}

} // namespace lockstep::analysis
