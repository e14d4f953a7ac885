// How two events compare beyond their keys: which agreed argument differs,
// and whether different arguments may still make the same operation
// (counts and datatypes that carry the same data, an intercommunicator's
// roots).
#include "CollectiveEvents.h"
#include "GuardedSequences.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

namespace lockstep::analysis {

// On an intercommunicator the root's group passes MPI_ROOT or MPI_PROC_NULL,
// the other group the root's rank.
static bool intercommRoots(const EventArgument &X, const EventArgument &Y) {
  return X.Role == "root" && (X.IntercommMarker || Y.IntercommMarker);
}

std::optional<size_t> firstDifferingArgument(const CollectiveEvent &A, const CollectiveEvent &B) {
  for (size_t I = 0; I < A.AgreedArguments.size() && I < B.AgreedArguments.size(); ++I)
    if (A.AgreedArguments[I].Value != B.AgreedArguments[I].Value &&
        !intercommRoots(A.AgreedArguments[I], B.AgreedArguments[I]))
      return I;
  return std::nullopt;
}

// A predefined datatype as written: `MPI_DOUBLE`, `MPI_2INT`, `ncclFloat32`
// (NCCL has no others).
static bool predefinedDatatype(llvm::StringRef Written) {
  if (Written.starts_with("nccl"))
    return true;
  return Written.consume_front("MPI_") && !Written.empty() && llvm::all_of(Written, [](char C) {
           return llvm::isUpper(C) || llvm::isDigit(C) || C == '_';
         });
}

bool mayMatch(const CollectiveEvent &A, const CollectiveEvent &B) {
  if (A.Loop || B.Loop || A.Collective != B.Collective ||
      A.AgreedArguments.size() != B.AgreedArguments.size() || A.Key.starts_with("call ") ||
      B.Key.starts_with("call "))
    return false;
  bool Counts = false, Types = false, Derived = false, Roots = false;
  for (size_t I = 0; I < A.AgreedArguments.size(); ++I) {
    const EventArgument &X = A.AgreedArguments[I], &Y = B.AgreedArguments[I];
    if (X.Role != Y.Role)
      return false;
    if (X.Value == Y.Value)
      continue;
    if (intercommRoots(X, Y))
      Roots = true;
    else if (X.Role == "count")
      Counts = true;
    else if (X.Role == "datatype")
      Types = true, Derived = !predefinedDatatype(X.Written) || !predefinedDatatype(Y.Written);
    else
      return false;
  }
  if (Counts || Types)
    return Counts && Types && Derived;
  return Roots;
}

bool matchingIterations(const SequenceTable &Table, const CollectiveEvent &A,
                        const CollectiveEvent &B) {
  if (!A.LoopBody || !B.LoopBody)
    return false;
  std::vector<std::pair<uint32_t, uint32_t>> Work{{A.LoopBody, B.LoopBody}};
  while (!Work.empty()) {
    auto [X, Y] = Work.back();
    Work.pop_back();
    if (X == Y)
      continue;
    std::vector<unsigned> KeysX = Table.keys(X), KeysY = Table.keys(Y);
    if (KeysX.size() != KeysY.size())
      return false;
    for (size_t I = 0; I < KeysX.size(); ++I) {
      if (KeysX[I] == KeysY[I])
        continue;
      const CollectiveEvent &EX = Table.representative(KeysX[I]);
      const CollectiveEvent &EY = Table.representative(KeysY[I]);
      if (mayMatch(EX, EY))
        continue;
      if (!EX.LoopBody || !EY.LoopBody || firstDifferingArgument(EX, EY) || !EX.LoopTripFormula ||
          EX.LoopTripFormula != EY.LoopTripFormula)
        return false;
      Work.push_back({EX.LoopBody, EY.LoopBody});
    }
  }
  return true;
}

bool commute(const CollectiveEvent &A, const CollectiveEvent &B,
             llvm::function_ref<bool(const clang::ValueDecl *)> Fresh) {
  // A call of the function itself: a callee's handle stands for the
  // caller's only while the callee leaves its parameter alone.
  auto Direct = [](const CollectiveEvent &E) {
    return !E.Via && !E.Loop && !E.Dispatched && !E.GroupMarker && !E.pending() &&
           !E.Communicator.empty();
  };
  if (!(A.StartsLocally || B.StartsLocally) || !Direct(A) || !Direct(B))
    return false;
  // A handle of its own differs from every predefined one and from any
  // other such handle.
  auto Own = [&](const CollectiveEvent &E) {
    return E.CommunicatorDecl && Fresh(E.CommunicatorDecl);
  };
  return Own(A) ? B.PredefinedCommunicator || (Own(B) && B.CommunicatorDecl != A.CommunicatorDecl)
                : Own(B) && A.PredefinedCommunicator;
}

std::vector<unsigned>
canonicalOrder(const std::vector<unsigned> &Keys, const SequenceTable &Table,
               llvm::function_ref<bool(const CollectiveEvent &, const CollectiveEvent &)> Commute) {
  std::vector<unsigned> Order;
  std::vector<bool> Placed(Keys.size());
  while (Order.size() < Keys.size()) {
    // The smallest key not yet placed that every earlier unplaced event
    // commutes with.
    std::optional<size_t> Next;
    for (size_t I = 0; I < Keys.size(); ++I) {
      if (Placed[I] || (Next && Keys[*Next] <= Keys[I]))
        continue;
      const CollectiveEvent &Event = Table.representative(Keys[I]);
      bool Free = true;
      for (size_t J = 0; J < I && Free; ++J)
        Free = Placed[J] || Commute(Table.representative(Keys[J]), Event);
      if (Free)
        Next = I;
    }
    Placed[*Next] = true; // the first unplaced event is always free
    Order.push_back(Keys[*Next]);
  }
  return Order;
}

} // namespace lockstep::analysis
