#include "ErrorPaths.h"
#include "CallSite.h"
#include "CalleesFirst.h"
#include "Exceptions.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace lockstep::analysis {
using namespace clang;

namespace {

/// Leaves the function: return, throw, a call that does not return, or a
/// goto forward (to the cleanup before a return). Not break or continue:
/// the loop's other iterations still run.
bool leavesFunction(const CFGBlock &Block, const SourceManager &SM) {
  const Stmt *Leaving = leavingStatement(Block);
  if (const auto *Goto = dyn_cast_or_null<GotoStmt>(Leaving))
    return Goto->getLabel()->getStmt() &&
           SM.isBeforeInTranslationUnit(Goto->getGotoLoc(),
                                        Goto->getLabel()->getStmt()->getBeginLoc());
  return Leaving && !isa<BreakStmt, ContinueStmt, IndirectGotoStmt>(Leaving);
}

} // namespace

ErrorPaths::ErrorPaths(const CallClassifier &Classifier,
                       const llvm::DenseMap<const FunctionDecl *, const FunctionCFG *> &Functions,
                       PathOptions Options)
    : Classifier(Classifier), Functions(Functions), Options(Options),
      Ends(Classifier, Functions, Options.AssertionsAsExits) {}

ErrorPaths::~ErrorPaths() = default;

bool ErrorPaths::follows(const FunctionCFG &Function, const CFGBlock &Block, unsigned Index) {
  return keeps(cutsOf(Function), Block, Index);
}

bool ErrorPaths::keeps(const Cuts &C, const CFGBlock &Block, unsigned Index) {
  if (auto It = C.FailingEdge.find(Block.getBlockID()); It != C.FailingEdge.end())
    return It->second != Index;
  const CFGBlock *Target = std::next(Block.succ_begin(), Index)->getReachableBlock();
  return !Target || !C.JobEnds.test(Target->getBlockID());
}

bool ErrorPaths::passesStatusCheck(const FunctionCFG &Function, const CFGBlock &Block,
                                   unsigned Index) {
  const Cuts &C = cutsOf(Function);
  auto It = C.FailingEdge.find(Block.getBlockID());
  return It != C.FailingEdge.end() && It->second != Index;
}

bool ErrorPaths::onErrorPath(const FunctionCFG &Function, const CFGBlock &Block) {
  return cutsOf(Function).Dropped.test(Block.getBlockID());
}

/// Whether \p Arm leaves as code does when all went well: `continue`,
/// `break`, `return;`, or a return of 0 or false, and runs nothing else
/// first; not with an error code or a `goto`.
static bool answersNormally(const CFGBlock &Arm, const ASTContext &Context) {
  const bool Jumps = isa_and_nonnull<ContinueStmt, BreakStmt>(Arm.getTerminatorStmt());
  const ReturnStmt *Return = nullptr;
  for (const CFGElement &Element : Arm) {
    if (Element.getAs<CFGLifetimeEnds>() || Element.getAs<CFGScopeEnd>())
      continue; // no code runs there
    auto S = Element.getAs<CFGStmt>();
    if (!S || Jumps || Return || isa<CallExpr>(S->getStmt()))
      return false;
    Return = dyn_cast<ReturnStmt>(S->getStmt());
  }
  if (Jumps)
    return true;
  if (!Return)
    return false;
  const Expr *Value = Return->getRetValue();
  if (!Value)
    return true;
  std::optional<llvm::APSInt> Constant = Value->getIntegerConstantExpr(Context);
  return Constant && Constant->isZero();
}

const ErrorPaths::Cuts &ErrorPaths::cutsOf(const FunctionCFG &Function) {
  if (auto It = CutsByFunction.find(&Function); It != CutsByFunction.end())
    return It->second;
  const CFG &Graph = Function.cfg();
  Cuts Result;
  Result.JobEnds.resize(Graph.getNumBlockIDs());
  for (const CFGBlock *Block : Graph) {
    if (Ends.endsJob(*Block))
      Result.JobEnds.set(Block->getBlockID());
    // An exception that no handler of the try takes leaves the function:
    // uncaught, it ends the process and mpirun the job. The handlers are
    // what the ranks that throw run.
    if (isa_and_nonnull<CXXTryStmt>(Block->getTerminatorStmt()) && Block->succ_size() > 1) {
      const CFGBlock *Last = std::prev(Block->succ_end())->getReachableBlock();
      if (Last && !isa_and_nonnull<CXXCatchStmt>(Last->getLabel()))
        Result.FailingEdge[Block->getBlockID()] = Block->succ_size() - 1;
      continue;
    }
    if (Options.ErrorPathsAsExits || Block->succ_size() != 2 || isLoopBranch(*Block) ||
        exceptionalCall(*Block))
      continue;
    const Expr *Condition = decidingCondition(*Block);
    bool Reading = false;
    std::optional<unsigned> Arm =
        Condition ? failingArm(Condition, *Block, Function.decl(), &Reading) : std::nullopt;
    const CFGBlock *Target =
        Arm ? std::next(Block->succ_begin(), *Arm)->getReachableBlock() : nullptr;
    // A file opened for reading that is not there is an answer where the
    // code takes it as one (`if (!f) return 0;`, a restart file a rank may
    // not have): the rank decides for itself, no error stops the job.
    if (Target && Reading && answersNormally(*Target, Function.context()))
      continue;
    if (Target && leavesBeforeJoin(Function, *Block, *Target))
      Result.FailingEdge[Block->getBlockID()] = *Arm;
  }
  // What runs only on the cut paths: reached in the whole graph, not without them.
  Result.Dropped.resize(Graph.getNumBlockIDs());
  if (!Result.FailingEdge.empty() || Result.JobEnds.any()) {
    auto Kept = [&](const CFGBlock &Block, unsigned Index) { return keeps(Result, Block, Index); };
    Result.Dropped = reachedFromEntry(Graph, [](const CFGBlock &, unsigned) { return true; });
    Result.Dropped.reset(reachedFromEntry(Graph, Kept));
  }
  return CutsByFunction[&Function] = std::move(Result);
}

bool ErrorPaths::leavesBeforeJoin(const FunctionCFG &Function, const CFGBlock &Branch,
                                  const CFGBlock &Target) {
  const CFGBlock *Join = Function.immediatePostDominator(&Branch);
  const SourceManager &SM = Function.context().getSourceManager();
  llvm::BitVector Seen(Function.cfg().getNumBlockIDs());
  std::vector<const CFGBlock *> Work{&Target};
  while (!Work.empty()) {
    const CFGBlock *Block = Work.back();
    Work.pop_back();
    if (Block == Join)
      return false;
    if (Seen.test(Block->getBlockID()))
      continue;
    Seen.set(Block->getBlockID());
    if (leavesFunction(*Block, SM))
      continue;
    for (const CFGBlock::AdjacentBlock &Succ : Block->succs())
      if (const CFGBlock *Next = Succ.getReachableBlock())
        Work.push_back(Next);
  }
  return true;
}

// The arm (0: true, 1: false) taken when the status \p Condition tests
// reports a failure.
std::optional<unsigned> ErrorPaths::failingArm(const Expr *Condition, const CFGBlock &Block,
                                               const FunctionDecl *FD, bool *OpensForReading) {
  ASTContext &Context = FD->getASTContext();
  bool TrueFails = true;
  const Expr *E = ignoreBranchHints(Condition);
  for (const auto *Not = dyn_cast<UnaryOperator>(E); Not && Not->getOpcode() == UO_LNot;
       Not = dyn_cast<UnaryOperator>(E)) {
    TrueFails = !TrueFails;
    E = ignoreBranchHints(Not->getSubExpr());
  }
  auto Arm = [&] { return TrueFails ? 0u : 1u; };
  const auto *Compare = dyn_cast<BinaryOperator>(E);
  if (!Compare || !Compare->isEqualityOp()) {
    // `if (err)` is true when it failed; `if (p)` and `if (ok)`, of a
    // `bool` whose success is true (`work->wait()`), when it succeeded.
    std::optional<StatusValue> Status = statusOf(E, FD, nullptr);
    if (!Status)
      Status = assignedJustBefore(E, Block);
    if (!Status)
      return std::nullopt;
    const bool TrueSucceeds =
        Status->Fails || (Status->Value == 1 && E->getType()->isBooleanType());
    if (!TrueSucceeds && Status->Value != 0)
      return std::nullopt;
    if (TrueSucceeds)
      TrueFails = !TrueFails;
    if (OpensForReading)
      *OpensForReading = Status->OpensForReading;
    return Arm();
  }
  for (auto [Value, Other] : {std::pair(Compare->getLHS(), Compare->getRHS()),
                              std::pair(Compare->getRHS(), Compare->getLHS())}) {
    std::optional<StatusValue> Status = statusOf(Value, FD, nullptr);
    if (!Status)
      Status = assignedJustBefore(Value, Block);
    if (!Status)
      continue;
    if (Status->Fails) { // `p == nullptr`, `p != NULL`
      if (!Other->isNullPointerConstant(Context, Expr::NPC_ValueDependentIsNotNull))
        continue;
    } else {
      std::optional<llvm::APSInt> Constant = Other->getIntegerConstantExpr(Context);
      if (!Constant || Status->Value != Constant->getExtValue())
        continue;
    }
    // Comparing equal to the success value passes, to the failure value fails.
    if ((Compare->getOpcode() == BO_EQ) != Status->Fails)
      TrueFails = !TrueFails;
    if (OpensForReading)
      *OpensForReading = Status->OpensForReading;
    return Arm();
  }
  return std::nullopt;
}

/// Whether \p Condition tests a pointer for null (`(*p = calloc(n, s)) ==
/// NULL`, `!p`): a failed allocation, which any rank may meet.
static bool testsForNull(const Expr *Condition, ASTContext &Context) {
  Condition = Condition->IgnoreParenImpCasts();
  auto IsNull = [&](const Expr *E) {
    return E->isNullPointerConstant(Context, Expr::NPC_ValueDependentIsNotNull) !=
           Expr::NPCK_NotNull;
  };
  if (const auto *Compare = dyn_cast<BinaryOperator>(Condition); Compare && Compare->isEqualityOp())
    return IsNull(Compare->getLHS()) || IsNull(Compare->getRHS());
  if (const auto *Not = dyn_cast<UnaryOperator>(Condition); Not && Not->getOpcode() == UO_LNot)
    Condition = Not->getSubExpr()->IgnoreParenImpCasts();
  return Condition->getType()->isPointerType();
}

/// Whether \p E is one of some constants: a constant, an allocation's
/// outcome (PETSc's `PetscMalloc1`: `(*p = calloc(n, s)) == NULL ?
/// PETSC_ERR_MEM : 0`), or a comma expression that ends in one
/// (`PetscFree`: `(free(p), p = NULL, 0)`). A choice on anything else
/// (`rank >= 4 ? 1 : 0`) is a decision, not a status.
static bool constantValued(const Expr *E, ASTContext &Context) {
  std::vector<const Expr *> Work{E};
  while (!Work.empty()) {
    const Expr *Value = Work.back()->IgnoreParenCasts();
    Work.pop_back();
    if (const auto *Choice = dyn_cast<ConditionalOperator>(Value);
        Choice && testsForNull(Choice->getCond(), Context)) {
      Work.push_back(Choice->getTrueExpr());
      Work.push_back(Choice->getFalseExpr());
    } else if (const auto *Comma = dyn_cast<BinaryOperator>(Value);
               Comma && Comma->getOpcode() == BO_Comma) {
      Work.push_back(Comma->getRHS());
    } else if (!Value->isIntegerConstantExpr(Context)) {
      return false;
    }
  }
  return true;
}

// A status: the result of a status call, a parameter of a status type
// (`void check(ncclResult_t r)`), or a local written only from status calls
// of one success value and from constants.
std::optional<StatusValue> ErrorPaths::statusOf(const Expr *E, const FunctionDecl *FD,
                                                std::vector<const FunctionDecl *> *Missing) {
  if (std::optional<StatusValue> Direct = callStatus(E, Missing))
    return Direct;
  const VarDecl *Var = localVariable(E->IgnoreParenCasts());
  if (isa_and_nonnull<ParmVarDecl>(Var))
    if (std::optional<int64_t> Success = Classifier.statusTypeSuccess(Var->getType()))
      return StatusValue{*Success, /*Fails=*/false};
  if (!Var || isa<ParmVarDecl>(Var))
    return std::nullopt;
  const LocalWrites &Body = writesOf(FD);
  auto Writes = Body.Writes.find(Var);
  if (Body.Opaque.count(Var) || Writes == Body.Writes.end())
    return std::nullopt;
  std::optional<StatusValue> Success;
  ASTContext &Context = FD->getASTContext();
  for (const Expr *Write : Writes->second) {
    if (constantValued(Write, Context) ||
        Write->isNullPointerConstant(Context, Expr::NPC_ValueDependentIsNotNull))
      continue; // `int err = MPI_SUCCESS;`, `FILE *f = nullptr;`
    std::optional<StatusValue> Written = callStatus(Write, Missing);
    if (!Written || (Success && *Success != *Written))
      return std::nullopt;
    Success = Written;
  }
  return Success;
}

/// Whether two indices are the same as written: one variable, or one constant.
static bool sameIndex(const Expr *A, const Expr *B) {
  A = A->IgnoreParenImpCasts();
  B = B->IgnoreParenImpCasts();
  const auto *RefA = dyn_cast<DeclRefExpr>(A), *RefB = dyn_cast<DeclRefExpr>(B);
  if (RefA && RefB)
    return RefA->getDecl() == RefB->getDecl();
  const auto *ConstA = dyn_cast<IntegerLiteral>(A), *ConstB = dyn_cast<IntegerLiteral>(B);
  return ConstA && ConstB && ConstA->getValue() == ConstB->getValue();
}

/// Whether two lvalues name the same storage as written: `a->names`, `s.buf`,
/// `bufs[2]`, `bufs[i]`.
static bool sameStorage(const Expr *A, const Expr *B) {
  while (true) {
    A = A->IgnoreParenImpCasts();
    B = B->IgnoreParenImpCasts();
    if (A->getStmtClass() != B->getStmtClass())
      return false;
    if (const auto *RefA = dyn_cast<DeclRefExpr>(A))
      return RefA->getDecl() == cast<DeclRefExpr>(B)->getDecl();
    if (const auto *MemberA = dyn_cast<MemberExpr>(A)) {
      const auto *MemberB = cast<MemberExpr>(B);
      if (MemberA->getMemberDecl() != MemberB->getMemberDecl() ||
          MemberA->isArrow() != MemberB->isArrow())
        return false;
      A = MemberA->getBase();
      B = MemberB->getBase();
    } else if (const auto *ElementA = dyn_cast<ArraySubscriptExpr>(A)) {
      const auto *ElementB = cast<ArraySubscriptExpr>(B);
      if (!sameIndex(ElementA->getIdx(), ElementB->getIdx()))
        return false;
      A = ElementA->getBase();
      B = ElementB->getBase();
    } else {
      return false;
    }
  }
}

// A field or element tested right after a status call was stored in it, in
// the same block with no call in between (`a->names = malloc(n); if
// (a->names == NULL) return -1;`).
std::optional<StatusValue> ErrorPaths::assignedJustBefore(const Expr *E, const CFGBlock &Block) {
  E = E->IgnoreParenImpCasts();
  const Expr *Condition = decidingCondition(Block);
  if (!isa<MemberExpr, ArraySubscriptExpr>(E) || !Condition)
    return std::nullopt;
  llvm::SmallPtrSet<const Stmt *, 16> Test; // the condition's own parts, evaluated last
  forEachStmtInOrder(Condition, [&](const Stmt *S) { Test.insert(S); });
  for (const CFGElement &Element : llvm::reverse(Block)) {
    auto S = Element.getAs<CFGStmt>();
    if (!S)
      return std::nullopt; // a destructor, a lifetime's end: code that may write
    if (Test.count(S->getStmt()))
      continue;
    const auto *Assign = dyn_cast<BinaryOperator>(S->getStmt());
    if (Assign && Assign->getOpcode() == BO_Assign)
      return sameStorage(Assign->getLHS(), E) ? callStatus(Assign->getRHS(), nullptr)
                                              : std::nullopt;
    const auto *Step = dyn_cast<UnaryOperator>(S->getStmt());
    if ((Assign && Assign->isCompoundAssignmentOp()) || (Step && Step->isIncrementDecrementOp()) ||
        isa<CallExpr, CXXConstructExpr, CXXNewExpr, CXXDeleteExpr>(S->getStmt()))
      return std::nullopt;
  }
  return std::nullopt;
}

/// Whether \p Call passes a mode that reads as its second argument, where
/// the C library's opens take it (`fopen(path, "rb")`, `popen(cmd, "r")`).
static bool opensForReading(const CallExpr &Call) {
  const auto *Mode = Call.getNumArgs() > 1
                         ? dyn_cast<StringLiteral>(Call.getArg(1)->IgnoreParenImpCasts())
                         : nullptr;
  return Mode && Mode->getCharByteWidth() == 1 && Mode->getString().starts_with("r");
}

std::optional<StatusValue> ErrorPaths::callStatus(const Expr *E,
                                                  std::vector<const FunctionDecl *> *Missing) {
  E = E->IgnoreParenCasts();
  // `(err = f()) != 0` tests what f returned.
  for (const auto *Assign = dyn_cast<BinaryOperator>(E); Assign && Assign->getOpcode() == BO_Assign;
       Assign = dyn_cast<BinaryOperator>(E))
    E = Assign->getRHS()->IgnoreParenCasts();
  const auto *Call = dyn_cast<CallExpr>(E);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee)
    return std::nullopt;
  std::optional<StatusValue> Status = calleeStatus(Callee, Missing);
  if (Status && Status->Fails)
    Status->OpensForReading = opensForReading(*Call);
  return Status;
}

// The rules' status results, then the functions of this file that return
// only statuses and constants (`int work(...) { NCCLCHECK(...); return 0; }`).
std::optional<StatusValue> ErrorPaths::calleeStatus(const FunctionDecl *Callee,
                                                    std::vector<const FunctionDecl *> *Missing) {
  const CalleeRole &Role = Classifier.classify(Callee);
  if (Role.StatusSuccess)
    return StatusValue{*Role.StatusSuccess, /*Fails=*/false};
  if (Role.NullFails)
    return StatusValue{0, /*Fails=*/true};
  const FunctionDecl *Key = Callee->getCanonicalDecl();
  if (!Functions.count(Key) || !Callee->getReturnType()->isIntegralOrEnumerationType())
    return std::nullopt;
  if (auto Known = Returned.find(Key); Known != Returned.end())
    return Known->second;
  if (Deciding.count(Key))
    return std::nullopt; // recursion: not a status
  if (Missing) {
    Missing->push_back(Key);
    return std::nullopt;
  }
  decideCalleesFirst(Key, Returned, Deciding,
                     [&](const FunctionDecl *F, std::vector<const FunctionDecl *> &Needed) {
                       return summarise(F, Needed);
                     });
  return Returned.lookup(Key);
}

std::optional<StatusValue> ErrorPaths::summarise(const FunctionDecl *FD,
                                                 std::vector<const FunctionDecl *> &Missing) {
  std::optional<StatusValue> Success;
  for (const Expr *Value : writesOf(FD).Returns) {
    if (!Value)
      return std::nullopt;
    if (constantValued(Value, FD->getASTContext()))
      continue;
    std::optional<StatusValue> Returns = statusOf(Value, FD, &Missing);
    if (!Returns || (Success && *Success != *Returns))
      return std::nullopt;
    Success = Returns;
  }
  return Success;
}

const LocalWrites &ErrorPaths::writesOf(const FunctionDecl *FD) {
  std::unique_ptr<LocalWrites> &Slot = Writes[FD->getCanonicalDecl()];
  if (!Slot)
    Slot = std::make_unique<LocalWrites>(LocalWrites::of(FD));
  return *Slot;
}

} // namespace lockstep::analysis
