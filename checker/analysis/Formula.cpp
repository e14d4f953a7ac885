#include "Formula.h"
#include "Limits.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>

namespace lockstep::analysis {

namespace {

// C's int: arithmetic wraps at 32 bits, as the solver's bit-vectors do.
int64_t wrap32(int64_t V) { return static_cast<int32_t>(static_cast<uint32_t>(V)); }

// Values that tell symbols apart in common tests (zero, one, small counts,
// a large bound, negative).
constexpr int64_t CommonSamples[] = {0, 1, 2, 3, 4, 5, 7, 64, 1000, -1};

} // namespace

FormulaArena::FormulaArena() {
  TrueRef = make({FormulaOp::True, true});
  FalseRef = make({FormulaOp::False, true});
}

FormulaRef FormulaArena::make(FormulaNode Node) {
  NodeKey Key{static_cast<uint8_t>(Node.Op), Node.Boolean, Node.Value, Node.A, Node.B, Node.C};
  auto [It, Inserted] = Unique.try_emplace(Key, static_cast<FormulaRef>(Nodes.size()));
  if (Inserted) {
    switch (Node.Op) {
    case FormulaOp::Rank:
    case FormulaOp::PerRank:
      Node.RankFree = false;
      break;
    case FormulaOp::InRank1:
    case FormulaOp::InRank2:
      break;
    default: // unused operands are 0, the rank-free `true`
      Node.RankFree = isLeaf(Node.Op) ||
                      (Nodes[Node.A].RankFree && Nodes[Node.B].RankFree && Nodes[Node.C].RankFree);
    }
    Nodes.push_back(Node);
  }
  return It->second;
}

FormulaRef FormulaArena::constant(int64_t Value) {
  return make({FormulaOp::Const, false, wrap32(Value)});
}
FormulaRef FormulaArena::rank() { return make({FormulaOp::Rank, false}); }
FormulaRef FormulaArena::sizeSymbol() { return make({FormulaOp::Size, false}); }

FormulaRef FormulaArena::symbol(FormulaOp Op, const void *Key, bool Boolean) {
  unsigned Kind = (Op == FormulaOp::Uniform ? 2 : 0) | (Boolean ? 1 : 0);
  auto [It, Inserted] = SymbolIds.try_emplace({Key, Kind}, NextSymbol);
  if (Inserted)
    ++NextSymbol;
  return make({Op, Boolean, It->second});
}

FormulaRef FormulaArena::uniform(const void *Key, bool Boolean) {
  return symbol(FormulaOp::Uniform, Key, Boolean);
}
FormulaRef FormulaArena::perRank(const void *Key, bool Boolean) {
  return symbol(FormulaOp::PerRank, Key, Boolean);
}
FormulaRef FormulaArena::unknownPerRank(bool Boolean) {
  return make({FormulaOp::PerRank, Boolean, NextSymbol++});
}

FormulaRef FormulaArena::negate(FormulaRef F) {
  const FormulaNode &N = Nodes[F];
  if (F == TrueRef)
    return FalseRef;
  if (F == FalseRef)
    return TrueRef;
  if (N.Op == FormulaOp::Not)
    return N.A;
  if (N.Op == FormulaOp::Eq)
    return make({FormulaOp::Ne, true, 0, N.A, N.B});
  if (N.Op == FormulaOp::Ne)
    return make({FormulaOp::Eq, true, 0, N.A, N.B});
  return make({FormulaOp::Not, true, 0, F});
}

FormulaRef FormulaArena::conjoin(FormulaRef A, FormulaRef B) {
  if (A == FalseRef || B == FalseRef)
    return FalseRef;
  if (A == TrueRef || A == B)
    return B;
  if (B == TrueRef)
    return A;
  if (A > B)
    std::swap(A, B);
  return make({FormulaOp::And, true, 0, A, B});
}

FormulaRef FormulaArena::disjoin(FormulaRef A, FormulaRef B) {
  if (A == TrueRef || B == TrueRef)
    return TrueRef;
  if (A == FalseRef || A == B)
    return B;
  if (B == FalseRef)
    return A;
  if (A > B)
    std::swap(A, B);
  return make({FormulaOp::Or, true, 0, A, B});
}

FormulaRef FormulaArena::compare(FormulaOp Op, FormulaRef A, FormulaRef B) {
  const FormulaNode &X = Nodes[A], &Y = Nodes[B];
  if (X.Op == FormulaOp::Const && Y.Op == FormulaOp::Const) {
    bool Holds = Op == FormulaOp::Eq   ? X.Value == Y.Value
                 : Op == FormulaOp::Ne ? X.Value != Y.Value
                 : Op == FormulaOp::Lt ? X.Value < Y.Value
                                       : X.Value <= Y.Value;
    return Holds ? TrueRef : FalseRef;
  }
  if (A == B)
    return (Op == FormulaOp::Eq || Op == FormulaOp::Le) ? TrueRef : FalseRef;
  return make({Op, true, 0, A, B});
}

FormulaRef FormulaArena::arithmetic(FormulaOp Op, FormulaRef A, FormulaRef B) {
  const FormulaNode &X = Nodes[A], &Y = Nodes[B];
  if (X.Op == FormulaOp::Const && Y.Op == FormulaOp::Const) {
    int64_t L = X.Value, R = Y.Value;
    switch (Op) {
    case FormulaOp::Add:
      return constant(L + R);
    case FormulaOp::Sub:
      return constant(L - R);
    case FormulaOp::Mul:
      return constant(L * R);
    case FormulaOp::Div:
      if (R != 0 && !(L == INT32_MIN && R == -1))
        return constant(L / R);
      break;
    case FormulaOp::Rem:
      if (R != 0 && !(L == INT32_MIN && R == -1))
        return constant(L % R);
      break;
    default:
      break;
    }
  }
  if (Y.Op == FormulaOp::Const && Y.Value == 0 && (Op == FormulaOp::Add || Op == FormulaOp::Sub))
    return A;
  return make({Op, false, 0, A, B});
}

FormulaRef FormulaArena::negative(FormulaRef A) {
  if (Nodes[A].Op == FormulaOp::Const)
    return constant(-Nodes[A].Value);
  return make({FormulaOp::Neg, false, 0, A});
}

FormulaRef FormulaArena::choose(FormulaRef Cond, FormulaRef Then, FormulaRef Else) {
  if (Cond == TrueRef || Then == Else)
    return Then;
  if (Cond == FalseRef)
    return Else;
  return make({FormulaOp::Ite, Nodes[Then].Boolean, 0, Cond, Then, Else});
}

FormulaRef FormulaArena::inRank(unsigned Which, FormulaRef F) {
  if (Nodes[F].RankFree)
    return F; // the same on both ranks, or already pinned
  switch (Nodes[F].Op) {
  case FormulaOp::True:
  case FormulaOp::False:
  case FormulaOp::Const:
  case FormulaOp::Size:
  case FormulaOp::Uniform:
  case FormulaOp::InRank1:
  case FormulaOp::InRank2:
    return F; // the same on both ranks, or already pinned
  default:
    break;
  }
  return make({Which == 1 ? FormulaOp::InRank1 : FormulaOp::InRank2, Nodes[F].Boolean, 0, F});
}

FormulaRef FormulaArena::asBoolean(FormulaRef F) {
  return Nodes[F].Boolean ? F : compare(FormulaOp::Ne, F, constant(0));
}

FormulaRef FormulaArena::asInteger(FormulaRef F) {
  return Nodes[F].Boolean ? choose(F, constant(1), constant(0)) : F;
}

// Breadth first: the constants a question compares with directly (`x > 2500`)
// come before those deep inside the values it compares (a long `?:` chain).
// Each symbol draws from the plan's samples by a hash of (symbol, rank of
// the pair, assignment), so symbols vary independently across assignments
// and the two ranks' values of a per-rank symbol differ in most of them.
static int64_t sampleValue(const FormulaNode &Symbol, unsigned Assignment, unsigned Which,
                           const std::vector<int64_t> &Samples) {
  uint64_t H = (uint64_t(Symbol.Value) << 32) ^ (uint64_t(Assignment) << 2) ^
               (Symbol.Op == FormulaOp::PerRank ? Which : 0);
  // splitmix64's finaliser.
  H = (H ^ (H >> 30)) * 0xbf58476d1ce4e5b9ULL;
  H = (H ^ (H >> 27)) * 0x94d049bb133111ebULL;
  H ^= H >> 31;
  int64_t V = Samples[H % Samples.size()];
  return Symbol.Boolean ? V & 1 : V;
}

// Post-order over (node, rank) pairs with an explicit stack: formulas can be
// as deep as the program's expressions.
FormulaArena::EvaluationPlan FormulaArena::plan(FormulaRef Root) const {
  EvaluationPlan Plan;
  plan(Root, Plan);
  return Plan;
}

void FormulaArena::plan(FormulaRef Root, EvaluationPlan &Plan) const {
  Plan.Steps.clear();
  Plan.Constants.clear();
  Plan.HasSymbols = false;
  PlanStamps.resize(2 * Nodes.size(), 0);
  PlanPositions.resize(2 * Nodes.size());
  if (++PlanGeneration == 0) { // wrapped: old stamps could match again
    llvm::fill(PlanStamps, 0);
    PlanGeneration = 1;
  }
  auto Slot = [](FormulaRef F, unsigned Which) { return 2 * size_t(F) + Which - 1; };
  auto Placed = [&](size_t S) { return PlanStamps[S] == PlanGeneration; };
  std::vector<std::pair<FormulaRef, unsigned>> &Stack = PlanStack;
  Stack.assign(1, {Root, 1});
  while (!Stack.empty()) {
    auto [F, Which] = Stack.back();
    if (Placed(Slot(F, Which))) {
      Stack.pop_back();
      continue;
    }
    const FormulaNode &N = Nodes[F];
    unsigned Inner = N.Op == FormulaOp::InRank1 ? 1 : N.Op == FormulaOp::InRank2 ? 2 : Which;
    const FormulaRef Children[] = {N.A, N.B, N.C};
    EvaluationStep Step{F, Which, {0, 0, 0}};
    bool Ready = true;
    for (unsigned I = 0; I < arity(N.Op); ++I) {
      size_t Child = Slot(Children[I], Inner);
      if (!Placed(Child)) {
        Stack.push_back({Children[I], Inner});
        Ready = false;
      } else {
        Step.Operands[I] = PlanPositions[Child];
      }
    }
    if (!Ready)
      continue;
    Stack.pop_back();
    PlanStamps[Slot(F, Which)] = PlanGeneration;
    PlanPositions[Slot(F, Which)] = Plan.Steps.size();
    Plan.Steps.push_back(Step);
    if (N.Op == FormulaOp::Const && !llvm::is_contained(Plan.Constants, N.Value))
      Plan.Constants.push_back(N.Value);
    Plan.HasSymbols |= N.Op == FormulaOp::Uniform || N.Op == FormulaOp::PerRank;
  }
  // The common values, then the formula's constants and neighbours.
  Plan.Samples.assign(std::begin(CommonSamples), std::end(CommonSamples));
  for (int64_t C : Plan.Constants)
    for (int64_t V : {C, C - 1, C + 1})
      if (!llvm::is_contained(Plan.Samples, V) && Plan.Samples.size() < limits::SampleValues)
        Plan.Samples.push_back(V);
}

std::optional<int64_t> FormulaArena::evaluate(const EvaluationPlan &Plan, int64_t Rank1,
                                              int64_t Rank2, int64_t Size, unsigned Assignment,
                                              std::vector<int64_t> &Values) const {
  Values.resize(Plan.Steps.size());
  for (size_t I = 0; I < Plan.Steps.size(); ++I) {
    const EvaluationStep &Step = Plan.Steps[I];
    const FormulaNode &N = Nodes[Step.Node];
    const int64_t A = Values[Step.Operands[0]], B = Values[Step.Operands[1]];
    int64_t &Result = Values[I];
    switch (N.Op) {
    case FormulaOp::True:
      Result = 1;
      break;
    case FormulaOp::False:
      Result = 0;
      break;
    case FormulaOp::Const:
      Result = N.Value;
      break;
    case FormulaOp::Rank:
      Result = Step.Which == 1 ? Rank1 : Rank2;
      break;
    case FormulaOp::Size:
      Result = Size;
      break;
    case FormulaOp::Uniform:
    case FormulaOp::PerRank:
      Result = sampleValue(N, Assignment, Step.Which, Plan.Samples);
      break;
    case FormulaOp::Not:
      Result = !A;
      break;
    case FormulaOp::And:
      Result = A && B;
      break;
    case FormulaOp::Or:
      Result = A || B;
      break;
    case FormulaOp::Eq:
      Result = A == B;
      break;
    case FormulaOp::Ne:
      Result = A != B;
      break;
    case FormulaOp::Lt:
      Result = A < B;
      break;
    case FormulaOp::Le:
      Result = A <= B;
      break;
    case FormulaOp::Add:
      Result = wrap32(A + B);
      break;
    case FormulaOp::Sub:
      Result = wrap32(A - B);
      break;
    case FormulaOp::Mul:
      Result = wrap32(A * B);
      break;
    case FormulaOp::Div:
    case FormulaOp::Rem:
      if (B == 0 || (A == INT32_MIN && B == -1))
        return std::nullopt; // undefined in C: leave it to the solver
      Result = N.Op == FormulaOp::Div ? A / B : A % B;
      break;
    case FormulaOp::Neg:
      Result = wrap32(-A);
      break;
    case FormulaOp::Ite:
      Result = A ? B : Values[Step.Operands[2]];
      break;
    case FormulaOp::InRank1:
    case FormulaOp::InRank2:
      Result = A;
      break;
    }
  }
  return Values.back();
}

std::optional<int64_t> FormulaArena::evaluate(FormulaRef F, int64_t Rank1, int64_t Rank2,
                                              int64_t Size, unsigned Assignment) const {
  std::vector<int64_t> Values;
  return evaluate(plan(F), Rank1, Rank2, Size, Assignment, Values);
}

std::optional<bool> FormulaArena::holdsOnRank(FormulaRef F, int64_t Rank, int64_t Size) const {
  plan(F, RankPlan);
  for (const EvaluationStep &Step : RankPlan.Steps) {
    FormulaOp Op = Nodes[Step.Node].Op;
    if (Step.Which != 1 || Op == FormulaOp::InRank1 || Op == FormulaOp::InRank2)
      return std::nullopt; // a pin names a rank of a pair, not this one
  }
  // One assignment across every formula asked: a symbol keeps its value
  // from one condition of the path to the next.
  RankPlan.Samples.assign(std::begin(CommonSamples), std::end(CommonSamples));
  std::optional<int64_t> Value = evaluate(RankPlan, Rank, Rank, Size, 0, RankValues);
  return Value ? std::optional<bool>(*Value != 0) : std::nullopt;
}

std::string FormulaArena::print(FormulaRef F) const {
  const FormulaNode &N = Nodes[F];
  auto Binary = [&](const char *Op) {
    return "(" + print(N.A) + " " + Op + " " + print(N.B) + ")";
  };
  switch (N.Op) {
  case FormulaOp::True:
    return "true";
  case FormulaOp::False:
    return "false";
  case FormulaOp::Const:
    return std::to_string(N.Value);
  case FormulaOp::Rank:
    return "rank";
  case FormulaOp::Size:
    return "size";
  case FormulaOp::Uniform:
    return "u" + std::to_string(N.Value);
  case FormulaOp::PerRank:
    return "p" + std::to_string(N.Value);
  case FormulaOp::Not:
    return "!" + print(N.A);
  case FormulaOp::And:
    return Binary("&&");
  case FormulaOp::Or:
    return Binary("||");
  case FormulaOp::Eq:
    return Binary("==");
  case FormulaOp::Ne:
    return Binary("!=");
  case FormulaOp::Lt:
    return Binary("<");
  case FormulaOp::Le:
    return Binary("<=");
  case FormulaOp::Add:
    return Binary("+");
  case FormulaOp::Sub:
    return Binary("-");
  case FormulaOp::Mul:
    return Binary("*");
  case FormulaOp::Div:
    return Binary("/");
  case FormulaOp::Rem:
    return Binary("%");
  case FormulaOp::Neg:
    return "-" + print(N.A);
  case FormulaOp::Ite:
    return "(" + print(N.A) + " ? " + print(N.B) + " : " + print(N.C) + ")";
  case FormulaOp::InRank1:
    return "@1" + print(N.A);
  case FormulaOp::InRank2:
    return "@2" + print(N.A);
  }
  return "?";
}

} // namespace lockstep::analysis
