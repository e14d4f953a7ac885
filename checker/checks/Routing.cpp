#include "Routing.h"

namespace lockstep::checks {
using analysis::Divergence;
using analysis::LoopDivergence;

namespace {

template <class... Ts> struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts> Overloaded(Ts...) -> Overloaded<Ts...>;

CheckId divergenceCheck(const Divergence &D) {
  // Ranks that left skip whatever comes next, the start of a group
  // included: the decision to leave is what must change. A group end they
  // skip leaves their group open, which is the group's problem.
  if (D.K == Divergence::Kind::SkippedAfterExit)
    return D.Event.GroupMarker && !D.Event.GroupBegins ? CheckId::GroupBalanceCheck
                                                       : CheckId::RankExitCheck;
  // Otherwise a group call on either side means the ranks group their
  // operations differently, whatever else differs.
  if (D.Event.GroupMarker || (D.OtherEvent && D.OtherEvent->GroupMarker))
    return CheckId::GroupBalanceCheck;
  switch (D.K) {
  case Divergence::Kind::OnlySomeRanks:
  case Divergence::Kind::Order:
  case Divergence::Kind::Dispatch:
    return CheckId::RankBranchCheck;
  case Divergence::Kind::Arguments:
    return CheckId::RankArgumentCheck;
  case Divergence::Kind::TripCount:
    return CheckId::RankLoopCheck;
  case Divergence::Kind::SkippedAfterExit:
    break; // above
  }
  llvm_unreachable("every divergence kind has a check");
}

} // namespace

std::vector<EngineResult> engineResults(const analysis::TranslationUnitAnalysis &Analysis) {
  std::vector<EngineResult> Results;
  for (const Divergence &D : Analysis.divergences())
    Results.push_back(&D);
  for (const LoopDivergence &D : Analysis.loopDivergences())
    Results.push_back(&D);
  for (const analysis::RankArgument &A : Analysis.rankArguments())
    Results.push_back(&A);
  for (const analysis::GroupImbalance &P : Analysis.groupImbalances())
    Results.push_back(&P);
  for (const analysis::AnalysisLimit &L : Analysis.limits())
    Results.push_back(&L);
  return Results;
}

CheckId route(const EngineResult &Result) {
  return std::visit(Overloaded{
                        [](const Divergence *D) { return divergenceCheck(*D); },
                        [](const LoopDivergence *D) {
                          return D->K == LoopDivergence::Kind::TripCount
                                     ? CheckId::RankLoopCheck
                                     : CheckId::JoinBarrierCheck;
                        },
                        [](const analysis::RankArgument *) { return CheckId::RankArgumentCheck; },
                        [](const analysis::GroupImbalance *) { return CheckId::GroupBalanceCheck; },
                        // The engine's bounds are remarks of lockstep-rank-branch: said once
                        // per bound, not once per check.
                        [](const analysis::AnalysisLimit *) { return CheckId::RankBranchCheck; },
                    },
                    Result);
}

} // namespace lockstep::checks
