#include "GroupMembers.h"

#include "CallSite.h"
#include "Limits.h"

#include "llvm/ADT/DenseSet.h"

namespace lockstep::analysis {
using namespace clang;
using Members = rules::RankSetRule::Members;

/// The extents of a constant array of `int`, outermost first (`int r[1][3]`:
/// 1, 3); empty for anything else, and for an array with no elements.
static std::vector<uint64_t> extents(QualType Type, const ASTContext &Context) {
  std::vector<uint64_t> Dims;
  while (const auto *Array = Context.getAsConstantArrayType(Type)) {
    Dims.push_back(Array->getSize().getZExtValue());
    if (Dims.back() == 0)
      return {};
    Type = Array->getElementType();
  }
  return Context.hasSameUnqualifiedType(Type, Context.IntTy) ? Dims : std::vector<uint64_t>{};
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
/// \p Dims (none zero): the expression, null for an element the list leaves
/// zero, or nullopt when the initializer is no (nested) list.
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

/// Whether \p List hands the whole array \p Array from its first element
/// (`ranks`, `range`, `&range[0]`, `(void *)&range`).
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

/// The variable whose address \p E takes (`&g`), or null.
static const VarDecl *addressed(const Expr *E) {
  const DeclRefExpr *Ref = addressTaken(E);
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

/// The root of \p E when it is `Var` itself or its element, as read or
/// written in place (not `&`, no decay into a pointer).
static const DeclRefExpr *rootOf(const Expr *E) {
  E = E->IgnoreParens();
  while (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E))
    E = Subscript->getBase()->IgnoreParenImpCasts();
  return dyn_cast<DeclRefExpr>(E);
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

  std::optional<FormulaRef> members(const Expr *Group, const CallExpr *Created, const Expr *Comm) {
    const CallExpr *Built = builder(Group, Created);
    if (!Built)
      return std::nullopt;
    const rules::RankSetRule &Rule = *Q.Classifier.classify(Built->getDirectCallee()).RankSet;
    const Expr *Source = Built->getArg(Rule.Source);
    if (Rule.Of == Members::All)
      return ofCommunicator(Source, Comm) ? std::optional(Q.Arena.truth()) : std::nullopt;
    // Ranks listed in a group of all of `comm`'s members are ranks in `comm`.
    const CallExpr *Whole = builder(Source, Built);
    const rules::RankSetRule *WholeRule =
        Whole ? Q.Classifier.classify(Whole->getDirectCallee()).RankSet : nullptr;
    if (!WholeRule || WholeRule->Of != Members::All ||
        !ofCommunicator(Whole->getArg(WholeRule->Source), Comm))
      return std::nullopt;
    return listed(Rule, Built);
  }

private:
  /// The rank_sets call that last wrote the group \p Group names before
  /// \p Reader reads it, on the one path back to it; null when the path
  /// merges first, or another write (an assignment, a call handed `&g`, the
  /// declaration) comes first, or the group's address is kept anywhere.
  const CallExpr *builder(const Expr *Group, const CallExpr *Reader) {
    const auto *Var = dyn_cast_or_null<VarDecl>(namedStorage(Group));
    if (!Var || !Var->hasLocalStorage() || Var->isStaticLocal() ||
        Var->getType()->isReferenceType() || !onlyInPlace(Var))
      return nullptr;
    const CallExpr *Found = nullptr;
    walkBack(Reader, [&](const Stmt *S) {
      if (const auto *Decl = dyn_cast<DeclStmt>(S))
        return !llvm::is_contained(Decl->decls(), Var);
      if (const auto *Assign = dyn_cast<BinaryOperator>(S))
        return !(Assign->isAssignmentOp() && rootOf(Assign->getLHS()) &&
                 rootOf(Assign->getLHS())->getDecl() == Var);
      const auto *Call = dyn_cast<CallExpr>(S);
      if (!Call ||
          llvm::none_of(Call->arguments(), [&](const Expr *Arg) { return addressed(Arg) == Var; }))
        return true;
      const FunctionDecl *Callee = Call->getDirectCallee();
      const rules::RankSetRule *Rule = Callee ? Q.Classifier.classify(Callee).RankSet : nullptr;
      if (Rule &&
          std::max({Rule->Source, Rule->NewSet, Rule->Count, Rule->Ranks}) < Call->getNumArgs() &&
          addressed(Call->getArg(Rule->NewSet)) == Var)
        Found = Call;
      return false;
    });
    return Found;
  }

  /// Whether every use of \p Var reads or writes it in place, or hands its
  /// address straight to a call: no pointer to it is kept.
  bool onlyInPlace(const VarDecl *Var) {
    unsigned Uses = 0, InPlace = 0;
    forEachStmtInOrder(Q.Function.decl()->getBody(), [&](const Stmt *S) {
      if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
        Uses += Ref->getDecl() == Var;
        return;
      }
      auto Count = [&](const DeclRefExpr *Ref) { InPlace += Ref && Ref->getDecl() == Var; };
      if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S);
          Cast && Cast->getCastKind() == CK_LValueToRValue)
        Count(rootOf(Cast->getSubExpr()));
      else if (const auto *Assign = dyn_cast<BinaryOperator>(S);
               Assign && Assign->getOpcode() == BO_Assign)
        Count(rootOf(Assign->getLHS()));
      else if (const auto *Call = dyn_cast<CallExpr>(S))
        for (const Expr *Arg : Call->arguments())
          if (addressed(Arg) == Var)
            ++InPlace;
    });
    return Uses == InPlace;
  }

  /// Calls \p Visit on each statement before \p From, nearest first, along
  /// the path back while it is the only one; \p Visit returns false to stop.
  template <typename VisitFn> void walkBack(const Stmt *From, VisitFn Visit) {
    auto [Block, Index] = position(From);
    llvm::DenseSet<const CFGBlock *> Walked;
    while (Block) {
      for (unsigned I = Index; I-- > 0;)
        if (std::optional<CFGStmt> Element = (*Block)[I].getAs<CFGStmt>())
          if (!Visit(Element->getStmt()))
            return;
      const CFGBlock *Pred =
          Block->pred_size() == 1 ? Block->pred_begin()->getReachableBlock() : nullptr;
      if (!Pred || !Walked.insert(Pred).second)
        return;
      Block = Pred;
      Index = Pred->size();
    }
  }

  std::pair<const CFGBlock *, unsigned> position(const Stmt *S) const {
    for (const CFGBlock *Block : Q.Function.cfg())
      for (unsigned I = 0; I < Block->size(); ++I)
        if (std::optional<CFGStmt> Element = (*Block)[I].getAs<CFGStmt>();
            Element && Element->getStmt() == S)
          return {Block, I};
    return {nullptr, 0};
  }

  /// Whether \p Source, the communicator a group of all members is taken
  /// from, is \p Comm and every rank of the job holds it: the ranks in it
  /// are those formulas name.
  bool ofCommunicator(const Expr *Source, const Expr *Comm) {
    const ValueDecl *Named = namedStorage(Comm->IgnoreParenCasts());
    return sameCommunicator(Source, Comm, Q.Function.context()) && !(Named && Q.IsSplit(Named));
  }

  std::optional<FormulaRef> listed(const rules::RankSetRule &Rule, const CallExpr *Built) {
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
  /// \p Built: the nearest `list[k] = v;` on the one path back, else the
  /// initializer. nullopt when the function uses the array otherwise than
  /// by reading or assigning its elements at constant indices and handing
  /// it to rank_sets calls, or the path back merges before every element is
  /// known.
  std::optional<std::vector<FormulaRef>> elements(const Expr *List, const CallExpr *Built,
                                                  uint64_t Needed) {
    const Expr *Peeled = List->IgnoreParenCasts();
    if (const auto *Unary = dyn_cast<UnaryOperator>(Peeled);
        Unary && Unary->getOpcode() == UO_AddrOf)
      Peeled = Unary->getSubExpr();
    const DeclRefExpr *Root = rootOf(Peeled->IgnoreParenImpCasts());
    const auto *Array = Root ? dyn_cast<VarDecl>(Root->getDecl()) : nullptr;
    const ASTContext &Context = Q.Function.context();
    std::vector<uint64_t> Dims =
        Array ? extents(Array->getType(), Context) : std::vector<uint64_t>{};
    uint64_t Size = Dims.empty() ? 0 : 1;
    for (uint64_t Dim : Dims)
      Size *= Dim;
    if (Needed > Size || !Array->hasLocalStorage() || Array->isStaticLocal() ||
        !startsArray(List, Array) || !elementsOnly(Array, Dims))
      return std::nullopt;
    std::vector<std::optional<FormulaRef>> Found(Needed);
    uint64_t Missing = Needed;
    bool Declared = false;
    walkBack(Built, [&](const Stmt *S) {
      if (const auto *Decl = dyn_cast<DeclStmt>(S);
          Decl && llvm::is_contained(Decl->decls(), Array)) {
        Declared = true;
        return false;
      }
      const auto *Assign = dyn_cast<BinaryOperator>(S);
      std::optional<uint64_t> At = Assign && Assign->getOpcode() == BO_Assign
                                       ? flatIndex(Assign->getLHS(), Array, Dims, Context)
                                       : std::nullopt;
      if (At && *At < Needed && !Found[*At]) {
        Found[*At] = Q.Conditions.expression(Assign->getRHS());
        --Missing;
      }
      return Missing > 0;
    });
    std::vector<FormulaRef> Values;
    for (uint64_t At = 0; At < Needed; ++At) {
      if (Found[At]) {
        Values.push_back(*Found[At]);
        continue;
      }
      std::optional<const Expr *> Init =
          Declared ? initialElement(Array->getInit(), Dims, At) : std::nullopt;
      if (!Init)
        return std::nullopt;
      Values.push_back(*Init ? Q.Conditions.expression(*Init) : Q.Arena.constant(0));
    }
    return Values;
  }

  /// Whether every use of \p Array reads or assigns one element at constant
  /// indices, or hands the array to a rank_sets call as its list (a read).
  bool elementsOnly(const VarDecl *Array, const std::vector<uint64_t> &Dims) {
    const ASTContext &Context = Q.Function.context();
    unsigned Uses = 0, Elements = 0;
    forEachStmtInOrder(Q.Function.decl()->getBody(), [&](const Stmt *S) {
      if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
        Uses += Ref->getDecl() == Array;
        return;
      }
      auto Element = [&](const Expr *E) { Elements += bool(flatIndex(E, Array, Dims, Context)); };
      if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S);
          Cast && Cast->getCastKind() == CK_LValueToRValue)
        Element(Cast->getSubExpr());
      else if (const auto *Assign = dyn_cast<BinaryOperator>(S);
               Assign && Assign->getOpcode() == BO_Assign)
        Element(Assign->getLHS());
      else if (const auto *Call = dyn_cast<CallExpr>(S)) {
        const FunctionDecl *Callee = Call->getDirectCallee();
        const rules::RankSetRule *Rule = Callee ? Q.Classifier.classify(Callee).RankSet : nullptr;
        Elements += Rule && Rule->Ranks < Call->getNumArgs() &&
                    startsArray(Call->getArg(Rule->Ranks), Array);
      }
    });
    return Uses == Elements;
  }

  const GroupMembersQuery &Q;
  bool &TooLong;
};

} // namespace

std::optional<FormulaRef> groupMembers(const GroupMembersQuery &Query, const Expr *Group,
                                       const CallExpr *Created, const Expr *Comm, bool &TooLong) {
  return GroupReader(Query, TooLong).members(Group, Created, Comm);
}

} // namespace lockstep::analysis
