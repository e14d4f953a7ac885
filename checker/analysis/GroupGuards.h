// RAII guards of NCCL groups that open one only when asked: a constructor
// that starts a group under a test of a field (`if (active_)
// ncclGroupStart();`) and a destructor that ends it under the same test.
// Each object pairs its own start and end, so neither is judged alone.
#pragma once

#include "CallClassifier.h"

#include "clang/AST/DeclCXX.h"

namespace lockstep::analysis {

/// The field that every group start of \p Member's class's constructors and
/// every group end of its destructor are tested under, when \p Member is one
/// of them and only constructors write the field; null otherwise.
const clang::FieldDecl *conditionalGroupGuard(const clang::CXXMethodDecl *Member,
                                              const CallClassifier &Classifier);

} // namespace lockstep::analysis
