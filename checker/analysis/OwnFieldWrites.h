// The fields of its object a method changes, itself or through the methods
// it calls on `this`: `record(ms)` that appends to `samples_`. A caller that
// calls it on some ranks only leaves those fields different between ranks
// (`if (mine) mon.record(ms);`, then `mon.report()` tests
// `samples_.empty()` before a gather).
#pragma once

#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace clang {
class CallExpr;
class CXXMethodDecl;
class CXXRecordDecl;
class FieldDecl;
} // namespace clang

namespace lockstep::analysis {

class CallClassifier;

struct OwnFieldWrite {
  const clang::FieldDecl *Field;
  // Only through a subscript (`w_[d] -= g[d]`) or an accessor that hands
  // out the elements (`sums_.find(name)`): the elements may change, the
  // container's size does not.
  bool ElementsOnly;
};

class OwnFieldWrites {
public:
  explicit OwnFieldWrites(const CallClassifier &Classifier) : Classifier(Classifier) {}

  /// Fields of `*this` that \p Method assigns, increments, or calls a
  /// non-const method of (a container's `push_back`; not a collective on a
  /// process group, which leaves it the same group), in its body or the
  /// bodies of the methods it calls on `this`; empty without a body.
  const std::vector<OwnFieldWrite> &of(const clang::CXXMethodDecl *Method);

  /// Whether a library function that \p Call hands an object of the user's
  /// class \p Class by reference can change only some of its fields, and
  /// then which, in \p Fields: those the class's own methods write (the
  /// library calls them: `std::visit(store, op)`), so that a field only
  /// constructors set (`comm_`) keeps its value. False (any field) for a
  /// library's class, a class without methods of its own, or where the call
  /// also hands over another object of the class to assign from
  /// (`std::swap(a, b)`).
  bool libraryMayWrite(const clang::CXXRecordDecl *Class, const clang::CallExpr *Call,
                       std::vector<const clang::FieldDecl *> &Fields);

private:
  const CallClassifier &Classifier;
  llvm::DenseMap<const clang::CXXMethodDecl *, std::vector<OwnFieldWrite>> Known;
};

} // namespace lockstep::analysis
