#include "RankLoopCheck.h"
#include "DivergenceNotes.h"

#include "clang/AST/ASTContext.h"

namespace lockstep::checks {
using namespace clang;
using analysis::Divergence;
using analysis::LoopDivergence;

void RankLoopCheck::reportLoop(const LoopDivergence &D, ASTContext &Context) {
  FindingBuilder Finding = finding(Context);
  Finding.about(D.Function, &D.Event, D.Condition);
  Finding.warning(D.Event.Site, Finding.name(D.Event) +
                                    " runs in a loop whose trip count differs between ranks; "
                                    "the ranks that "
                                    "finish first stop calling it and the others hang in it");
  addCommonNotes(Finding, D.Event, D.Condition, D.Source, Context);
  // A join protocol is a remedy only where the rules declare one for this
  // call (PyTorch's `Join`); plain MPI and NCCL have none.
  std::string Remedy = "agree on the trip count first (an allreduce with MAX or MIN makes it the "
                       "same on every rank; ranks without data then contribute neutral values)";
  if (!D.Event.ShadowedBy.empty())
    Remedy += ", or run the loop under the join protocol " +
              quoted(D.Event.ShadowedBy.front()->Name) + ", which shadows " +
              quoted(calledName(D.Event));
  Finding.note(D.Event.Site, Remedy);
  Finding.emit();
}

// Arms that run the same loop a different number of times.
void RankLoopCheck::reportDivergence(const Divergence &D, ASTContext &Context) {
  auto Times = [](llvm::StringRef Trip) {
    if (Trip.empty() || !llvm::all_of(Trip, ::isdigit))
      return std::string();
    return Trip == "1" ? std::string("once") : (Trip + " times").str();
  };
  std::string Mine = Times(D.Event.LoopTrip), Theirs = Times(D.OtherEvent->LoopTrip);
  FindingBuilder Finding = finding(Context);
  Finding.about(D.Function, &D.Event, D.Condition);
  if (!Mine.empty() && !Theirs.empty())
    Finding.warning(D.Event.Site, Finding.name(D.Event) + " runs " + Mine + " on " +
                                      ranksWhere(D, Context) + " but " + Theirs +
                                      " on the other ranks; the ranks that finish first stop "
                                      "calling it and the others hang in it");
  else
    Finding.warning(D.Event.Site, Finding.name(D.Event) + " runs a different number of times on " +
                                      ranksWhere(D, Context) +
                                      " than on the other ranks; the ranks that finish first "
                                      "stop calling it and the others hang in it");
  addCommonNotes(Finding, D, Context);
  Finding.note(D.OtherEvent->Site, "the other ranks run their loop of " +
                                       Finding.name(*D.OtherEvent, Naming::Collective) + " here");
  Finding.note(D.Event.Site, "run the same number of iterations on every rank");
  Finding.emit();
}

} // namespace lockstep::checks
