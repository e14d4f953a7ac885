// What the standard library's objects do with what they are given: owning
// holders, containers handing out their parts, and the constructions a
// library call runs in place.
#pragma once

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"

namespace lockstep::analysis {

/// Whether \p Type points into a sequence: a pointer, or a class with a
/// dereference operator (an iterator).
bool isIterator(clang::QualType Type);

/// Whether calling \p Method hands out a part of its object instead of
/// changing it: it returns a pointer, an iterator or a reference to something
/// else than the object, given no arguments or only indexes (`v.data()`,
/// `v.begin()`, `v[i]`, `v.at(i)`, `v.front()`), or with a const twin
/// (`m.find(key)`).
bool handsOutAccess(const clang::CXXMethodDecl *Method);

/// The class of the object \p E makes to outlive the statement (on the heap
/// or in an optional): `new Session(...)`, `std::make_unique<Session>(...)`,
/// `std::make_shared<Session>(...)`, `scope.emplace(...)` on a
/// `std::optional<Session>`; null for any other expression.
const clang::CXXRecordDecl *heapClass(const clang::Expr *E);

/// The constructor `std::make_unique<T>(args...)` runs with its arguments,
/// as the instantiation's `new T(...)` names it; null for other calls.
const clang::CXXConstructorDecl *madeUniqueBy(const clang::CallExpr *Call);

/// The constructor of a class of the user's that a library call runs in
/// place with its arguments: `std::make_unique<T>(args...)`,
/// `std::make_shared<T>(args...)`, `opt.emplace(args...)` of a
/// `std::optional<T>`, `v.emplace_back(args...)` (or `emplace_front`) of a
/// container of T. The one the instantiation names, else the only one the
/// arguments fit (by their types, then by their number); null for other
/// calls, and where none or several fit.
const clang::CXXConstructorDecl *constructedInPlace(const clang::CallExpr *Call);

/// The function whose parameters receive \p Call's arguments: the
/// constructor `std::make_unique<T>(args...)` forwards them to, which
/// decides what is written through them; else \p Callee.
const clang::FunctionDecl *forwardedTo(const clang::CallExpr *Call,
                                       const clang::FunctionDecl *Callee);

/// Whether \p Class is `std::pair` (its fields `first` and `second`).
bool isStdPair(const clang::CXXRecordDecl *Class);

/// Whether \p Class holds one object it owns and hands out through `->` and
/// `*`: `std::unique_ptr`, `std::shared_ptr`, `std::optional`.
bool isOwningHolder(const clang::CXXRecordDecl *Class);

/// `p` of `p->` or `*p` through an overloaded operator (a smart pointer, an
/// optional, an iterator); null for any other expression.
const clang::Expr *accessedThrough(const clang::Expr *E);

/// Whether \p Method hands out an element it may first insert: a map's
/// `operator[]`, `emplace_back`, `emplace_front` (C++17 returns the element).
bool insertsElement(const clang::CXXMethodDecl *Method);

} // namespace lockstep::analysis
