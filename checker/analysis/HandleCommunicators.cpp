#include "HandleCommunicators.h"

#include "CallSite.h"
#include "SourceText.h"

namespace lockstep::analysis {
using namespace clang;

const Expr *HandleCommunicators::creator(const ValueDecl *Handle) const {
  if (!Handle)
    return nullptr;
  if (!Scanned)
    scan();
  auto It = Creators.find(Handle);
  return It == Creators.end() ? nullptr : It->second;
}

const ValueDecl *HandleCommunicators::original(const ValueDecl *Comm) const {
  // Copies are few and short; a copy of itself ends the walk too.
  for (unsigned Steps = 0; Comm && Steps < CopyOf.size(); ++Steps) {
    const ValueDecl *Of = CopyOf.lookup(Comm);
    if (!Of || Of == Comm)
      break;
    Comm = Of;
  }
  return Comm;
}

void HandleCommunicators::scan() const {
  Scanned = true;
  for (const auto &[Decl, Function] : Functions)
    forEachStmtInOrder(Function->decl()->getBody(), [&](const Stmt *S) {
      const auto *Call = dyn_cast<CallExpr>(S);
      const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
      const rules::CollectiveRule *Rule = Callee ? Classifier.classify(Callee).Collective : nullptr;
      if (!Rule)
        return;
      const Expr *Comm = ruleArgument(Call, Rule->Comm);
      const ValueDecl *Handle = namedStorage(ruleArgument(Call, Rule->NewHandle));
      if (!Comm || !Handle)
        return;
      auto [Known, Inserted] = Creators.try_emplace(Handle, Comm);
      // Created on two communicators (two spellings, or one name for two
      // variables): no one answer, whatever the order of the scan.
      if (!Inserted && Known->second &&
          (accessedStorage(Known->second) != accessedStorage(Comm) ||
           sourceText(Known->second, Function->context()) != sourceText(Comm, Function->context())))
        Known->second = nullptr;
    });
}

bool HandleCommunicators::holdsSelf(const Expr *Comm, const ASTContext &Context) const {
  if (!Comm)
    return false;
  if (spelledAsMacro(Comm, "MPI_COMM_SELF", Context))
    return true;
  const Expr *Plain = Comm->IgnoreParenImpCasts();
  if (!isa<DeclRefExpr, MemberExpr>(Plain))
    return false;
  const ValueDecl *Storage = accessedStorage(Plain);
  const auto *Field = dyn_cast_or_null<FieldDecl>(Storage);
  const auto *Var = dyn_cast_or_null<VarDecl>(Storage);
  // A parameter holds what its callers pass (CollectiveEvents rebases it).
  if (!Field && (!Var || isa<ParmVarDecl>(Var) || !Var->isLocalVarDecl()))
    return false;
  // A field of a global object is every file's to write.
  const Expr *Root = Plain;
  while (const auto *Member = dyn_cast<MemberExpr>(Root))
    Root = Member->getBase()->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Root))
    if (const auto *Object = dyn_cast<VarDecl>(Ref->getDecl());
        Object && Object->hasGlobalStorage() && Object->isExternallyVisible())
      return false;
  if (!ScannedWrites)
    scanSelfWrites(Context);
  bool Self = SelfWritten.count(Storage) ||
              (Field && Field->hasInClassInitializer() &&
               spelledAsMacro(Field->getInClassInitializer(), "MPI_COMM_SELF", Context));
  return Self && !OtherWritten.count(Storage) &&
         !(Field && WrittenWhole.count(Field->getParent()->getCanonicalDecl()));
}

void HandleCommunicators::scanSelfWrites(const ASTContext &Context) const {
  ScannedWrites = true;
  // A copy of the same field of another object (a copy constructor's
  // `comm(other.comm)`, the implicit ones included) keeps what it held.
  auto Written = [&](const ValueDecl *Storage, const Expr *Value) {
    if (Storage && Value && !isa<CXXDefaultInitExpr>(Value->IgnoreParenImpCasts()) &&
        accessedStorage(Value) != Storage)
      (spelledAsMacro(Value, "MPI_COMM_SELF", Context) ? SelfWritten : OtherWritten)
          .insert(Storage);
  };
  // Storage another name can write: its address taken, a non-const
  // reference bound to it. For an object, any of its fields.
  auto Escapes = [&](const Expr *E) {
    if (!E)
      return;
    if (const ValueDecl *Storage = accessedStorage(E))
      OtherWritten.insert(Storage);
    if (const RecordDecl *Record = E->getType()->getAsRecordDecl())
      WrittenWhole.insert(Record->getCanonicalDecl());
  };
  // An object set from what a call returns (`Options o = load();`,
  // `o = load();`) holds whatever the call put in its fields.
  auto SetWhole = [&](QualType Type, const Expr *Value) {
    const RecordDecl *Record = Type->getAsRecordDecl();
    if (Record && Value && isa<CallExpr>(Value->IgnoreImplicit()) &&
        !isa<CXXConstructExpr>(Value->IgnoreImplicit()))
      WrittenWhole.insert(Record->getCanonicalDecl());
  };
  for (const auto &[Decl, Function] : Functions) {
    if (const auto *Constructor = dyn_cast<CXXConstructorDecl>(Function->decl()))
      for (const CXXCtorInitializer *Init : Constructor->inits())
        if (Init->isMemberInitializer())
          Written(Init->getMember(), Init->getInit());
    forEachStmtInOrder(Function->decl()->getBody(), [&](const Stmt *S) {
      if (const auto *Declared = dyn_cast<DeclStmt>(S)) {
        for (const clang::Decl *D : Declared->decls())
          if (const auto *Var = dyn_cast<VarDecl>(D); Var && Var->getInit()) {
            if (writableReference(Var->getType()))
              Escapes(Var->getInit()); // `MPI_Comm &r = c;`
            else
              Written(Var, Var->getInit());
            SetWhole(Var->getType(), Var->getInit());
          }
      } else if (const auto *Assign = dyn_cast<BinaryOperator>(S);
                 Assign && Assign->isAssignmentOp()) {
        Written(accessedStorage(Assign->getLHS()), Assign->getRHS());
      } else if (const auto *Address = dyn_cast<UnaryOperator>(S);
                 Address && Address->getOpcode() == UO_AddrOf) {
        Escapes(Address->getSubExpr()); // `MPI_Comm_dup(world, &c)` writes it
      } else if (const auto *List = dyn_cast<InitListExpr>(S)) {
        // `Options o = {MPI_COMM_WORLD, ...}`: the fields in order.
        const RecordDecl *Record = List->getType()->getAsRecordDecl();
        if (!Record || Record->isUnion())
          return;
        unsigned I = 0;
        for (const FieldDecl *Field : Record->fields())
          if (I < List->getNumInits())
            Written(Field, List->getInit(I++));
      } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
        // Handed to a non-const reference (`void init(MPI_Comm &c)`).
        const FunctionDecl *Callee = Call->getDirectCallee();
        std::vector<const Expr *> Args = explicitArguments(Call);
        for (unsigned I = 0; Callee && I < Args.size() && I < Callee->getNumParams(); ++I)
          if (writableReference(Callee->getParamDecl(I)->getType()))
            Escapes(Args[I]);
        if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(Call);
            Operator && Operator->getOperator() == OO_Equal && Operator->getNumArgs() == 2)
          SetWhole(Operator->getArg(0)->getType(), Operator->getArg(1));
      }
    });
  }
}

} // namespace lockstep::analysis
