// The fields of its object a method changes, itself or through the methods
// it calls on `this`: `record(ms)` that appends to `samples_`. A caller that
// calls it on some ranks only leaves those fields different between ranks
// (`if (mine) mon.record(ms);`, then `mon.report()` tests
// `samples_.empty()` before a gather).
#pragma once

#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace clang {
class CXXMethodDecl;
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

private:
  const CallClassifier &Classifier;
  llvm::DenseMap<const clang::CXXMethodDecl *, std::vector<OwnFieldWrite>> Known;
};

} // namespace lockstep::analysis
