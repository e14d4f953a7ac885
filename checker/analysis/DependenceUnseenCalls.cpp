// Calls whose bodies lockstep cannot see: functions of the system's
// libraries, and functions of the user's declared in this file but defined
// in none it reads. What they write is computed from what they are given.
#include "DependenceDataflow.h"
#include "OwnFieldWrites.h"
#include "SourceText.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"

namespace lockstep::analysis::dependence {
using namespace clang;

/// What an out-argument names as written: `loss` of `&loss`.
static const Expr *pointee(const Expr *Arg) {
  const auto *Address = dyn_cast<UnaryOperator>(Arg->IgnoreParenImpCasts());
  return Address && Address->getOpcode() == UO_AddrOf ? Address->getSubExpr() : Arg;
}

// A number or an object (`val_loss(rank)`, `forwardLoss(rank, step)`), not
// a status or a count looked up elsewhere (integers, `bool`, handles and
// pointers), nor the process group every rank joins (`createGloo(rank,
// world)`, held directly or by a smart pointer).
bool Dataflow::computedUnseen(QualType Type) const {
  if (!Type->isRecordType())
    return Type->isRealFloatingType();
  const auto *Held = dyn_cast_or_null<ClassTemplateSpecializationDecl>(Type->getAsCXXRecordDecl());
  const TemplateArgumentList *Args = Held ? &Held->getTemplateArgs() : nullptr;
  return !Type->isIncompleteType() &&
         !Classifier.isCollectiveReceiver(Type->getAsCXXRecordDecl()) &&
         !(Args && Args->size() > 0 && Args->get(0).getKind() == TemplateArgument::Type &&
           Classifier.isCollectiveReceiver(Args->get(0).getAsType()->getAsCXXRecordDecl()));
}

// A library function of the system passes what it is given on to what it
// writes, as to what it returns: `in >> n`, `std::getline(in, line)`,
// `fscanf(f, "%d", &n)` and `snprintf(path, sizeof path, "shard%d", rank)`
// make per-rank input. Each output takes the other inputs: a state object
// handed over under a rank test is not assumed to change. A function of the
// user's whose body no file shows (\p Unseen) computes the numbers it writes
// from its inputs (`forward_backward(params, grads, d_loss, batch)` given a
// per-rank batch); the objects it is handed keep their state, as above.
void Dataflow::flowThroughUnknownCall(const CallExpr *Call, const FunctionDecl *Callee,
                                      bool ObjectToo, bool Unseen) {
  std::vector<const Expr *> Args = explicitArguments(Call);
  const Expr *Object =
      chainedObject(ruleArgument(Call, rules::ArgRef{rules::ArgRef::Kind::Receiver, 0, ""}));
  std::vector<RankValue> Values;
  for (const Expr *Arg : Args)
    Values.push_back(eval(Arg));
  const RankValue ObjectValue = Object ? eval(Object) : RankValue();
  auto InputsBut = [&](size_t Skip) {
    RankValue In = Skip == Args.size() ? RankValue() : ObjectValue;
    for (size_t I = 0; I < Values.size(); ++I)
      if (I != Skip)
        In.combine(Values[I]);
    return In;
  };
  const FunctionDecl *Target = forwardedTo(Call, Callee); // `T(args...)` of make_unique
  for (size_t I = 0; I < Args.size(); ++I) {
    const ParmVarDecl *Param = I < Target->getNumParams() ? Target->getParamDecl(I) : nullptr;
    QualType Type = Param ? Param->getType() : Args[I]->getType();
    // Handles (MPI_Datatype, ncclComm_t, FILE *, and Open MPI's predefined
    // handles, pointers to opaque globals) are not data: only values read
    // into plain storage are per-rank input. Nor is a process group handed
    // over with a rank (`std::make_unique<Stage>(*pg, pg->getRank())`).
    QualType Pointee = Type->getPointeeType();
    bool Writable = (Type->isReferenceType() || Type->isPointerType()) &&
                    !Pointee.isConstQualified() && !Pointee->isPointerType() &&
                    !(Pointee->isRecordType() && Pointee->isIncompleteType()) && // MPI_Comm
                    !Classifier.isCollectiveReceiver(Pointee->getAsCXXRecordDecl());
    if (Unseen && !(Writable && Pointee->isRealFloatingType()))
      continue;
    RankValue In = InputsBut(I);
    if (Unseen && In.Source && !In.pending())
      In.Source = Env.Arena.makeUnseen(Callee->getQualifiedNameAsString(), Call->getBeginLoc(),
                                       In.Source, sourceText(pointee(Args[I]), Context));
    if (!Writable || !In.dependent() ||
        !(Param || isa<UnaryOperator>(Args[I]->IgnoreParenImpCasts())))
      continue;
    std::vector<const FieldDecl *> Fields;
    if (Env.OwnFields &&
        Env.OwnFields->libraryMayWrite(Pointee->getAsCXXRecordDecl(), Call, Fields))
      for (const FieldDecl *Field : Fields)
        writeOutArgument(chainedObject(Args[I]), Param, In, Field);
    else
      writeOutArgument(chainedObject(Args[I]), Param, In);
  }
  if (!ObjectToo)
    return;
  // Only mutators (void, or returning the object itself as streams do) write
  // the object; accessors such as operator[] or data() do not. What it held
  // stays in it (a per-rank stream read with a count the callers pass).
  const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
  StorageKey Key;
  RankValue In = InputsBut(Args.size());
  if (In.dependent() && Object && Method && !Method->isConst() && keyOf(Object, Key)) {
    QualType Returned = Method->getReturnType();
    const CXXRecordDecl *ReturnedRecord = Returned->getPointeeCXXRecordDecl();
    if (Returned->isVoidType() ||
        (Returned->isReferenceType() && ReturnedRecord &&
         ReturnedRecord->getCanonicalDecl() == Method->getParent()->getCanonicalDecl()))
      write(Key, In.combine(read(Key)));
  }
}

} // namespace lockstep::analysis::dependence
