#include "ReachingAssignments.h"
#include "CallSite.h"
#include "Limits.h"
#include "LocalWrites.h"

#include "clang/AST/ExprCXX.h"

namespace lockstep::analysis {
using namespace clang;

// What one read asks: the variable, the nodes made so far, and each
// block's value at its end (memoized: every path through a diamond asks for
// the blocks above it).
struct ReachingAssignments::Query {
  const VarDecl *Var = nullptr;
  std::vector<Node> Nodes;
  std::map<std::tuple<const Expr *, const CFGBlock *, unsigned, unsigned>, int> Made;
  llvm::DenseMap<const CFGBlock *, int> AtEnd;
  unsigned Merges = 0;
  bool Limited = false;

  int make(Node N) {
    auto [It, Inserted] = Made.try_emplace({N.Assigned, N.Branch, N.Then, N.Else}, 0);
    if (Inserted) {
      It->second = static_cast<int>(Nodes.size());
      Nodes.push_back(N);
    }
    return It->second;
  }
};

static constexpr int Unknown = -1;

ReachingAssignments::ReachingAssignments(const FunctionCFG &Function) : Function(Function) {
  collectCandidates();
  indexElements();
}

ReachingAssignments::~ReachingAssignments() = default;

bool arithmeticUpdate(const BinaryOperator *Assign) {
  switch (Assign->getOpcode()) {
  case BO_AddAssign:
  case BO_SubAssign:
  case BO_MulAssign:
  case BO_DivAssign:
  case BO_RemAssign:
    return true;
  default:
    return false;
  }
}

// Variables of integer type used only by plain reads and plain assignments:
// each of their values comes from an assignment the CFG shows.
void ReachingAssignments::collectCandidates() {
  llvm::DenseSet<const VarDecl *> Excluded;
  const FunctionDecl *FD = Function.decl();
  forEachStmtInOrder(FD->getBody(), [&](const Stmt *S) {
    const auto *Ref = dyn_cast<DeclRefExpr>(S);
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var))
      return;
    const Stmt *Use = Ref;
    const Stmt *Parent = Function.parents().getParent(Use);
    while (isa_and_nonnull<ParenExpr>(Parent)) {
      Use = Parent;
      Parent = Function.parents().getParent(Use);
    }
    const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Parent);
    const auto *Assign = dyn_cast_or_null<BinaryOperator>(Parent);
    bool Plain = (Cast && Cast->getCastKind() == CK_LValueToRValue) ||
                 (Assign && Assign->getLHS() == Use &&
                  (Assign->getOpcode() == BO_Assign || arithmeticUpdate(Assign)));
    QualType T = Var->getType();
    if (!Plain || Ref->refersToEnclosingVariableOrCapture() || Var->getDeclContext() != FD ||
        T.isVolatileQualified() || !(T->isIntegralOrEnumerationType() || T->isBooleanType()))
      Excluded.insert(Var);
    else
      Candidates.insert(Var);
  });
  for (const VarDecl *Var : Excluded)
    Candidates.erase(Var);
}

void ReachingAssignments::indexElements() {
  for (const CFGBlock *Block : Function.cfg()) {
    unsigned Index = 0;
    for (const CFGElement &Element : *Block) {
      if (auto S = Element.getAs<CFGStmt>()) {
        const Stmt *Statement = S->getStmt();
        Positions.try_emplace(Statement, Block, Index);
        const VarDecl *Var = nullptr;
        const Expr *Stored = nullptr;
        if (const auto *Assign = dyn_cast<BinaryOperator>(Statement);
            Assign && Assign->getOpcode() == BO_Assign) {
          Var = localVariable(Assign->getLHS());
          Stored = Assign->getRHS();
        } else if (Assign && arithmeticUpdate(Assign)) {
          Var = localVariable(Assign->getLHS());
          Stored = Assign; // `rows += 1`: the value before it, plus one
        } else if (const auto *Decl = dyn_cast<DeclStmt>(Statement); Decl && Decl->isSingleDecl()) {
          Var = dyn_cast<VarDecl>(Decl->getSingleDecl());
          Stored = Var ? Var->getInit() : nullptr;
        }
        if (Var && Candidates.count(Var)) {
          Stores[Statement] = {Var, Stored};
          std::vector<const CFGBlock *> &Blocks = AssignedIn[Var];
          if (Blocks.empty() || Blocks.back() != Block)
            Blocks.push_back(Block);
        }
      }
      ++Index;
    }
  }
}

// What \p S stores into \p Var: a pointer to the stored expression (itself
// null for a declaration without initializer), or null when \p S does not
// assign \p Var.
const Expr *const *ReachingAssignments::assignmentIn(const Stmt *S, const VarDecl *Var) const {
  auto It = Stores.find(S);
  return It != Stores.end() && It->second.first == Var ? &It->second.second : nullptr;
}

// Whether a path from \p From to \p To may assign \p Var in between (every
// block on such a path is one \p From dominates).
bool ReachingAssignments::assignedBetween(const VarDecl *Var, const CFGBlock *From,
                                          const CFGBlock *To) const {
  auto It = AssignedIn.find(Var);
  if (It == AssignedIn.end())
    return false;
  return llvm::any_of(It->second, [&](const CFGBlock *Block) {
    return Block != From && Function.dominators().dominates(From, Block) &&
           !Function.dominators().dominates(To, Block);
  });
}

bool ReachingAssignments::assignedInLoopOf(const VarDecl *Var, const CFGBlock *Header) const {
  auto It = AssignedIn.find(Var);
  return It != AssignedIn.end() && llvm::any_of(It->second, [&](const CFGBlock *Block) {
           return Function.dominators().dominates(Header, Block);
         });
}

// A loop entered at more than one block (`goto` into its middle): walks that
// move to dominators would step over the assignments it makes, as no block
// heads it.
bool ReachingAssignments::hasIrreducibleLoop() const {
  for (const CFGBlock *Block : Function.reversePostOrder())
    for (const CFGBlock::AdjacentBlock &Succ : Block->succs())
      if (const CFGBlock *Target = Succ.getReachableBlock();
          Target && Function.rpoIndex(Target) <= Function.rpoIndex(Block) &&
          !Function.dominators().dominates(Target, Block))
        return true;
  return false;
}

const CFGBlock *
ReachingAssignments::nearestCommonDominator(const std::vector<const CFGBlock *> &Blocks) const {
  CFGBlock *Common = const_cast<CFGBlock *>(Blocks.front());
  for (const CFGBlock *Block : Blocks)
    if (Common)
      Common = Function.dominators().getBase().findNearestCommonDominator(
          Common, const_cast<CFGBlock *>(Block));
  return Common;
}

std::vector<ReachingAssignments::Node> ReachingAssignments::of(const DeclRefExpr *Read,
                                                               bool &Limited) {
  const auto *Var = dyn_cast<VarDecl>(Read->getDecl());
  if (!Var || !Candidates.count(Var))
    return {};
  // The element that reads it: the reference itself, or what contains it.
  const Stmt *At = Read;
  auto Position = Positions.find(At);
  for (unsigned Steps = 0; Position == Positions.end() && At && Steps < 8; ++Steps) {
    At = Function.parents().getParent(At);
    Position = At ? Positions.find(At) : Positions.end();
  }
  if (Position == Positions.end())
    return {};
  if (!Irreducible)
    Irreducible = hasIrreducibleLoop();
  if (*Irreducible)
    return {};
  Query Q;
  Q.Var = Var;
  int Root = valueBefore(Q, Position->second.first, Position->second.second);
  Limited = Limited || Q.Limited;
  if (Root == Unknown)
    return {};
  // Only the nodes the root reaches, children first.
  std::vector<Node> Reached;
  std::vector<int> Renumbered(Q.Nodes.size(), Unknown);
  std::vector<std::pair<int, bool>> Work{{Root, false}};
  while (!Work.empty()) {
    auto [Index, Expanded] = Work.back();
    Work.pop_back();
    if (Renumbered[Index] != Unknown)
      continue;
    Node N = Q.Nodes[Index];
    if (N.Branch && !Expanded) {
      Work.push_back({Index, true});
      Work.push_back({static_cast<int>(N.Else), false});
      Work.push_back({static_cast<int>(N.Then), false});
      continue;
    }
    if (N.Branch) {
      N.Then = Renumbered[N.Then];
      N.Else = Renumbered[N.Else];
    }
    Renumbered[Index] = static_cast<int>(Reached.size());
    Reached.push_back(N);
  }
  return Reached;
}

// The value \p Q's variable has before element \p Before of \p Block. A run
// of blocks with one predecessor, or a diamond that does not assign it, is
// walked without recursion; only diamonds that assign it recurse, at most
// limits::MaxReachingBranches of them.
int ReachingAssignments::valueBefore(Query &Q, const CFGBlock *Block, unsigned Before) {
  while (true) {
    for (unsigned I = Before; I-- > 0;)
      if (auto S = (*Block)[I].getAs<CFGStmt>())
        if (const Expr *const *Stored = assignmentIn(S->getStmt(), Q.Var))
          return *Stored ? Q.make({*Stored, nullptr, 0, 0}) : Unknown;
    std::vector<const CFGBlock *> Forward;
    bool Loops = false;
    for (const CFGBlock::AdjacentBlock &Pred : Block->preds()) {
      const CFGBlock *P = Pred.getReachableBlock();
      if (!P || Function.rpoIndex(P) == ~0u)
        continue;
      if (Function.dominators().dominates(Block, P))
        Loops = true;
      else
        Forward.push_back(P);
    }
    if (Forward.empty() || (Loops && assignedInLoopOf(Q.Var, Block)))
      return Unknown;
    if (Forward.size() == 1) {
      Block = Forward.front();
      Before = Block->size();
      continue;
    }
    const CFGBlock *Common = nearestCommonDominator(Forward);
    if (!Common)
      return Unknown;
    if (!assignedBetween(Q.Var, Common, Block)) {
      Block = Common;
      Before = Common->size();
      continue;
    }
    return merge(Q, Block, std::move(Forward));
  }
}

int ReachingAssignments::valueAtEnd(Query &Q, const CFGBlock *Block) {
  auto [It, Inserted] = Q.AtEnd.try_emplace(Block, Unknown);
  if (Inserted) {
    int Value = valueBefore(Q, Block, Block->size());
    Q.AtEnd[Block] = Value; // the map may have grown meanwhile
    return Value;
  }
  return It->second;
}

// The value on entry to \p Block from \p Preds: the one they agree on, or
// the choice of the two-way branch that dominates them all, each of its
// edges leading to some of them (and only through that edge).
int ReachingAssignments::merge(Query &Q, const CFGBlock *Block,
                               std::vector<const CFGBlock *> Preds) {
  if (++Q.Merges > limits::MaxReachingBranches) {
    Q.Limited = true;
    return Unknown;
  }
  std::vector<int> Values;
  for (const CFGBlock *P : Preds) {
    Values.push_back(valueAtEnd(Q, P));
    if (Values.back() == Unknown)
      return Unknown;
  }
  if (llvm::all_equal(Values))
    return Values.front();
  const CFGBlock *Branch = nearestCommonDominator(Preds);
  if (!Branch || Branch->succ_size() != 2 || !decidingCondition(*Branch) || isLoopBranch(*Branch))
    return Unknown;
  std::vector<const CFGBlock *> Sides[2];
  for (const CFGBlock *P : Preds) {
    int Side = Unknown;
    for (unsigned K = 0; K < 2; ++K) {
      const CFGBlock *Succ = (Branch->succ_begin() + K)->getReachableBlock();
      if (!Succ)
        continue;
      bool Through = Succ == Block
                         ? P == Branch
                         : Succ->pred_size() == 1 && Function.dominators().dominates(Succ, P);
      if (Through)
        Side = Side == Unknown ? static_cast<int>(K) : Unknown - 1;
    }
    if (Side < 0)
      return Unknown;
    Sides[Side].push_back(P);
  }
  if (Sides[0].empty() || Sides[1].empty())
    return Unknown;
  int Then = Sides[0].size() == 1 ? valueAtEnd(Q, Sides[0].front()) : merge(Q, Block, Sides[0]);
  int Else = Sides[1].size() == 1 ? valueAtEnd(Q, Sides[1].front()) : merge(Q, Block, Sides[1]);
  if (Then == Unknown || Else == Unknown)
    return Unknown;
  return Q.make({nullptr, Branch, static_cast<unsigned>(Then), static_cast<unsigned>(Else)});
}

} // namespace lockstep::analysis
