// What collectives and uniform sources leave the same on every rank, or on
// the members of each part of a split only.
#include "DependenceDataflow.h"
#include "PerRankSources.h"
#include "SourceText.h"

namespace lockstep::analysis::dependence {
using namespace clang;

RankValue agreed(RankValue Value) {
  Value.Definition = &AgreedByEveryRank;
  return Value;
}

// A colour that cuts the ranks into parts of one size (`rank / tp`, `rank %
// tp`), as process grids do when the job's size is a multiple of the part's.
static bool equalParts(const Expr *Colour) {
  for (int Hops = 0; Colour && Hops < 2; ++Hops) {
    Colour = Colour->IgnoreParenImpCasts();
    if (const auto *Binary = dyn_cast<BinaryOperator>(Colour))
      return Binary->getOpcode() == BO_Div || Binary->getOpcode() == BO_Rem;
    // `int colour = rank / tp;`
    const auto *Ref = dyn_cast<DeclRefExpr>(Colour);
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    Colour = Var && !isa<ParmVarDecl>(Var) ? Var->getInit() : nullptr;
  }
  return false;
}

// What a uniform source writes to its out-argument \p Out: the same on every
// rank, except the size of a communicator that a rank-dependent split made
// in parts of different sizes (`MPI_Comm_size(half, &n)` after a split by
// `rank < 3`), which is the same only on its members.
RankValue Dataflow::uniformOutput(const CallExpr *Call, const CalleeRole &Role,
                                  const std::vector<const Expr *> &Args, unsigned Out) const {
  if (!Role.UniformSource->WorldSize)
    return agreed();
  const Expr *Communicator =
      Out > 0 && !Args.front()->getType()->isIntegerType() ? Args.front() : nullptr;
  RankValue Handle = Communicator ? eval(Communicator) : RankValue();
  const Provenance *Split = splitOf(Handle);
  if (!Split)
    return agreed(RankValue::worldSize());
  if (!Split->Colour || equalParts(Split->Colour)) // a sub-grid, or equal parts
    return agreed();                               // one size everywhere, but not the job's

  RankValue Size;
  Size.Source = perRankData(Call, Args[Out], Role.Name,
                            "the size of '" + sourceText(Communicator, Function.context()) + "'",
                            Env.Arena, Function, Handle.Source, namedStorage(Communicator));
  return Size;
}

// The split behind a communicator handle, if one made it; a handle from the
// callers is recorded, for the fixed point to look again when theirs change.
const Provenance *Dataflow::splitOf(const RankValue &Handle) const {
  const Provenance *Split = Env.splitBehind(Handle, Function.decl());
  if (Handle.onParameters() && llvm::none_of(SplitLookups, [&](const auto &Lookup) {
        return Lookup.first.sameAs(Handle) && Lookup.second == Split;
      }))
    SplitLookups.push_back({Handle, Split});
  return Split;
}

// What a collective agrees on (an allreduce's result, a broadcast buffer):
// the same on every rank, except a combination over a communicator a
// rank-dependent split made, which is the same on its members only
// (`found_inf` agreed within a tensor-parallel group differs between the
// groups). Still the same everywhere: a broadcast, which hands out the
// root's value (the last step of a hierarchical allreduce), a combination
// of values every rank holds alike, or already combined over another split
// (the column step of a two-dimensional allreduce), and whatever the engine
// cannot tell apart: a handle from the callers (theirs differ), a buffer
// reached through a pointer where nothing per-rank was written.
RankValue Dataflow::agreedOutput(const CallExpr *Call, const CalleeRole &Role,
                                 const Expr *Buffer) const {
  const rules::CollectiveRule &Rule = *Role.Collective;
  const Expr *Communicator = ruleArgument(Call, Rule.Comm);
  if (!Communicator || Rule.Root.K != rules::ArgRef::Kind::Absent)
    return agreed();
  RankValue Handle = eval(Communicator);
  const Provenance *Split = splitOf(Handle);
  if (!Split || isa_and_nonnull<ParmVarDecl>(namedStorage(Communicator)) ||
      (Handle.Source && Handle.Source->K == Provenance::Kind::Parameter))
    return agreed();
  const Expr *Sent = ruleArgument(Call, Rule.Send);
  if (!Sent || spelledAsMacro(Sent, "MPI_IN_PLACE", Function.context()))
    Sent = Buffer;
  const Expr *Input = bufferOf(Sent)->IgnoreParenCasts(); // `&flag`, `counts`, `&v[0]`
  if (const auto *Address = dyn_cast<UnaryOperator>(Input);
      Address && Address->getOpcode() == UO_AddrOf)
    Input = Address->getSubExpr();
  // Through a pointer: what this function wrote where it points
  // (`flag[0] = local;` before `ncclAllReduce(flag, flag, 1, ..., ep, s)`),
  // not what a caller's pointer held; its address says nothing of either.
  RankValue Held;
  if (StorageKey Pointee; !Input->getType()->isPointerType()) {
    Held = eval(Input);
  } else if (pointeeKeyOf(Input, Pointee)) {
    Held = read(Pointee).combine(readElement(Pointee, nullptr));
    if (const auto *Param = dyn_cast_or_null<ParmVarDecl>(namedStorage(Input));
        Param && Param->getFunctionScopeIndex() < 64) {
      const uint64_t Own = uint64_t(1) << Param->getFunctionScopeIndex();
      Held.Params &= ~Own;
      Held.ElementParams &= ~Own;
    }
  }
  const ValueDecl *CombinedOver = sameAmongMembersOf(Held.Source);
  if ((!Held.dependent() && !Held.onParameters()) ||
      (CombinedOver && CombinedOver != namedStorage(Communicator)))
    return agreed();
  RankValue Value;
  Value.Source =
      perRankData(Call, Buffer, Role.Name,
                  "the result over '" + sourceText(Communicator, Function.context()) + "'",
                  Env.Arena, Function, Handle.Source, namedStorage(Communicator));
  return Value;
}

} // namespace lockstep::analysis::dependence
