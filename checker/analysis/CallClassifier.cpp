#include "CallClassifier.h"
#include "CallSite.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>

namespace lockstep::analysis {
using namespace clang;

namespace {

bool hasAnnotation(const FunctionDecl *FD, llvm::StringRef Wanted) {
  for (const FunctionDecl *Redecl : FD->redecls())
    for (const auto *Attr : Redecl->specific_attrs<AnnotateAttr>())
      if (Attr->getAnnotation() == Wanted)
        return true;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(FD))
    for (const CXXMethodDecl *Overridden : Method->overridden_methods())
      if (hasAnnotation(Overridden, Wanted))
        return true;
  return false;
}

/// The names under which a rule may list \p FD: its qualified name, and for a
/// method the same method name qualified by every base class, so that
/// "c10d::ProcessGroup::allreduce" also covers ProcessGroupNCCL::allreduce.
std::vector<std::string> ruleNames(const FunctionDecl *FD) {
  std::vector<std::string> Names{FD->getQualifiedNameAsString()};
  const auto *Method = dyn_cast<CXXMethodDecl>(FD);
  if (!Method || !FD->getDeclName().isIdentifier())
    return Names;
  const std::string Suffix = "::" + FD->getName().str();
  std::vector<const CXXRecordDecl *> Pending{Method->getParent()};
  while (!Pending.empty()) {
    const CXXRecordDecl *Record = Pending.back();
    Pending.pop_back();
    Names.push_back(Record->getQualifiedNameAsString() + Suffix);
    if (!Record->hasDefinition())
      continue;
    for (const CXXBaseSpecifier &Base : Record->getDefinition()->bases())
      if (const CXXRecordDecl *BaseRecord = Base.getType()->getAsCXXRecordDecl())
        Pending.push_back(BaseRecord);
  }
  return Names;
}

bool listed(const std::vector<std::string> &List, const std::vector<std::string> &Names) {
  return std::any_of(Names.begin(), Names.end(), [&](const std::string &Name) {
    return std::find(List.begin(), List.end(), Name) != List.end();
  });
}

} // namespace

CallClassifier::CallClassifier(const rules::RuleSet &Rules)
    : Rules(Rules), RankName(Rules.Naming.RankPattern, std::regex::ECMAScript | std::regex::icase),
      WorldSizeName(Rules.Naming.WorldSizePattern, std::regex::ECMAScript | std::regex::icase) {
  for (const rules::StatusRule &Status : Rules.Statuses)
    StatusFunctions.emplace_back(Status.Functions, std::regex::ECMAScript);
  for (const rules::CollectiveRule &Collective : Rules.Collectives)
    if (Collective.Comm.K == rules::ArgRef::Kind::Receiver)
      if (size_t Scope = Collective.Name.rfind("::"); Scope != std::string::npos)
        ReceiverClasses.insert(Collective.Name.substr(0, Scope));
}

bool CallClassifier::isCollectiveReceiver(const CXXRecordDecl *Class) const {
  Class = Class ? Class->getDefinition() : nullptr;
  if (!Class || ReceiverClasses.empty())
    return false;
  if (ReceiverClasses.contains(Class->getQualifiedNameAsString()))
    return true;
  return !Class->forallBases([this](const CXXRecordDecl *Base) {
    return !ReceiverClasses.contains(Base->getQualifiedNameAsString());
  });
}

const CalleeRole &CallClassifier::classify(const FunctionDecl *Callee) const {
  Callee = Callee->getCanonicalDecl();
  auto It = Cache.find(Callee);
  if (It == Cache.end())
    It = Cache.try_emplace(Callee, computeRole(Callee)).first;
  return It->second;
}

// The compiler's builtins compute from their arguments as the library does
// (`isfinite(v)` of C's <math.h> is `__builtin_isfinite(v)`), except those
// the compiler answers from the program's text, the same on every rank.
static bool computedBuiltin(unsigned ID) {
  switch (ID) {
  case 0:
  case Builtin::BI__builtin_constant_p:
  case Builtin::BI__builtin_object_size:
  case Builtin::BI__builtin_dynamic_object_size:
  case Builtin::BI__builtin_classify_type:
    return false;
  default:
    return true;
  }
}

CalleeRole CallClassifier::computeRole(const FunctionDecl *FD) const {
  CalleeRole Role;
  Role.Name = FD->getQualifiedNameAsString();
  const std::vector<std::string> Names = ruleNames(FD);
  for (const std::string &Name : Names) {
    if (!Role.Collective && (Role.Collective = Rules.findCollective(Name)))
      Role.Name = Name;
    if (!Role.GroupMarker)
      Role.GroupMarker = Rules.findGroupMarker(Name);
    if (!Role.RankSource)
      Role.RankSource = Rules.findRankSource(Name);
    if (!Role.UniformSource)
      Role.UniformSource = Rules.findUniformSource(Name);
    if (!Role.PerRankSource)
      Role.PerRankSource = Rules.findPerRankSource(Name);
    if (!Role.Copy)
      Role.Copy = Rules.findCopy(Name);
    if (!Role.RankSet)
      Role.RankSet = Rules.findRankSet(Name);
  }
  for (const rules::JoinProtocolRule &Join : Rules.JoinProtocols) {
    if (listed(Join.Shadows, Names))
      Role.ShadowedBy.push_back(&Join);
    const auto *Method = dyn_cast<CXXMethodDecl>(FD);
    const bool OfGuard = Method && !Join.Guard.empty() &&
                         Method->getParent()->getQualifiedNameAsString() == Join.Guard;
    if ((OfGuard && isa<CXXConstructorDecl>(FD)) || listed({Join.Begin}, Names))
      Role.JoinBegin = &Join;
    if ((OfGuard && isa<CXXDestructorDecl>(FD)) || listed({Join.End}, Names))
      Role.JoinEnd = &Join;
  }
  Role.EnvironmentReader = listed(Rules.Environment.Readers, Names);
  Role.AbortsJob = listed(Rules.JobAborts, Names);
  Role.Converter = listed(Rules.Environment.Converters, Names);
  Role.SystemLibrary = computedBuiltin(FD->getBuiltinID()) ||
                       FD->getASTContext().getSourceManager().isInSystemHeader(FD->getLocation());
  Role.AnnotatedCollective = hasAnnotation(FD, "lockstep::collective");
  Role.AnnotatedRankSource = hasAnnotation(FD, "lockstep::rank_source");
  Role.AnnotatedUniform = hasAnnotation(FD, "lockstep::uniform");
  Role.StatusSuccess = successOf(FD->getReturnType(), &Names.front());
  Role.NullFails = nullFails(FD, Names);
  return Role;
}

bool CallClassifier::nullFails(const FunctionDecl *FD,
                               const std::vector<std::string> &Names) const {
  if (!FD->getReturnType()->isPointerType())
    return false;
  for (size_t I = 0; I < Rules.Statuses.size(); ++I)
    if (Rules.Statuses[I].NullFails && std::regex_search(Names.front(), StatusFunctions[I]))
      return true;
  return false;
}

// The success value of a status of \p Result's type or, with \p Function,
// of the integral results of that function.
std::optional<int64_t> CallClassifier::successOf(QualType Result,
                                                 const std::string *Function) const {
  // The type names the result carries, outermost typedef first.
  std::vector<std::string> TypeNames;
  for (QualType T = Result; const auto *Typedef = T->getAs<TypedefType>();
       T = Typedef->getDecl()->getUnderlyingType())
    TypeNames.push_back(Typedef->getDecl()->getQualifiedNameAsString());
  const auto *Enum = dyn_cast_or_null<EnumDecl>(Result->getAsTagDecl());
  if (Enum && Enum->getIdentifier())
    TypeNames.push_back(Enum->getQualifiedNameAsString());
  for (size_t I = 0; I < Rules.Statuses.size(); ++I) {
    const rules::StatusRule &Status = Rules.Statuses[I];
    if (Status.NullFails)
      continue; // a pointer result: nullFails
    const bool Applies = Status.Type.empty() ? Function && Result->isIntegralOrEnumerationType() &&
                                                   std::regex_search(*Function, StatusFunctions[I])
                                             : llvm::is_contained(TypeNames, Status.Type);
    if (!Applies)
      continue;
    if (Status.Value)
      return *Status.Value;
    if (Enum)
      for (const EnumConstantDecl *Constant : Enum->enumerators())
        if (Constant->getName() == Status.Success)
          return Constant->getInitVal().getExtValue();
  }
  return std::nullopt;
}

// Whether the function of \p Param passes it, as the name, to an
// environment reader (`std::getenv(name)`).
bool CallClassifier::readsEnvironmentNamedBy(const ParmVarDecl *Param) const {
  auto [It, Inserted] = EnvironmentNameParams.try_emplace(Param, false);
  const auto *Function = dyn_cast<FunctionDecl>(Param->getDeclContext());
  if (!Inserted || !Function)
    return It->second;
  // A wrapper this file only declares, shaped as an environment getter with
  // a default (`int readEnvInt(const char *name, int dflt);`), is taken at
  // its word: handed a variable's name, it returns the number read from it.
  // Other shapes (`env_is_set("RANK")`, `hash("RANK")`, `str_eq(mode,
  // "RANK")`) read no number; neither does a library's.
  if (!Function->hasBody()) {
    ASTContext &Context = Function->getASTContext();
    const QualType Result = Function->getReturnType();
    return It->second =
               !classify(Function).SystemLibrary && Function->getNumParams() == 2 &&
               Param == Function->getParamDecl(0) && Result->isIntegerType() &&
               !Result->isBooleanType() && Param->getType()->isPointerType() &&
               Param->getType()->getPointeeType()->isCharType() &&
               Context.hasSameUnqualifiedType(Function->getParamDecl(1)->getType(), Result);
  }
  bool Reads = false;
  forEachStmtInOrder(Function->getBody(), [&](const Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    if (Reads || !Callee || Call->getNumArgs() < 1 || !classify(Callee).EnvironmentReader)
      return;
    const auto *Name = dyn_cast<DeclRefExpr>(Call->getArg(0)->IgnoreParenImpCasts());
    Reads = Name && Name->getDecl() == Param;
  });
  return EnvironmentNameParams[Param] = Reads;
}

EnvironmentValue CallClassifier::environmentRead(const CallExpr *Call,
                                                 std::string &Variable) const {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return EnvironmentValue::None;
  const StringLiteral *Literal = nullptr;
  const bool Reader = classify(Callee).EnvironmentReader;
  for (unsigned I = 0; I < Call->getNumArgs() && I < Callee->getNumParams() && !Literal; ++I) {
    const auto *Name = dyn_cast<StringLiteral>(Call->getArg(I)->IgnoreParenImpCasts());
    if (Name && Name->isOrdinary() &&
        (Reader ? I == 0 : readsEnvironmentNamedBy(Callee->getParamDecl(I))))
      Literal = Name;
  }
  if (!Literal)
    return EnvironmentValue::None;
  Variable = Literal->getString().str();
  const auto &Env = Rules.Environment;
  if (std::find(Env.RankVariables.begin(), Env.RankVariables.end(), Variable) !=
      Env.RankVariables.end())
    return EnvironmentValue::Rank;
  if (std::find(Env.WorldSizeVariables.begin(), Env.WorldSizeVariables.end(), Variable) !=
      Env.WorldSizeVariables.end())
    return EnvironmentValue::WorldSize;
  return EnvironmentValue::None;
}

bool CallClassifier::matches(llvm::StringRef Name, const std::regex &Pattern,
                             llvm::StringMap<bool> &Seen) const {
  if (Name.empty())
    return false;
  auto [It, Inserted] = Seen.try_emplace(Name, false);
  if (Inserted)
    It->second = std::regex_search(Name.str(), Pattern);
  return It->second;
}

bool CallClassifier::isRankName(llvm::StringRef Name) const {
  return matches(Name, RankName, RankNames);
}

bool CallClassifier::isWorldSizeName(llvm::StringRef Name) const {
  return matches(Name, WorldSizeName, WorldSizeNames);
}

} // namespace lockstep::analysis
