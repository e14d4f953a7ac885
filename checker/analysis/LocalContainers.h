// Local containers whose elements the lambdas of their function read: a
// per-rank write of them is published for those lambdas, which read it as
// they read a member's or a global's (ElementParts.cpp, ContainerStorage.cpp).
#pragma once

#include "DependenceDataflow.h"

namespace lockstep::analysis::dependence {

/// The local variable (no parameter) \p Container names whole, declared in
/// \p Owner when that is given; null otherwise.
const clang::VarDecl *localContainer(const StorageKey &Container, const clang::FunctionDecl *Owner);

} // namespace lockstep::analysis::dependence
