// The clang-tidy front end: registers every check of the table
// (checker/checks/checks.json) under its name. Every front end (the plugin,
// lockstep check, lockstep-clangd) registers the checks through this module.
#include "CheckHeaders.inc"

#include "clang-tidy/ClangTidyModule.h"

namespace lockstep {

class LockstepTidyModule : public clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
#define LOCKSTEP_CHECK(Class, Name, Doc, Severity, Description)                                    \
  Factories.registerCheck<checks::Class>(Name);
#include "Checks.inc"
#undef LOCKSTEP_CHECK
  }
};

} // namespace lockstep

// The front ends link this file as objects (lockstep_tidy_module), so the
// registration is kept without an anchor.
static clang::tidy::ClangTidyModuleRegistry::Add<lockstep::LockstepTidyModule>
    LockstepModuleRegistration("lockstep",
                               "Checks for collectives that ranks do not call in lockstep.");
