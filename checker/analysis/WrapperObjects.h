// Objects that each hold their own communicator: a process-group class whose
// constructor splits one communicator field (`MPI_Comm_split(parent, color,
// key, &comm_)`). `stage.allreduce(v)` and `loss.allreduce(v)` then run on
// two communicators, shared by the ranks each construction's colour says,
// not on one `comm_` of the class. An object stands for its communicator
// where lockstep sees it constructed so (a local, or a reference parameter
// its callers name); anywhere else the field stands for all of them.
#pragma once

#include "RankDependence.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace lockstep::analysis {

class WrapperObjects {
public:
  /// \p Split was made in \p Function; one of a constructor that writes a
  /// field of its own object makes that class a wrapper.
  void addSplit(const clang::FunctionDecl *Function, const RankSplit &Split);
  /// Notes the variables \p Function assigns whole (`s = Stage(...)`): their
  /// communicator is no longer the one their construction made.
  void noteAssignments(const clang::FunctionDecl *Function);

  /// The variable whose object's \p Field a call on \p Object (the object
  /// expression of a member call) uses, when it stands for its own
  /// communicator; null otherwise.
  const clang::ValueDecl *objectFor(const clang::Expr *Object, const clang::FieldDecl *Field) const;
  const clang::VarDecl *objectFor(const clang::VarDecl *Var, const clang::FieldDecl *Field) const;
  /// Also for an object held in a field of the function's own object
  /// (`node_` of `node_->get()`): that field stands for the object's
  /// communicator, apart from other fields holding objects of its class.
  const clang::ValueDecl *objectFor(const clang::ValueDecl *Object,
                                    const clang::FieldDecl *Field) const;
  /// The field of the function's own object that holds \p Object (`node_`
  /// of `node_->`, `this->node_.`), or null.
  static const clang::FieldDecl *holdingField(const clang::Expr *Object);

  /// A wrapper object constructed by a splitting constructor (a local, or
  /// the object a local smart or plain pointer owns from its declaration).
  struct Made {
    const clang::VarDecl *Object;
    const clang::CXXConstructorDecl *Constructor;
    const RankSplit *Split; // the constructor's
  };
  /// Calls \p Visit for each such construction of a local of \p Function.
  void forEachConstruction(const clang::FunctionDecl *Function,
                           llvm::function_ref<void(const Made &)> Visit) const;

  /// What the constructor of the local \p Var is passed for its parameter
  /// \p Param, if \p Var is constructed in its declaration.
  static const clang::Expr *constructorArgument(const clang::VarDecl *Var,
                                                const clang::ParmVarDecl *Param);
  /// The argument the construction of \p Var passes for what the
  /// constructor names in \p InConstructor, when that is a parameter.
  static const clang::Expr *passedFor(const clang::VarDecl *Var, const clang::Expr *InConstructor);
  /// The argument that initializes \p Field of \p Var (`stage_(stage)`).
  static const clang::Expr *fieldArgument(const clang::VarDecl *Var, const clang::FieldDecl *Field);
  /// Whether \p Var is, or refers or points to (or owns, as a smart
  /// pointer), an object of the class that declares \p Field (not of a class
  /// derived from it).
  static bool ofFieldsClass(const clang::ValueDecl *Var, const clang::FieldDecl *Field);

private:
  const RankSplit *splitOf(const clang::VarDecl *Var, const clang::FieldDecl *Field) const;

  // The splits of each wrapper constructor, by the field they write.
  llvm::DenseMap<std::pair<const clang::CXXConstructorDecl *, const clang::FieldDecl *>,
                 const RankSplit *>
      Splitting;
  // Each wrapper class's communicator field; null for a class that splits
  // more than one field, or splits one outside its constructors too.
  llvm::DenseMap<const clang::CXXRecordDecl *, const clang::FieldDecl *> Classes;
  llvm::DenseSet<const clang::VarDecl *> Reassigned;
};

} // namespace lockstep::analysis
