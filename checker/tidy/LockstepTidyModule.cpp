// The clang-tidy front end: registers every lockstep check under its name.
// Every front end (the plugin today) registers the checks through this module.
#include "../checks/RankBranchCheck.h"
#include "../checks/RankExitCheck.h"

#include "clang-tidy/ClangTidyModule.h"

namespace lockstep {

class LockstepTidyModule : public clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<checks::RankBranchCheck>("lockstep-rank-branch");
    Factories.registerCheck<checks::RankExitCheck>("lockstep-rank-exit");
  }
};

} // namespace lockstep

static clang::tidy::ClangTidyModuleRegistry::Add<lockstep::LockstepTidyModule>
    LockstepModuleRegistration("lockstep",
                               "Checks for collectives that ranks do not call in lockstep.");
