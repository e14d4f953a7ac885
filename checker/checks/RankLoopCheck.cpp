#include "RankLoopCheck.h"
#include "DivergenceNotes.h"

#include "clang/AST/ASTContext.h"

namespace lockstep::checks {
using namespace clang;
using analysis::Divergence;
using analysis::LoopDivergence;

void RankLoopCheck::reportLoop(const LoopDivergence &D, ASTContext &Context) {
  diag(D.event.site, "%0 runs in a loop whose trip count differs between ranks; the ranks "
                     "that finish first stop calling it and the others hang in it")
      << namedCollective(D.event);
  addCommonNotes(*this, D.event, D.condition, D.source, Context);
  diag(D.event.site,
       "agree on the trip count first (an allreduce with MAX or MIN makes it the same on "
       "every rank; ranks without data then contribute neutral values), or run the loop "
       "under a join protocol that shadows %0",
       DiagnosticIDs::Note)
      << quoted(calledName(D.event));
}

// Arms that run the same loop a different number of times.
void RankLoopCheck::reportDivergence(const Divergence &D, ASTContext &Context) {
  auto Times = [](const std::string &Trip) {
    return llvm::all_of(Trip, ::isdigit) && !Trip.empty() ? Trip + " times" : std::string();
  };
  std::string Mine = Times(D.event.loopTrip), Theirs = Times(D.otherEvent->loopTrip);
  if (!Mine.empty() && !Theirs.empty())
    diag(D.event.site, "%0 runs %1 on %2 but %3 on the other ranks; the ranks that finish "
                       "first stop calling it and the others hang in it")
        << namedCollective(D.event) << Mine << ranksWhere(D, Context) << Theirs;
  else
    diag(D.event.site, "%0 runs a different number of times on %1 than on the other ranks; "
                       "the ranks that finish first stop calling it and the others hang in it")
        << namedCollective(D.event) << ranksWhere(D, Context);
  addCommonNotes(*this, D, Context);
  diag(D.otherEvent->site, "the other ranks run their loop of %0 here", DiagnosticIDs::Note)
      << quoted(D.otherEvent->collective);
  diag(D.event.site, "run the same number of iterations on every rank", DiagnosticIDs::Note);
}

} // namespace lockstep::checks
