// The clang-tidy front end: registers every lockstep check under its name.
// Every front end (the plugin today) registers the checks through this module.
#include "../checks/GroupBalanceCheck.h"
#include "../checks/JoinBarrierCheck.h"
#include "../checks/RankArgumentCheck.h"
#include "../checks/RankBranchCheck.h"
#include "../checks/RankExitCheck.h"
#include "../checks/RankLoopCheck.h"

#include "clang-tidy/ClangTidyModule.h"

namespace lockstep {

class LockstepTidyModule : public clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<checks::GroupBalanceCheck>("lockstep-group-balance");
    Factories.registerCheck<checks::JoinBarrierCheck>("lockstep-join-barrier");
    Factories.registerCheck<checks::RankArgumentCheck>("lockstep-rank-argument");
    Factories.registerCheck<checks::RankBranchCheck>("lockstep-rank-branch");
    Factories.registerCheck<checks::RankExitCheck>("lockstep-rank-exit");
    Factories.registerCheck<checks::RankLoopCheck>("lockstep-rank-loop");
  }
};

} // namespace lockstep

// Referenced by front ends that link the module statically (lockstep check,
// lockstep-clangd) so that the linker keeps the registration below.
volatile int LockstepModuleAnchorSource = 0;

static clang::tidy::ClangTidyModuleRegistry::Add<lockstep::LockstepTidyModule>
    LockstepModuleRegistration("lockstep",
                               "Checks for collectives that ranks do not call in lockstep.");
