// What a call means to the engine: the function it runs, its explicit
// arguments, and the arguments a rules entry names (root, count, colour...).
#pragma once

#include "llvm/ADT/STLFunctionalExtras.h"

#include "LibraryObjects.h"
#include "RuleSet.h"

#include "clang/AST/Expr.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/Lambda.h"

#include <algorithm>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace lockstep::analysis {

/// The explicit arguments of a call, without the implicit object.
std::vector<const clang::Expr *> explicitArguments(const clang::CallExpr *Call);

/// The method an element access or library call runs, when it is one.
const clang::CXXMethodDecl *methodOf(const clang::CallExpr *Call);

/// What an element access reads from, and its index when it has one: the
/// pointer of `a[i]` and `*p`, the object of `v[i]`, `v.at(i)`,
/// `v.front()` and `*it`: a method that returns a reference into its object
/// (not to the object itself, as assignments and stream operators do).
const clang::Expr *accessedBase(const clang::Expr *E, const clang::Expr *&Index);
/// The element \p Index names when it is a small constant: one of the
/// elements the data flow tells apart (limits::TrackedElements).
std::optional<unsigned> constantIndex(const clang::Expr *Index, const clang::ASTContext &Context);
/// Whether a communicator or process group is an element a rank picks from
/// a container (`groups[rank / tp]`), directly or through a local or an
/// accessor.
bool pickedFromContainer(const clang::Expr *Handle);

/// \p E without parentheses, implicit casts and branch hints
/// (`__builtin_expect(x, 0)`, which the `likely`/`unlikely` macros of C code
/// spell): the value the hint passes through.
const clang::Expr *ignoreBranchHints(const clang::Expr *E);

/// The function a call runs: the direct callee, devirtualized when the
/// object's dynamic type is known.
const clang::FunctionDecl *resolvedCallee(const clang::CallExpr *Call);

/// The expression \p Ref names in \p Call: an argument, the implicit object,
/// or a field of a braced options argument. Null when absent.
const clang::Expr *ruleArgument(const clang::CallExpr *Call, const rules::ArgRef &Ref);

/// The arguments every rank must pass identically to \p Call, by role, in
/// rules order; an in-place call names its receive side's count and type.
std::vector<std::pair<const char *, const rules::ArgRef *>>
agreedArguments(const rules::CollectiveRule &Rule, const clang::CallExpr *Call,
                const clang::ASTContext &Context);

/// The function a CFG element calls: calls, constructions and the implicit
/// destructors of RAII objects. \p Site and \p SiteStmt say where.
const clang::FunctionDecl *elementCallee(const clang::CFGElement &Element,
                                         clang::ASTContext &Context, clang::SourceLocation &Site,
                                         const clang::Stmt *&SiteStmt);

/// Visits \p Root and every statement below it, in source order, with an
/// explicit stack: expressions nest 50,000 deep.
template <typename VisitFn> void forEachStmtInOrder(const clang::Stmt *Root, VisitFn Visit) {
  std::vector<const clang::Stmt *> Work{Root};
  while (!Work.empty()) {
    const clang::Stmt *S = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    Visit(S);
    size_t End = Work.size();
    Work.insert(Work.end(), S->child_begin(), S->child_end());
    std::reverse(Work.begin() + End, Work.end());
  }
}

/// Calls \p Visit(Callee, Site, SiteStmt) for each call a block makes, in
/// order (SiteStmt is null for destructors), with the CFG element as a
/// fourth argument when \p Visit takes one. With \p Unnamed, also for the
/// calls through a pointer, with a null Callee.
template <typename VisitFn>
void forEachCall(const clang::CFGBlock &Block, clang::ASTContext &Context, VisitFn Visit,
                 bool Unnamed = false) {
  auto Call = [&](const clang::FunctionDecl *Callee, clang::SourceLocation Site,
                  const clang::Stmt *SiteStmt, const clang::CFGElement &Element) {
    if constexpr (std::is_invocable_v<VisitFn, const clang::FunctionDecl *, clang::SourceLocation,
                                      const clang::Stmt *, const clang::CFGElement &>)
      Visit(Callee, Site, SiteStmt, Element);
    else
      Visit(Callee, Site, SiteStmt);
  };
  for (const clang::CFGElement &Element : Block) {
    clang::SourceLocation Site;
    const clang::Stmt *SiteStmt = nullptr;
    if (const clang::FunctionDecl *Callee = elementCallee(Element, Context, Site, SiteStmt))
      Call(Callee, Site, SiteStmt, Element);
    else if (Unnamed && llvm::isa_and_nonnull<clang::CallExpr>(SiteStmt))
      Call(nullptr, Site, SiteStmt, Element);
  }
}

/// The USR of \p D: the name of the same function, field or global in every
/// file.
std::string usrOf(const clang::Decl *D);

/// A field of a named record or a global of the project (not of a system
/// header) that other files can read.
bool visibleElsewhere(const clang::ValueDecl *D);

/// Whether \p E is written as the macro \p Name (`MPI_COMM_SELF`), directly
/// or through the macros it expands to.
bool spelledAsMacro(const clang::Expr *E, llvm::StringRef Name, const clang::ASTContext &Context);

/// Whether \p Type is a reference through which the referent can be
/// written (not a reference to const).
bool writableReference(clang::QualType Type);

/// Calls \p Visit with each by-reference init-capture of \p Lambda and the
/// variable it names (`r` and `rounds` in `[&r = rounds]`).
void forEachInitCaptureReference(
    const clang::CXXRecordDecl *Lambda,
    llvm::function_ref<void(const clang::VarDecl *Capture, const clang::VarDecl *Referent)> Visit);

/// How the lambda whose call operator is \p Function captures \p Var
/// (`[&r = Var]` is by reference); none when it is no lambda's or does not
/// capture it.
std::optional<clang::LambdaCaptureKind> captureOf(const clang::VarDecl *Var,
                                                  const clang::FunctionDecl *Function);

/// Whether \p Function is a lambda's call operator that captures \p Var by
/// reference: what it writes there, its caller holds after the call.
bool capturedByReference(const clang::VarDecl *Var, const clang::FunctionDecl *Function);

/// What \p Call may write: the arguments bound to non-const references and
/// the object of a non-const method (`fill(n)`, `in >> n`, `v.push_back(x)`).
void forEachWrittenOperand(const clang::CallExpr *Call,
                           llvm::function_ref<void(const clang::Expr *)> Written);

/// The variable \p S assigns (also by a class's `operator=`), increments or
/// takes the address of, so that it may hold another value later; or null.
const clang::VarDecl *reassignedVariable(const clang::Stmt *S);

/// Calls \p Visit for each operand \p Body writes, saying whether a
/// non-const method call does (on its object); an address taken is a write
/// unless \p ReadOnly says it is only read through.
void forEachWrite(const clang::Stmt *Body,
                  llvm::function_ref<bool(const clang::UnaryOperator *)> ReadOnly,
                  llvm::function_ref<void(const clang::Expr *, bool ByMethod)> Visit);

/// `MPI_COMM_NULL`, `nullptr`, `NULL`, `0` as a handle.
bool isNullHandle(const clang::Expr *E, clang::ASTContext &Context);

/// The handle \p Condition compares with the null handle (`sub !=
/// MPI_COMM_NULL`, `comm == nullptr`), when that is all it tests; or null.
const clang::ValueDecl *nullTestedHandle(const clang::Expr *Condition, clang::ASTContext &Context);

/// The member pointer a call runs through (`step` of `(s.*step)()` or
/// `(p->*step)()`); null for any other call.
const clang::Expr *calledMemberPointer(const clang::CallExpr *Call);

/// What decides which function an indirect call runs: the object of a
/// virtual call (`logger` of `logger->log()`), the callable of a call
/// operator (`on_step_` of `on_step_(s)`) or the pointer called (`f`, `step`
/// of `(s.*step)()`).
const clang::Expr *dispatchHolder(const clang::CallExpr *Call);

/// The variable or field an expression names (`comm`, `this->comm_`, `&c`),
/// or null.
const clang::ValueDecl *namedStorage(const clang::Expr *E);
/// The reference to the variable whose address \p E takes (`c` of `&c`), or
/// null (also for a null \p E).
const clang::DeclRefExpr *addressTaken(const clang::Expr *E);

/// namedStorage, also through an accessor: a call of a function whose body
/// is `return X;` with X a global or a field (`cross_node_comm()`).
const clang::ValueDecl *accessedStorage(const clang::Expr *E);
/// The global or field an accessor returns (`T f() { return X; }`), or null.
const clang::ValueDecl *accessorTarget(const clang::FunctionDecl *Callee);
/// The object whose field \p E reads, directly or through an accessor
/// (`g` of `g.comm_` or `g.comm()`, `this` of `comm_`); null otherwise.
const clang::Expr *fieldOwner(const clang::Expr *E);

} // namespace lockstep::analysis
