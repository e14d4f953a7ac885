// What collectives and uniform sources leave the same on every rank, or on
// the members of each part of a split only; what per-rank sources hand each
// rank; and what a function leaves agreed or assigned in its callers'
// storage.
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

// What a per-rank source of the rules hands this rank through \p Received.
// A read at an offset (rules `when_differs`) is per-rank where the offset
// is (`MPI_File_read_at_all(fh, rank * n, ...)`), and what the callers pass
// where they pass the offset; every rank reads the same at one offset
// (`MPI_File_read_at_all(fh, 0, &hdr, ...)`).
RankValue Dataflow::perRankSourceData(const CallExpr *Call, const CalleeRole &Role,
                                      llvm::ArrayRef<const Expr *> Args,
                                      const Expr *Received) const {
  const rules::PerRankSourceRule &Rule = *Role.PerRankSource;
  RankValue Data;
  const Provenance *Via = nullptr;
  if (Rule.When) {
    RankValue Decides = *Rule.When < Args.size() ? eval(Args[*Rule.When]) : RankValue();
    if (!Decides.Source || Decides.pending()) {
      Data.Params = Decides.Params;
      Data.ElementParams = Decides.ElementParams;
      Data.Source = Decides.Source;
      return Data;
    }
    Via = Decides.Source;
  }
  Data.Source = perRankData(Call, Received, Rule.Function, Rule.Why, Env.Arena, Function, Via);
  return Data;
}

// What a parameter points or refers to, agreed by a collective before every
// return: the caller's storage is agreed after the call (`bcast(&len, 1,
// MPI_INT)` through a wrapper over MPI_Bcast). A path that writes nothing
// there (a chunk loop that runs no chunk) leaves nothing to agree.
uint64_t Dataflow::agreedParameters(const State &AtExit) const {
  uint64_t Agreed = 0;
  for (const auto &[Param, Index] : ParamIndex) {
    StorageKey Key{Param};
    if (!Param->getType()->isReferenceType())
      Key.push_back(&DerefStep);
    auto It = AtExit.find(Key);
    if (It != AtExit.end() && It->second.Definition == &AgreedByEveryRank &&
        !It->second.dependent())
      Agreed |= uint64_t(1) << Index;
  }
  return Agreed;
}

// The numbers parameters point or refer to, set on every path to the exit
// to values the same on every rank. A path that leaves one unset merges in
// the callers' value there, which depends on the parameter; so does a
// compound write (`*n += k`). A pointer parameter pointed elsewhere (`n =
// &scratch;`) no longer writes the caller's storage.
uint64_t Dataflow::assignedParameters(const State &AtExit) const {
  uint64_t Assigned = 0;
  for (const auto &[Param, Index] : ParamIndex) {
    QualType Type = Param->getType();
    StorageKey Key{Param};
    if (Type->isPointerType())
      Key.push_back(&DerefStep);
    else if (!Type->isReferenceType())
      continue;
    QualType Held = Type->getPointeeType();
    auto It = AtExit.find(Key);
    if (Index < 64 && !(Type->isPointerType() && AtExit.count(StorageKey{Param})) &&
        (Held->isArithmeticType() || Held->isEnumeralType()) && !Held.isConstQualified() &&
        It != AtExit.end() && It->second.Definition && !It->second.dependent())
      Assigned |= uint64_t(1) << Index;
  }
  return Assigned;
}

// The fields of each parameter's object that hold, on every path to the
// exit, a value this function assigned and that is the same on every rank:
// the callers' objects hold it after the call, whatever they held before.
std::vector<std::vector<const FieldDecl *>> Dataflow::assignedFields(const State &AtExit) const {
  std::vector<std::vector<const FieldDecl *>> Assigned(Function.decl()->getNumParams());
  for (const auto &[Param, Index] : ParamIndex) {
    QualType Type = Param->getType();
    StorageKey Key{Param};
    if (Type->isPointerType()) {
      Key.push_back(&DerefStep);
      Type = Type->getPointeeType();
    } else if (!Type->isReferenceType()) {
      continue;
    }
    const RecordDecl *Record = Type.getNonReferenceType()->getAsRecordDecl();
    if (!Record || !Record->getDefinition() || isContainer(Type.getNonReferenceType()) ||
        Index >= Assigned.size())
      continue;
    for (const FieldDecl *Field : Record->getDefinition()->fields()) {
      Key.push_back(Field);
      if (auto It = AtExit.find(Key);
          It != AtExit.end() && It->second.Definition && !It->second.dependent())
        Assigned[Index].push_back(Field);
      Key.pop_back();
    }
  }
  return Assigned;
}

} // namespace lockstep::analysis::dependence
