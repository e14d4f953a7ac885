// Globals in the rank-dependence data flow: what they hold where main starts,
// what a call leaves in them, and the fields of global structs, which each
// global keeps apart (`g_cfg.substeps` written on rank 0 says nothing of
// `g_defaults.substeps`, nor of `substeps` in a local `RunConfig`).
#include "DependenceDataflow.h"

#include "llvm/ADT/STLExtras.h"

namespace lockstep::analysis::dependence {
using namespace clang;

// The field of a global struct that \p Key names, through fields only.
static std::optional<GlobalPart> globalPartOf(const StorageKey &Key) {
  if (Key.size() < 2 || Key.front() == &ThisRoot)
    return std::nullopt;
  const auto *Global = dyn_cast<VarDecl>(static_cast<const Decl *>(Key.front()));
  if (!Global || !Global->isFileVarDecl())
    return std::nullopt;
  GlobalPart Part{Global, {}};
  for (const void *Step : llvm::drop_begin(Key)) {
    if (Step == &DerefStep || isElementStep(Step))
      return std::nullopt;
    Part.Fields.push_back(static_cast<const FieldDecl *>(Step));
  }
  return Part;
}

StorageKey globalPartKey(const GlobalPart &Part) {
  StorageKey Key{Part.Global};
  Key.append(Part.Fields.begin(), Part.Fields.end());
  return Key;
}

bool Dataflow::recordGlobalPartWrite(const StorageKey &Key, const RankValue &Value) {
  std::optional<GlobalPart> Part = globalPartOf(Key);
  if (!Part)
    return false;
  Result.SharedWrites.push_back({Part->Fields.back(), Value, /*Elements=*/false, *Part});
  SharedWriteKeys.push_back(Key);
  return true;
}

void Dataflow::recordGlobalAssignment(const StorageKey &Key) {
  if (std::optional<GlobalPart> Part = globalPartOf(Key)) {
    Result.Facts.AssignedGlobalParts.try_emplace(*Part, nullptr);
    return;
  }
  if (Key.size() != 1 || Key.front() == &ThisRoot)
    return;
  const auto *Var = dyn_cast<VarDecl>(static_cast<const Decl *>(Key.front()));
  if (Var && (Var->isFileVarDecl() || capturedByReference(Var, Function.decl())))
    Result.Facts.AssignedGlobals.try_emplace(Var, nullptr);
}

// The globals written per rank are assigned too. With each, the constant it
// holds where the function returns (\p AtExit, null where no path returns),
// when one assignment of a constant reaches the exit on every path.
void Dataflow::recordAssignedConstants(const State *AtExit) {
  FunctionFacts &Facts = Result.Facts;
  for (const ValueDecl *Global : Facts.WrittenGlobals)
    Facts.AssignedGlobals.try_emplace(Global, nullptr);
  for (const GlobalPart &Part : Facts.WrittenGlobalParts)
    Facts.AssignedGlobalParts.try_emplace(Part, nullptr);
  auto ConstantAt = [&](const StorageKey &Key) -> const Expr * {
    auto It = AtExit ? AtExit->find(Key) : State::const_iterator();
    const Expr *Written =
        AtExit && It != AtExit->end() ? writtenExpression(It->second.Definition) : nullptr;
    Expr::EvalResult Value;
    return Written && !Written->isValueDependent() && Written->EvaluateAsInt(Value, Context)
               ? Written
               : nullptr;
  };
  for (auto &[Global, Constant] : Facts.AssignedGlobals)
    Constant = ConstantAt(StorageKey{Global});
  for (auto &[Part, Constant] : Facts.AssignedGlobalParts)
    Constant = ConstantAt(globalPartKey(Part));
}

std::optional<RankValue> Dataflow::globalPartValue(const StorageKey &Key) const {
  std::optional<GlobalPart> Part = globalPartOf(Key);
  if (!Part)
    return std::nullopt;
  SharedReads.insert(Part->Global);
  // The longest path written holds it: `g_run.io` covers `g_run.io.stride`.
  for (; !Part->Fields.empty(); Part->Fields.pop_back())
    if (auto It = Env.SharedParts.find(*Part); It != Env.SharedParts.end())
      return It->second;
  return std::nullopt;
}

// The program starts in main, where a global that a function writes with a
// per-rank value still holds its initial value until main calls that
// function (`if (g_verbose) ...; run();` reads the initial value), and so
// does each field of a global struct. Elsewhere any caller may have run the
// writer first.
void Dataflow::startProgram() {
  if (!Function.decl()->isMain())
    return;
  auto Initially = [this](const VarDecl *Var, const StorageKey &Key) {
    SharedReads.insert(Var);
    RankValue Initial = Var->getInit() ? eval(Var->getInit()) : RankValue();
    Initial.Definition = Var->getInit(); // an expression, as every write's
    write(Key, Initial);
  };
  for (const auto &[Decl, Value] : Env.Shared)
    if (const auto *Var = dyn_cast<VarDecl>(Decl); Var && Var->isFileVarDecl())
      Initially(Var, StorageKey{Var});
  for (const auto &[Part, Value] : Env.SharedParts)
    Initially(Part.Global, globalPartKey(Part));
}

// After a call, the globals and fields of globals the callee writes hold
// what it wrote.
void Dataflow::writeGlobalsOfCall(const FunctionFacts &Callee, const CallExpr *Call) {
  auto Written = [this, Call](RankValue After, const Expr *Constant, const StorageKey &Key) {
    After.Definition = Constant ? static_cast<const void *>(Constant) : Call;
    write(Key, After);
  };
  // Written even where every value it is given is the same on all ranks: the
  // call is its definition here, which a merge compares (`for (i < rank)
  // note_seen(i);` leaves each rank its own last value), unless it wrote a
  // constant, which another writer of that constant writes alike. A value
  // that may differ between ranks is what the file writes there.
  for (const auto &[Global, Constant] : Callee.AssignedGlobals) {
    RankValue After;
    if (Callee.WrittenGlobals.count(Global)) {
      SharedReads.insert(Global);
      After = Env.Shared.lookup(Global);
    }
    Written(After, Constant, StorageKey{Global});
  }
  for (const auto &[Part, Constant] : Callee.AssignedGlobalParts) {
    RankValue After;
    if (Callee.WrittenGlobalParts.count(Part)) {
      SharedReads.insert(Part.Global);
      if (auto It = Env.SharedParts.find(Part); It != Env.SharedParts.end())
        After = It->second;
    }
    Written(After, Constant, globalPartKey(Part));
  }
}

} // namespace lockstep::analysis::dependence
