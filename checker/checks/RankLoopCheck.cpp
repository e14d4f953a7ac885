#include "RankLoopCheck.h"
#include "DivergenceNotes.h"

#include "clang/AST/ASTContext.h"

namespace lockstep::checks {
using namespace clang;
using analysis::Divergence;
using analysis::LoopDivergence;

void RankLoopCheck::reportLoop(const LoopDivergence &D, ASTContext &Context) {
  FindingBuilder Finding = finding(Context);
  Finding.about(D.function, &D.event, D.condition);
  Finding.warning(D.event.site, Finding.name(D.event) +
                                    " runs in a loop whose trip count differs between ranks; "
                                    "the ranks that "
                                    "finish first stop calling it and the others hang in it");
  addCommonNotes(Finding, D.event, D.condition, D.source, Context);
  Finding.note(D.event.site, "agree on the trip count first (an allreduce with "
                             "MAX or MIN makes it the same on "
                             "every rank; ranks without data then contribute "
                             "neutral values), or run the loop "
                             "under a join protocol that shadows " +
                                 quoted(calledName(D.event)));
  Finding.emit();
}

// Arms that run the same loop a different number of times.
void RankLoopCheck::reportDivergence(const Divergence &D, ASTContext &Context) {
  auto Times = [](const std::string &Trip) {
    return llvm::all_of(Trip, ::isdigit) && !Trip.empty() ? Trip + " times" : std::string();
  };
  std::string Mine = Times(D.event.loopTrip), Theirs = Times(D.otherEvent->loopTrip);
  FindingBuilder Finding = finding(Context);
  Finding.about(D.function, &D.event, D.condition);
  if (!Mine.empty() && !Theirs.empty())
    Finding.warning(D.event.site, Finding.name(D.event) + " runs " + Mine + " on " +
                                      ranksWhere(D, Context) + " but " + Theirs +
                                      " on the other ranks; the ranks that finish first stop "
                                      "calling it and the others hang in it");
  else
    Finding.warning(D.event.site, Finding.name(D.event) + " runs a different number of times on " +
                                      ranksWhere(D, Context) +
                                      " than on the other ranks; the ranks that finish first "
                                      "stop calling it and the others hang in it");
  addCommonNotes(Finding, D, Context);
  Finding.note(D.otherEvent->site, "the other ranks run their loop of " +
                                       Finding.name(*D.otherEvent, Naming::Collective) + " here");
  Finding.note(D.event.site, "run the same number of iterations on every rank");
  Finding.emit();
}

} // namespace lockstep::checks
