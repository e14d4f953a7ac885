// Memory copies in the rank-dependence data flow: `memcpy(&h, d, n)`,
// `cudaMemcpy(&h, d_flag, 4, cudaMemcpyDeviceToHost)` (rules/*.json
// "copies"). The destination holds what the source held, so a flag an
// allreduce agreed on in device memory is agreed on the host once copied
// back, and a per-rank value copied to the device stays per-rank there.
#include "CallSite.h"
#include "DependenceDataflow.h"

namespace lockstep::analysis::dependence {
using namespace clang;

/// Where in its buffer a pointer \p Arg points: the offsets added to it and
/// the index it takes the address of (`all + rank * n`, `&all[rank]`).
static std::vector<const Expr *> offsetsOf(const Expr *Arg) {
  std::vector<const Expr *> Offsets;
  for (const Expr *E = Arg->IgnoreParenCasts();;) {
    if (const auto *Sum = dyn_cast<BinaryOperator>(E);
        Sum && Sum->isAdditiveOp() && Sum->getLHS()->getType()->isPointerType()) {
      Offsets.push_back(Sum->getRHS());
      E = Sum->getLHS()->IgnoreParenCasts();
    } else if (const auto *Address = dyn_cast<UnaryOperator>(E);
               Address && Address->getOpcode() == UO_AddrOf &&
               isa<ArraySubscriptExpr>(Address->getSubExpr()->IgnoreParens())) {
      Offsets.push_back(cast<ArraySubscriptExpr>(Address->getSubExpr()->IgnoreParens())->getIdx());
      break;
    } else {
      break;
    }
  }
  return Offsets;
}

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
  // A part every rank picks for itself (`memcpy(&mine, all + rank * n,
  // ...)` after an allgather) differs even where the whole buffer agrees.
  for (const Expr *Offset : offsetsOf(Args[Copy.From]))
    if (RankValue At = eval(Offset); At.dependent()) {
      Copied.combine(At);
      Copied.Definition = nullptr;
    }
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
