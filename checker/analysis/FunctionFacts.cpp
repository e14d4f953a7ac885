// Equality of function summaries, which decides when the interprocedural
// fixed point has settled (FunctionFacts in RankDependence.h).
#include "RankDependence.h"

#include <algorithm>
#include <type_traits>

namespace lockstep::analysis {

// Callers rebuild each value from these facts in their own terms: where the
// callee wrote it (`definition`) is no news to them, and a parameter nothing
// writes is the same as one not listed.
bool FunctionFacts::sameAs(const FunctionFacts &Other) const {
  auto Same = [](RankValue A, const RankValue &B) {
    A.Definition = B.Definition;
    return A.sameAs(B);
  };
  auto SameFields = [&](const FieldValues &A, const FieldValues &B) {
    return A.size() == B.size() &&
           std::equal(A.begin(), A.end(), B.begin(), [&](const auto &X, const auto &Y) {
             return X.first == Y.first && Same(X.second, Y.second);
           });
  };
  auto SameEach = [](const auto &A, const auto &B, auto SameOne) {
    using Item = typename std::decay_t<decltype(A)>::value_type;
    for (size_t I = 0; I < std::max(A.size(), B.size()); ++I)
      if (!SameOne(I < A.size() ? A[I] : Item(), I < B.size() ? B[I] : Item()))
        return false;
    return true;
  };
  return Same(ReturnValue, Other.ReturnValue) && Same(ReturnedOwn, Other.ReturnedOwn) &&
         ReturnsAgreed == Other.ReturnsAgreed && AgreedParams == Other.AgreedParams &&
         AssignedParams == Other.AssignedParams && ReturnChosenBy == Other.ReturnChosenBy &&
         WrittenParams == Other.WrittenParams && WrittenGlobals == Other.WrittenGlobals &&
         WrittenGlobalParts == Other.WrittenGlobalParts &&
         AssignedGlobals == Other.AssignedGlobals &&
         AssignedGlobalParts == Other.AssignedGlobalParts && Throws == Other.Throws &&
         Same(ThrowsWhen, Other.ThrowsWhen) && SameFields(ReturnedFields, Other.ReturnedFields) &&
         SameFields(ReturnedFieldElements, Other.ReturnedFieldElements) &&
         ReturnedTuple.size() == Other.ReturnedTuple.size() &&
         SameEach(ReturnedTuple, Other.ReturnedTuple, Same) &&
         SameEach(OutParams, Other.OutParams, Same) &&
         SameEach(OutElements, Other.OutElements, Same) &&
         SameEach(OutElementFields, Other.OutElementFields, SameFields) &&
         SameEach(OutFields, Other.OutFields, SameFields) &&
         SameEach(OutFieldElements, Other.OutFieldElements, SameFields) &&
         SameEach(OutNestedElements, Other.OutNestedElements, SameFields) &&
         AssignedFields == Other.AssignedFields &&
         SameFields(OwnFieldsAtExit, Other.OwnFieldsAtExit) &&
         llvm::equal(CallbackArgs, Other.CallbackArgs, [&](const auto &A, const auto &B) {
           return A.first == B.first && SameEach(A.second, B.second, Same);
         });
}

} // namespace lockstep::analysis
