// What the standard library's objects do with what they are given: owning
// holders, containers handing out their parts, and the constructions a
// library call runs in place (`std::make_unique<T>(args...)`,
// `opt.emplace(args...)`, `v.emplace_back(args...)`).
#include "LibraryObjects.h"
#include "CallSite.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

namespace lockstep::analysis {
using namespace clang;

bool isIterator(QualType Type) {
  if (Type->isPointerType())
    return true;
  const auto *Record = Type->getAsCXXRecordDecl();
  if (!Record || !Record->hasDefinition())
    return false;
  for (const CXXMethodDecl *Method : Record->methods())
    if (Method->getOverloadedOperator() == OO_Star)
      return true;
  return false;
}

const CXXRecordDecl *heapClass(const Expr *E) {
  if (const auto *New = dyn_cast_or_null<CXXNewExpr>(E))
    return New->getAllocatedType()->getAsCXXRecordDecl();
  if (const auto *Member = dyn_cast_or_null<CXXMemberCallExpr>(E)) {
    // `emplace` of the holders: only `std::optional` has one.
    const auto *Holder = dyn_cast_or_null<ClassTemplateSpecializationDecl>(Member->getRecordDecl());
    const CXXMethodDecl *Method = Member->getMethodDecl();
    if (!isOwningHolder(Holder) || !Method || !Method->getIdentifier() ||
        !Method->getIdentifier()->isStr("emplace") || Holder->getTemplateArgs().size() != 1 ||
        Holder->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
      return nullptr;
    return Holder->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
  }
  const auto *Call = dyn_cast_or_null<CallExpr>(E);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee || !Callee->isInStdNamespace() || !Callee->getIdentifier() ||
      (Callee->getName() != "make_unique" && Callee->getName() != "make_shared"))
    return nullptr;
  const auto *Made = Callee->getReturnType()->getAs<TemplateSpecializationType>();
  if (!Made || Made->template_arguments().empty() ||
      Made->template_arguments()[0].getKind() != TemplateArgument::Type)
    return nullptr;
  return Made->template_arguments()[0].getAsType()->getAsCXXRecordDecl();
}

const CXXConstructorDecl *madeUniqueBy(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->isInStdNamespace() || !Callee->getIdentifier() ||
      Callee->getName() != "make_unique")
    return nullptr;
  const FunctionDecl *Definition = Callee->getDefinition();
  const CXXRecordDecl *Made = heapClass(Call);
  if (!Definition || !Definition->getBody() || !Made)
    return nullptr;
  const CXXConstructorDecl *Constructor = nullptr;
  forEachStmtInOrder(Definition->getBody(), [&](const Stmt *S) {
    const auto *New = dyn_cast<CXXNewExpr>(S);
    const CXXConstructExpr *Construct = New ? New->getConstructExpr() : nullptr;
    if (Construct && !Constructor && Construct->getConstructor()->getParent() == Made)
      Constructor = Construct->getConstructor();
  });
  return Constructor;
}

/// Whether the class of \p Method also declares a const overload of it with
/// the same parameters: the non-const one hands out for writing the parts
/// the const one hands out for reading, and leaves the container as it is
/// (`find`, `begin`, a vector's `operator[]`; not a map's `operator[]`,
/// which inserts and has no const twin).
static bool hasConstTwin(const CXXMethodDecl *Method) {
  for (const NamedDecl *Found : Method->getParent()->lookup(Method->getDeclName())) {
    const auto *Other = dyn_cast<CXXMethodDecl>(Found);
    if (!Other || Other == Method || !Other->isConst() ||
        Other->getNumParams() != Method->getNumParams())
      continue;
    if (llvm::all_of(llvm::zip(Other->parameters(), Method->parameters()), [](auto Params) {
          return std::get<0>(Params)->getType().getCanonicalType() ==
                 std::get<1>(Params)->getType().getCanonicalType();
        }))
      return true;
  }
  return false;
}

bool handsOutAccess(const CXXMethodDecl *Method) {
  QualType Returned = Method->getReturnType();
  const CXXRecordDecl *Pointee = Returned->getPointeeCXXRecordDecl();
  bool Part =
      isIterator(Returned) ||
      (Returned->isReferenceType() &&
       !(Pointee && Pointee->getCanonicalDecl() == Method->getParent()->getCanonicalDecl()));
  return Part && (llvm::all_of(Method->parameters(),
                               [](const ParmVarDecl *Param) {
                                 return Param->getType()->isIntegralOrEnumerationType();
                               }) ||
                  hasConstTwin(Method));
}

bool isOwningHolder(const CXXRecordDecl *Class) {
  if (!Class || !Class->isInStdNamespace() || !Class->getIdentifier())
    return false;
  llvm::StringRef Name = Class->getName();
  return Name == "unique_ptr" || Name == "shared_ptr" || Name == "optional";
}

const Expr *accessedThrough(const Expr *E) {
  const auto *Access = dyn_cast<CXXOperatorCallExpr>(E);
  return Access && Access->getNumArgs() == 1 &&
                 (Access->getOperator() == OO_Arrow || Access->getOperator() == OO_Star)
             ? Access->getArg(0)
             : nullptr;
}

bool isStdPair(const CXXRecordDecl *Class) {
  return Class && Class->isInStdNamespace() && Class->getIdentifier() &&
         Class->getIdentifier()->isStr("pair");
}

bool insertsElement(const CXXMethodDecl *Method) {
  if (!Method)
    return false;
  if (Method->getOverloadedOperator() == OO_Subscript) {
    const CXXRecordDecl *Container = Method->getParent();
    return !Container->lookup(&Method->getASTContext().Idents.get("mapped_type")).empty();
  }
  const IdentifierInfo *Name = Method->getIdentifier();
  return Name && (Name->isStr("emplace_back") || Name->isStr("emplace_front"));
}

/// The class a library call constructs in place from its arguments.
static const CXXRecordDecl *classMadeInPlace(const CallExpr *Call) {
  if (const CXXRecordDecl *Made = heapClass(Call)) // make_unique, make_shared, emplace
    return Made;
  const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
  const CXXMethodDecl *Method = Member ? Member->getMethodDecl() : nullptr;
  const auto *Container =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(Member ? Member->getRecordDecl() : nullptr);
  if (!Method || !Method->getIdentifier() || !Container || !Container->isInStdNamespace() ||
      !(Method->getIdentifier()->isStr("emplace_back") ||
        Method->getIdentifier()->isStr("emplace_front")) ||
      Container->getTemplateArgs().size() == 0 ||
      Container->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return nullptr;
  return Container->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
}

const CXXConstructorDecl *constructedInPlace(const CallExpr *Call) {
  const CXXRecordDecl *Made = classMadeInPlace(Call);
  if (!Made || !Made->hasDefinition())
    return nullptr;
  if (const CXXConstructorDecl *Named = madeUniqueBy(Call))
    return Named;
  Made = Made->getDefinition();
  std::vector<const Expr *> Args = explicitArguments(Call);
  // A copy or a move of an object of the class (`v.emplace_back(session)`).
  if (llvm::any_of(Args, [&](const Expr *Arg) {
        const CXXRecordDecl *Of = Arg->getType()->getAsCXXRecordDecl();
        return Of && Of->hasDefinition() &&
               (Of->getCanonicalDecl() == Made->getCanonicalDecl() || Of->isDerivedFrom(Made));
      }))
    return nullptr;
  const ASTContext &Context = Made->getASTContext();
  auto Fits = [&](const CXXConstructorDecl *Constructor, bool ByType) {
    if (Constructor->isDeleted() || Constructor->isCopyOrMoveConstructor() ||
        Args.size() < Constructor->getMinRequiredArguments() ||
        (Args.size() > Constructor->getNumParams() && !Constructor->isVariadic()))
      return false;
    for (size_t I = 0; ByType && I < Args.size() && I < Constructor->getNumParams(); ++I)
      if (!Context.hasSameUnqualifiedType(
              Args[I]->getType(), Constructor->getParamDecl(I)->getType().getNonReferenceType()))
        return false;
    return true;
  };
  for (bool ByType : {true, false}) {
    const CXXConstructorDecl *Only = nullptr;
    unsigned Count = 0;
    for (const CXXConstructorDecl *Constructor : Made->ctors())
      if (Fits(Constructor, ByType)) {
        Only = Constructor;
        ++Count;
      }
    if (Count)
      return Count == 1 ? Only : nullptr;
  }
  return nullptr;
}

const FunctionDecl *forwardedTo(const CallExpr *Call, const FunctionDecl *Callee) {
  const CXXConstructorDecl *Made = madeUniqueBy(Call);
  return Made ? Made : Callee;
}

} // namespace lockstep::analysis
