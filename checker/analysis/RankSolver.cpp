#include "RankSolver.h"
#include "Limits.h"

#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/DenseMap.h"

#include <chrono>
#include <string>

namespace lockstep::analysis {

namespace {

constexpr unsigned Width = 32;

} // namespace

bool RankSolver::haveSolver() {
#ifdef LOCKSTEP_HAVE_Z3
  return true;
#else
  return false;
#endif
}

RankSolver::RankSolver(FormulaArena &Arena) : Arena(Arena) {}
RankSolver::~RankSolver() = default;

// The sampler tries ranks near the question's constants first and the
// solver any job, so the pair they found may lie in a larger job than needed.
void RankSolver::smallestJob(const FormulaArena &Arena,
                             const FormulaArena::EvaluationPlan &Question, RankWitness &Witness) {
  std::vector<int64_t> Values;
  const int64_t Largest = std::min(Witness.Size.value_or(0) - 1, limits::EvaluatedJobSize);
  for (int64_t Size = 2; Size <= Largest; ++Size)
    for (int64_t Rank1 = 0; Rank1 < Size; ++Rank1)
      for (int64_t Rank2 = 0; Rank2 < Size; ++Rank2)
        if (Rank1 != Rank2 &&
            Arena.evaluate(Question, Rank1, Rank2, Size, /*Assignment=*/0, Values).value_or(0)) {
          Witness.Rank1 = Rank1, Witness.Rank2 = Rank2, Witness.Size = Size;
          return;
        }
}

// Small jobs, and ranks next to the constants the formulas compare with
// (`rank == 4000` is settled by ranks 4000 and 0 of 4001), each under a few
// samples of the symbols; then many more samples spread over the same pairs,
// since symbols often need particular values as well (`p == 0 && u % 100 ==
// 0`, `u % c(rank) == 0` with c 5 on some ranks and 10 on others). Each try
// draws its own samples: the same few values on every pair would miss a
// witness that needs one value not among them.
bool RankSolver::evaluateSmallJobs(const std::vector<FormulaRef> &Alternatives,
                                   RankWitness &Witness) {
  std::vector<int64_t> Near;
  // Each alternative is tried thousands of times: flatten it once.
  std::vector<FormulaArena::EvaluationPlan> Plans;
  std::vector<int64_t> Values;
  bool AnySymbols = false;
  for (FormulaRef Alternative : Alternatives) {
    Plans.push_back(Arena.plan(Alternative));
    AnySymbols |= Plans.back().HasSymbols;
    for (int64_t C : Plans.back().Constants)
      for (int64_t R : {C - 1, C, C + 1})
        if (R >= 0 && R < limits::LargestJob && !llvm::is_contained(Near, R) &&
            Near.size() < limits::EvaluatedConstants)
          Near.push_back(R);
  }
  struct Pair {
    int64_t Size, R1, R2;
  };
  std::vector<Pair> Pairs;
  auto Add = [&](int64_t Size, int64_t R1, int64_t R2) {
    if (R1 != R2 && R1 < Size && R2 < Size &&
        llvm::none_of(
            Pairs, [&](const Pair &P) { return P.Size == Size && P.R1 == R1 && P.R2 == R2; }))
      Pairs.push_back({Size, R1, R2});
  };
  for (int64_t R1 : Near)
    for (int64_t R2 : {int64_t(0), int64_t(1), R1 + 1}) {
      Add(R1 + 2, R1, R2);
      Add(R1 + 2, R2, R1);
    }
  for (int64_t Size = 2; Size <= limits::EvaluatedJobSize; ++Size)
    for (int64_t R1 = 0; R1 < Size; ++R1)
      for (int64_t R2 = 0; R2 < Size; ++R2)
        Add(Size, R1, R2);
  uint64_t Steps = 0;
  unsigned Assignment = 0; // the samples drawn next
  // Formulas of the rank and size alone are tried once per pair, with the
  // first assignment of its tries.
  auto Try = [&](const Pair &P, unsigned Count, bool First) {
    for (size_t I = 0; I < Alternatives.size(); ++I)
      for (unsigned A = 0; A < (Plans[I].HasSymbols ? Count : unsigned(First)); ++A) {
        if (Steps > limits::EvaluatedSteps)
          return false;
        Steps += Plans[I].Steps.size();
        if (Arena.evaluate(Plans[I], P.R1, P.R2, P.Size, Assignment + A, Values).value_or(0)) {
          Witness = {I, P.R1, P.R2, P.Size};
          return true;
        }
      }
    Assignment += Count;
    return false;
  };
  for (const Pair &P : Pairs)
    if (Try(P, limits::AssignmentsPerPair, /*First=*/true))
      return true;
  if (AnySymbols)
    for (unsigned A = 0; A < limits::SampledAssignments && Steps <= limits::EvaluatedSteps; ++A)
      if (Try(Pairs[A % Pairs.size()], 1, /*First=*/false))
        return true;
  return false;
}

Answer RankSolver::decide(const std::vector<FormulaRef> &Alternatives, RankWitness &Witness) {
  ++Stats.Questions;
  std::vector<FormulaRef> Live;
  std::vector<size_t> Index;
  for (size_t I = 0; I < Alternatives.size(); ++I)
    if (Alternatives[I] != Arena.falsity()) {
      Live.push_back(Alternatives[I]);
      Index.push_back(I);
    }
  if (Live.empty())
    return Answer::Never;
  // Widening asks the same question of several regions: formulas are
  // hash-consed, so an equal question is the same list.
  auto [Known, Inserted] = Answered.try_emplace(Live);
  if (Inserted)
    Known->second.first = solve(Live, Known->second.second);
  else
    ++Stats.AnsweredBefore;
  Witness = Known->second.second;
  Witness.Alternative = Index[Witness.Alternative];
  return Known->second.first;
}

Answer RankSolver::solve(const std::vector<FormulaRef> &Live, RankWitness &Witness) {
  if (evaluateSmallJobs(Live, Witness)) {
    ++Stats.ByEvaluation;
    return Answer::Holds;
  }
#ifndef LOCKSTEP_HAVE_Z3
  ++Stats.Undecided;
  return Answer::Unknown;
#else
  if (!Solver) {
    Solver = llvm::CreateZ3Solver();
    Solver->setUnsignedParam("timeout", limits::SolverMillisecondsPerQuestion);
  }
  ++Stats.SolverCalls;
  auto Start = std::chrono::steady_clock::now();
  Solver->push();
  llvm::SMTSortRef Int = Solver->getBitvectorSort(Width);
  auto Constant = [&](int64_t V) {
    return Solver->mkBitvector(llvm::APSInt(llvm::APInt(Width, V, /*isSigned=*/true), false),
                               Width);
  };
  llvm::SMTExprRef R1 = Solver->mkSymbol("rank@1", Int), R2 = Solver->mkSymbol("rank@2", Int);
  llvm::SMTExprRef Size = Solver->mkSymbol("size", Int);
  llvm::SMTExprRef Choice = Solver->mkSymbol("choice", Int);
  Solver->addConstraint(Solver->mkBVSle(Constant(1), Size));
  Solver->addConstraint(Solver->mkBVSle(Size, Constant(limits::LargestJob)));
  for (const llvm::SMTExprRef &R : {R1, R2}) {
    Solver->addConstraint(Solver->mkBVSle(Constant(0), R));
    Solver->addConstraint(Solver->mkBVSlt(R, Size));
  }
  Solver->addConstraint(Solver->mkNot(Solver->mkEqual(R1, R2)));
  llvm::SMTExprRef Any = Solver->mkBoolean(false);
  for (size_t I = 0; I < Live.size(); ++I)
    Any =
        Solver->mkOr(Any, Solver->mkAnd(Solver->mkEqual(Choice, Constant(I)), translate(Live[I])));
  Solver->addConstraint(Any);
  std::optional<bool> Satisfiable = Solver->check();
  Answer Result = !Satisfiable ? Answer::Unknown : *Satisfiable ? Answer::Holds : Answer::Never;
  if (Result == Answer::Holds) {
    auto Read = [&](const llvm::SMTExprRef &Symbol) -> std::optional<int64_t> {
      llvm::APSInt Value(Width, /*isUnsigned=*/false);
      if (!Solver->getInterpretation(Symbol, Value))
        return std::nullopt;
      return Value.getSExtValue();
    };
    Witness = {static_cast<size_t>(Read(Choice).value_or(0)) % Live.size(), Read(R1), Read(R2),
               Read(Size)};
  } else if (Result == Answer::Unknown) {
    ++Stats.Undecided;
  }
  Solver->pop();
  Stats.SolverSeconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  return Result;
#endif
}

#ifdef LOCKSTEP_HAVE_Z3
// Post-order with an explicit stack: formulas are as deep as expressions.
llvm::SMTExprRef RankSolver::translate(FormulaRef Root) {
  llvm::DenseMap<std::pair<FormulaRef, unsigned>, llvm::SMTExprRef> Done;
  std::vector<std::pair<FormulaRef, unsigned>> Stack{{Root, 1}};
  while (!Stack.empty()) {
    auto [F, Which] = Stack.back();
    if (Done.count({F, Which})) {
      Stack.pop_back();
      continue;
    }
    const FormulaNode &N = Arena.node(F);
    unsigned Inner = N.Op == FormulaOp::InRank1 ? 1 : N.Op == FormulaOp::InRank2 ? 2 : Which;
    const FormulaRef Operands[] = {N.A, N.B, N.C};
    llvm::ArrayRef<FormulaRef> Children(Operands, arity(N.Op));
    bool Ready = true;
    for (FormulaRef Child : Children)
      if (!Done.count({Child, Inner})) {
        Stack.push_back({Child, Inner});
        Ready = false;
      }
    if (!Ready)
      continue;
    Stack.pop_back();
    llvm::SmallVector<llvm::SMTExprRef, 3> Translated;
    for (FormulaRef Child : Children)
      Translated.push_back(Done.lookup({Child, Inner}));
    Done[{F, Which}] = translateNode(N, Which, Translated);
  }
  return Done.lookup({Root, 1});
}

llvm::SMTExprRef RankSolver::translateNode(const FormulaNode &N, unsigned Which,
                                           llvm::ArrayRef<llvm::SMTExprRef> Operands) {
  llvm::SMTSortRef Int = Solver->getBitvectorSort(Width), Bool = Solver->getBoolSort();
  auto Get = [&](size_t I) { return Operands[I]; };
  auto Name = [&](const char *Prefix, bool PerRank) {
    return std::string(Prefix) + std::to_string(N.Value) +
           (PerRank ? "@" + std::to_string(Which) : std::string());
  };
  switch (N.Op) {
  case FormulaOp::True:
    return Solver->mkBoolean(true);
  case FormulaOp::False:
    return Solver->mkBoolean(false);
  case FormulaOp::Const:
    return Solver->mkBitvector(llvm::APSInt(llvm::APInt(Width, N.Value, true), false), Width);
  case FormulaOp::Rank:
    return Solver->mkSymbol(Which == 1 ? "rank@1" : "rank@2", Int);
  case FormulaOp::Size:
    return Solver->mkSymbol("size", Int);
  case FormulaOp::Uniform:
    return Solver->mkSymbol(Name("u", false).c_str(), N.Boolean ? Bool : Int);
  case FormulaOp::PerRank:
    return Solver->mkSymbol(Name("p", true).c_str(), N.Boolean ? Bool : Int);
  case FormulaOp::Not:
    return Solver->mkNot(Get(0));
  case FormulaOp::And:
    return Solver->mkAnd(Get(0), Get(1));
  case FormulaOp::Or:
    return Solver->mkOr(Get(0), Get(1));
  case FormulaOp::Eq:
    return Solver->mkEqual(Get(0), Get(1));
  case FormulaOp::Ne:
    return Solver->mkNot(Solver->mkEqual(Get(0), Get(1)));
  case FormulaOp::Lt:
    return Solver->mkBVSlt(Get(0), Get(1));
  case FormulaOp::Le:
    return Solver->mkBVSle(Get(0), Get(1));
  case FormulaOp::Add:
    return Solver->mkBVAdd(Get(0), Get(1));
  case FormulaOp::Sub:
    return Solver->mkBVSub(Get(0), Get(1));
  case FormulaOp::Mul:
    return Solver->mkBVMul(Get(0), Get(1));
  case FormulaOp::Div:
    return Solver->mkBVSDiv(Get(0), Get(1));
  case FormulaOp::Rem:
    return Solver->mkBVSRem(Get(0), Get(1));
  case FormulaOp::Neg:
    return Solver->mkBVNeg(Get(0));
  case FormulaOp::Ite:
    return Solver->mkIte(Get(0), Get(1), Get(2));
  case FormulaOp::InRank1:
  case FormulaOp::InRank2:
    return Get(0); // pinned: the operand was translated for that rank
  }
  llvm_unreachable("every formula operator translates");
}
#else
llvm::SMTExprRef RankSolver::translate(FormulaRef) { return nullptr; }
#endif

} // namespace lockstep::analysis
