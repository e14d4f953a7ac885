// Container sizes that every rank agrees on although the containers were
// written on some ranks only: a refill with the container's own size, a
// buffer made with another's size and swapped or copied with it, the size
// of a std::array. Trusted only where the data flow sees every resize.
#include "DependenceDataflow.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"

namespace lockstep::analysis::dependence {
using namespace clang;

bool asksFixedSize(const CallExpr *Call) {
  const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
  const CXXMethodDecl *Method = Member ? Member->getMethodDecl() : nullptr;
  if (!Method || !Method->getIdentifier() || Member->getNumArgs() != 0 ||
      !llvm::is_contained({"size", "max_size", "empty"}, Method->getName()))
    return false;
  const CXXRecordDecl *Record = Method->getParent();
  return Record->isInStdNamespace() && Record->getName() == "array" &&
         isa<ClassTemplateSpecializationDecl>(Record);
}

// `v.assign(v.size(), x)`, `v.resize(v.size())`: the count is the
// container's own size, so its state is what it was on every rank.
bool Dataflow::keepsOwnSize(const Stmt *Call, const StorageKey &Object) const {
  const auto *Member = dyn_cast_or_null<CXXMemberCallExpr>(Call);
  const CXXMethodDecl *Method = Member ? Member->getMethodDecl() : nullptr;
  if (!Method || !Method->getIdentifier() || Member->getNumArgs() == 0 ||
      (Method->getName() != "assign" && Method->getName() != "resize"))
    return false;
  StorageKey Counted;
  return sizeQueried(Member->getArg(0), Counted) && Counted == Object;
}

// Whether \p Count is a container's size (`buf.size()`, cast or not), and
// which container's.
bool Dataflow::sizeQueried(const Expr *Count, StorageKey &Counted) const {
  const auto *Size = dyn_cast<CXXMemberCallExpr>(Count->IgnoreParenCasts());
  const CXXMethodDecl *Asked = Size ? Size->getMethodDecl() : nullptr;
  return Asked && Asked->getIdentifier() && Asked->getName() == "size" &&
         containerKeyOf(Size->getImplicitObjectArgument(), Counted);
}

// Whether two containers hold as many elements as each other on every
// rank: one made with the other's size, neither resized since
// (`std::vector<double> tmp(buf.size())`, then `buf.swap(tmp)` on the root).
bool Dataflow::sameSize(const StorageKey &A, const StorageKey &B) const {
  for (const auto &[Made, Like] : {std::pair(&A, &B), std::pair(&B, &A)}) {
    auto It = SizedLike.find(read(*Made).Definition);
    if (It != SizedLike.end() && It->second.first == *Like &&
        read(*Like).Definition == It->second.second)
      return true;
  }
  return false;
}

// Whether every change of \p Container's size in this function is a write
// the data flow sees (one that defines its state anew): a local or a
// parameter the function uses only through the library's methods and
// operators; one the callers hand over by reference, only where the
// function calls nothing but the library.
bool Dataflow::sizeSeen(const StorageKey &Container) const {
  const auto *Root = Container.size() == 1 && Container.front() != &ThisRoot
                         ? dyn_cast<VarDecl>(static_cast<const Decl *>(Container.front()))
                         : nullptr;
  return Root && Root->hasLocalStorage() && !escapedContainers().count(Root);
}

// The containers whose size may change behind the data flow's back: each
// use of one must be the object of a library method, an operand of a
// library operator, the argument of a library `swap`, the range of a
// range-for or a copy's source, and no lambda may capture it by reference.
// Functions of the file escape it too: their facts record the writes that
// differ between ranks, not every resize.
const llvm::DenseSet<const VarDecl *> &Dataflow::escapedContainers() const {
  if (EscapedContainers)
    return *EscapedContainers;
  EscapedContainers.emplace();
  const ParentMap &Parents = Function.parents();
  auto LibraryCall = [](const Stmt *S, const Stmt *Callee) {
    const auto *Call = dyn_cast_or_null<CallExpr>(S);
    const FunctionDecl *Target = Call ? Call->getDirectCallee() : nullptr;
    return Target && inLibrary(Target) && (!Callee || Call->getCallee() == Callee);
  };
  auto Allowed = [&](const DeclRefExpr *Ref) {
    const Stmt *Use = Parents.getParentIgnoreParenImpCasts(const_cast<DeclRefExpr *>(Ref));
    if (const auto *Member = dyn_cast_or_null<MemberExpr>(Use))
      return LibraryCall(Parents.getParent(Member), Member);
    if (isa_and_nonnull<CXXOperatorCallExpr>(Use))
      return LibraryCall(Use, nullptr);
    if (const auto *Copy = dyn_cast_or_null<CXXConstructExpr>(Use))
      return Copy->getConstructor()->isCopyOrMoveConstructor();
    if (const auto *Swap = dyn_cast_or_null<CXXMemberCallExpr>(Use))
      return LibraryCall(Swap, nullptr) && Swap->getMethodDecl()->getIdentifier() &&
             Swap->getMethodDecl()->getName() == "swap";
    if (const auto *Declared = dyn_cast_or_null<DeclStmt>(Use)) {
      const auto *Loop = dyn_cast_or_null<CXXForRangeStmt>(Parents.getParent(Declared));
      return Loop && Loop->getRangeStmt() == Declared;
    }
    return false;
  };
  // A container the callers hand over by reference may also be reached
  // through their aliases: any call outside the library and the rules'
  // functions (MPI's, NCCL's) may resize it.
  bool CallsOutsideLibrary = false;
  forEachStmtInOrder(Function.decl()->getBody(), [&](const Stmt *S) {
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      CallsOutsideLibrary = CallsOutsideLibrary || !Callee ||
                            (!inLibrary(Callee) && !Classifier.classify(Callee).isKnown());
    }
    const auto *Ref = dyn_cast<DeclRefExpr>(S);
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (Var && isContainer(Var->getType().getNonReferenceType()) &&
        (LambdasCapturing.count(Var) || !Allowed(Ref) ||
         (isa<ParmVarDecl>(Var) && Var->getType()->isReferenceType() && CallsOutsideLibrary)))
      EscapedContainers->insert(Var);
  });
  if (CallsOutsideLibrary)
    for (const ParmVarDecl *Param : Function.decl()->parameters())
      if (Param->getType()->isReferenceType())
        EscapedContainers->insert(Param);
  return *EscapedContainers;
}

} // namespace lockstep::analysis::dependence
