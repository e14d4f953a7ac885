// How two events compare beyond their keys: which agreed argument differs,
// and whether different arguments may still make the same operation
// (counts and datatypes that carry the same data, an intercommunicator's
// roots).
#include "CollectiveEvents.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

namespace lockstep::analysis {

std::optional<size_t> firstDifferingArgument(const CollectiveEvent &A, const CollectiveEvent &B) {
  for (size_t I = 0; I < A.AgreedArguments.size() && I < B.AgreedArguments.size(); ++I)
    if (A.AgreedArguments[I].Value != B.AgreedArguments[I].Value)
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
    // On an intercommunicator the root's group passes MPI_ROOT or
    // MPI_PROC_NULL, the other group the root's rank.
    if (X.Role == "root" && (X.IntercommMarker || Y.IntercommMarker))
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

} // namespace lockstep::analysis
