// Memory copies in the rank-dependence data flow: `memcpy(&h, d, n)`,
// `cudaMemcpy(&h, d_flag, 4, cudaMemcpyDeviceToHost)` (rules/*.json
// "copies"). The destination holds what the source held, so a flag an
// allreduce agreed on in device memory is agreed on the host once copied
// back, and a per-rank value copied to the device stays per-rank there.
#include "CallSite.h"
#include "DependenceDataflow.h"

namespace lockstep::analysis::dependence {
using namespace clang;

// False when the call names no storage to copy from (a pointer some call
// returned): the generic flow of an unknown call applies then.
bool Dataflow::copyThroughPointers(const CallExpr *Call, const rules::CopyRule &Copy) {
  std::vector<const Expr *> Args = explicitArguments(Call);
  if (Copy.To >= Args.size() || Copy.From >= Args.size())
    return false;
  const Expr *Source = bufferOf(Args[Copy.From]);
  StorageKey From;
  RankValue Copied;
  if (intoContainer(Source, From))
    Copied = readElement(From, /*Index=*/nullptr);
  else if (pointeeKeyOf(Source, From))
    Copied = RankValue(read(From)).combine(partsBelow(From));
  else
    return false;
  // What a collective agreed stays agreed; anything else is defined anew here.
  if (Copied.Definition != &AgreedByEveryRank)
    Copied.Definition = nullptr;
  const FunctionDecl *Callee = Call->getDirectCallee();
  const ParmVarDecl *Param =
      Callee && Copy.To < Callee->getNumParams() ? Callee->getParamDecl(Copy.To) : nullptr;
  writeOutArgument(bufferOf(Args[Copy.To]), Param, Copied);
  return true;
}

} // namespace lockstep::analysis::dependence
