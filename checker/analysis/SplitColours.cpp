// Membership from the splits the data flow recorded: each split's colour as
// a formula over the rank, for the handle it writes, the callers' handles a
// helper hands it back to, and the objects of process-group classes.
#include "FreshCommunicators.h"
#include "GroupMembers.h"
#include "HandedBackSplits.h"
#include "Limits.h"
#include "TranslationUnitAnalysis.h"

namespace lockstep::analysis {
using namespace clang;

// Each field a braced list gives a value, with it (the semantic form lists
// the bases' first and skips unnamed bit-fields; a field left to its
// default is not written there).
template <typename VisitFn>
static void forEachListedField(const InitListExpr *List, VisitFn Visit) {
  const RecordDecl *Record = List->getType()->getAsRecordDecl();
  const auto *Class = dyn_cast_or_null<CXXRecordDecl>(Record);
  unsigned I = Class && Class->hasDefinition() ? Class->getNumBases() : 0;
  if (!Record || Record->isUnion() || List->getSemanticForm() || List->isTransparent())
    return;
  for (const FieldDecl *Field : Record->fields()) {
    if (Field->isUnnamedBitField())
      continue;
    const Expr *Init = I < List->getNumInits() ? List->getInit(I) : nullptr;
    ++I;
    if (Init && !isa<ImplicitValueInitExpr, CXXDefaultInitExpr>(Init))
      Visit(Field, Init);
  }
}

// A split's colour, as a formula over the rank: who shares each part.
void TranslationUnitAnalysis::collectSplits() {
  // The communicator and its colour kept side by side in a struct (`d.group`
  // split by `d.color`, `h.leaders` by `h.is_leader() ? 0 : MPI_UNDEFINED`):
  // functions handed the struct test the fields the colour is computed from.
  // The functions whose splits read each colour field.
  llvm::DenseMap<const ValueDecl *, llvm::SmallPtrSet<const FunctionDecl *, 2>> SplitIn;
  for (const auto &Function : Functions)
    for (const RankSplit &Split : Dependence[Function.get()].Splits)
      if (Split.colouredByArgument()) {
        llvm::DenseSet<const ValueDecl *> Behind;
        fieldsBehind(Split.Color, Behind);
        for (const ValueDecl *Field : Behind) {
          ColourFields.insert(Field);
          SplitIn[Field].insert(Function->decl());
        }
      } else if (Split.Color)
        continue;
      else if (Split.CoordinatesField)
        CoordinateFields.try_emplace(Split.CoordinatesField);
      else
        collectCoordinateCopies(*Function, Split);
  // So are the fields a wrapper object's construction passes for its colour
  // (`CommGroup(world, topo.stage, topo.rank)`).
  for (const auto &Function : Functions)
    Wrappers.forEachConstruction(Function->decl(), [&](const WrapperObjects::Made &Made) {
      if (const Expr *Argument = WrapperObjects::passedFor(Made.Object, Made.Split->Color))
        fieldsBehind(Argument, ColourFields);
    });
  // A copy is the coordinate, and a colour field read as an argument the
  // colour, only while nothing else in the file writes it (a constructor's
  // initializer or a braced list included); the colour's one write must
  // also be where the split reads it, not in a setter called again later.
  llvm::DenseMap<const ValueDecl *, std::pair<unsigned, const FunctionDecl *>> FieldWrites;
  auto Count = [&](const ValueDecl *Field, const FunctionDecl *In) {
    const auto *Copy = dyn_cast_or_null<FieldDecl>(Field);
    if (!ColourFields.count(Field) && !(Copy && CoordinateCopies.count(Copy)))
      return;
    auto &[Writes, Writer] = FieldWrites[Field];
    ++Writes;
    Writer = In;
  };
  if (!CoordinateCopies.empty() || !ColourFields.empty())
    for (const auto &Function : Functions) {
      const FunctionDecl *In = Function->decl();
      forEachWrite(
          In->getBody(), [](const UnaryOperator *) { return false; },
          [&](const Expr *E, bool) {
            if (const auto *Written = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts()))
              Count(Written->getMemberDecl(), In);
          });
      forEachStmtInOrder(In->getBody(), [&](const Stmt *S) {
        if (const auto *List = dyn_cast<InitListExpr>(S))
          forEachListedField(List, [&](const FieldDecl *Field, const Expr *) { Count(Field, In); });
      });
      if (const auto *Constructor = dyn_cast<CXXConstructorDecl>(In))
        for (const CXXCtorInitializer *Init : Constructor->inits())
          if (Init->isWritten() && Init->getMember())
            Count(Init->getMember(), In);
    }
  for (const auto &[Field, Written] : FieldWrites) {
    const auto *Copy = dyn_cast<FieldDecl>(Field);
    if (Written.first != 1 && Copy)
      CoordinateCopies.erase(Copy);
    if (Written.first == 1 && SplitIn.lookup(Field).count(Written.second))
      ColourFieldsSetOnce.insert(Field);
  }
  // Communicators created for groups last: whether the communicator a group
  // was taken from is a split decides how its members are read.
  for (bool ForGroups : {false, true})
    for (const auto &Function : Functions)
      for (const RankSplit &Split : Dependence[Function.get()].Splits) {
        const Provenance *Source = Env.resolve(Split.Value, Function->decl());
        if (Split.ByGroup != ForGroups || !Source || Source->Pending)
          continue;
        // A sub-grid's members share every coordinate it drops: the first is
        // the colour, the others are the same on its members.
        auto Coordinate = [&](unsigned Dim) {
          return Split.CoordinatesField
                     ? Formulas.perRank(&CoordinateFields[Split.CoordinatesField][Dim],
                                        /*Boolean=*/false)
                     : shapeOf(*Function).conditions().writtenElement(Split.Coordinates,
                                                                      Split.CoordinatesWrite, Dim);
        };
        FormulaRef Colour = Split.ByPlacement ? Formulas.perRank(Split.Color, /*Boolean=*/false)
                            : Split.ByGroup   ? groupColour(*Function, Split)
                            : Split.Color ? shapeOf(*Function).conditions().expression(Split.Color)
                                          : Coordinate(Split.Dims.front());
        auto AddSplit = [&](const ValueDecl *Comm, const ValueDecl *Parent, FormulaRef Shared) {
          Members.addSplit(Comm, Parent, Shared);
          if (Split.Color)
            return;
          // A sub-grid drops at least one dimension.
          for (unsigned Dim : llvm::ArrayRef(Split.Dims).drop_front())
            Members.sameOnMembers(Comm, Coordinate(Dim));
          for (const auto &[Field, Copied] : CoordinateCopies)
            if (Copied.Coordinates == Split.Coordinates && Copied.Write == Split.CoordinatesWrite &&
                llvm::is_contained(Split.Dims, Copied.Dim))
              Members.sameOnMembers(Comm, Formulas.perRank(Field, /*Boolean=*/false));
        };
        AddSplit(Split.Communicator, Split.Parent, Colour);
        // The callers' handles of a split a helper returns or writes out: the
        // colour in the caller's terms where the call's arguments make it.
        for (const HandedBackSplit &Kept : handedBack(*Function, Split, *Bindings)) {
          std::optional<FormulaRef> Passed =
              Split.colouredByArgument()
                  ? shapeOf(*Kept.Caller).conditions().atCall(Kept.Call, Split.Color)
                  : std::nullopt;
          AddSplit(Kept.Storage, Kept.Parent, Passed.value_or(Colour));
        }
      }
  // Each object of a class whose constructor splits its communicator is one
  // part of its own split: the one its construction's colour says.
  for (const auto &Function : Functions)
    Wrappers.forEachConstruction(Function->decl(), [&](const WrapperObjects::Made &Made) {
      const FunctionCFG *Constructor = ByDecl.lookup(Made.Constructor->getCanonicalDecl());
      if (const Provenance *Source =
              Constructor ? Env.resolve(Made.Split->Value, Constructor->decl()) : nullptr;
          Source && Source->Pending)
        return; // decided by another file's summary, as the splits above
      std::optional<FormulaRef> Colour;
      if (Made.Split->ByPlacement)
        Colour = Formulas.perRank(Made.Split->Color, /*Boolean=*/false);
      else if (const Expr *Argument = WrapperObjects::passedFor(Made.Object, Made.Split->Color))
        Colour = shapeOf(*Function).conditions().expression(Argument);
      else if (Constructor)
        Colour = shapeOf(*Constructor).conditions().expression(Made.Split->Color);
      const ValueDecl *Parent = Made.Split->Parent;
      if (const auto *Param = dyn_cast_or_null<ParmVarDecl>(Parent)) {
        const Expr *Argument = WrapperObjects::constructorArgument(Made.Object, Param);
        Parent = Argument ? namedStorage(Argument) : nullptr;
      }
      if (Colour)
        Members.addSplit(Made.Object, Parent, *Colour);
    });
  collectHandleCopies();
}

// A communicator made for the members of a group (`MPI_Comm_create(world,
// group, &sub)`): colour 0 on them, none elsewhere; a colour no formula can
// name when the group is not one groupMembers can read.
FormulaRef TranslationUnitAnalysis::groupColour(const FunctionCFG &Function,
                                                const RankSplit &Split) {
  bool TooLong = false;
  auto IsSplit = [this](const ValueDecl *Comm) { return Members.isSplit(Comm); };
  GroupMembersQuery Query{Function, Classifier, shapeOf(Function).conditions(), Formulas, IsSplit};
  const FunctionDecl *Callee = Split.Call ? Split.Call->getDirectCallee() : nullptr;
  const rules::CollectiveRule *Rule = Callee ? Classifier.classify(Callee).Collective : nullptr;
  const Expr *Comm = Rule ? ruleArgument(Split.Call, Rule->Comm) : nullptr;
  std::optional<FormulaRef> In =
      Comm ? groupMembers(Query, Split.Color, Split.Call, Comm, TooLong) : std::nullopt;
  if (TooLong)
    Limits.push_back({Function.decl(), Split.Color->getExprLoc(),
                      "a group lists more than " + std::to_string(limits::MaxListedRanks) +
                          " ranks; the members of the communicator made for it are unknown"});
  if (!In)
    return Formulas.perRank(Split.Color, /*Boolean=*/false);
  return Formulas.choose(*In, Formulas.constant(0), Formulas.constant(UndefinedColour));
}

// A local variable or field that only ever holds one split's handle or no
// communicator (`MPI_Comm sub = MPI_COMM_NULL; if (part != MPI_COMM_NULL)
// sub = part;`) has that split's members, and a collective on it is one on
// the handle it copies (`Comm w{sub}; w.sum(v);` after a group's members
// made `sub`). Its address handed out, or any other value written to it,
// makes it a handle of its own.
void TranslationUnitAnalysis::collectHandleCopies() {
  llvm::DenseMap<const ValueDecl *, const ValueDecl *> CopyOf; // null: not a copy
  // How many times each storage is set after it is made: a copy stands for
  // a handle only while that handle holds one communicator.
  llvm::DenseMap<const ValueDecl *, unsigned> SetAgain;
  llvm::SmallPtrSet<const Stmt *, 8> Released; // `&sub` of `MPI_Comm_free(&sub)`
  auto Written = [&](const ValueDecl *Copy, const Expr *Value) {
    if (!Copy || !Value)
      return;
    ASTContext &Context = Copy->getASTContext();
    if (isNullHandle(Value, Context))
      return;
    const ValueDecl *Of = namedStorage(Value->IgnoreParenImpCasts());
    auto [It, Inserted] = CopyOf.try_emplace(Copy, Of);
    if (!Of || (!Inserted && It->second != Of))
      It->second = nullptr;
  };
  for (const auto &Function : Functions)
    forEachStmtInOrder(Function->decl()->getBody(), [&](const Stmt *S) {
      if (const auto *Assign = dyn_cast<BinaryOperator>(S); Assign && Assign->isAssignmentOp()) {
        ++SetAgain[namedStorage(Assign->getLHS())];
        Written(namedStorage(Assign->getLHS()),
                Assign->getOpcode() == BO_Assign ? Assign->getRHS() : Assign->getLHS());
      } else if (const auto *Var = dyn_cast<DeclStmt>(S)) {
        for (const Decl *D : Var->decls())
          if (const auto *V = dyn_cast<VarDecl>(D); V && V->getInit())
            Written(V, V->getInit());
      } else if (const auto *List = dyn_cast<InitListExpr>(S)) {
        forEachListedField(List, Written); // `Tied t{embed};`
      } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
        // `TiedEmbedding tied(embed, ...)` whose constructor keeps a
        // parameter in a field (`: comm_(comm)`): the field copies the argument.
        const auto *Made = dyn_cast_or_null<CXXConstructorDecl>(
            Construct->getConstructor() ? Construct->getConstructor()->getDefinition() : nullptr);
        llvm::ArrayRef<CXXCtorInitializer *> Inits;
        if (Made)
          Inits = llvm::ArrayRef(Made->init_begin(), Made->init_end());
        // Any other initializer (`: comm_(MPI_COMM_WORLD)`) writes its own value.
        for (const CXXCtorInitializer *Init : Inits) {
          const auto *Param = dyn_cast_or_null<ParmVarDecl>(
              Init->getMember() ? namedStorage(Init->getInit()->IgnoreImplicit()) : nullptr);
          if (Param && Param->getFunctionScopeIndex() < Construct->getNumArgs())
            Written(Init->getMember(), Construct->getArg(Param->getFunctionScopeIndex()));
          else if (Init->getMember() && Init->isWritten())
            Written(Init->getMember(), Init->getInit());
        }
      } else if (const auto *Address = dyn_cast<UnaryOperator>(S);
                 Address && Address->getOpcode() == UO_AddrOf) {
        if (const ValueDecl *Taken = namedStorage(Address->getSubExpr())) {
          CopyOf[Taken] = nullptr; // written through elsewhere
          SetAgain[Taken] += !Released.count(Address);
        }
      } else if (const auto *Call = dyn_cast<CallExpr>(S);
                 Call && releasesHandle(Call, Classifier)) {
        for (const Expr *Arg : Call->arguments())
          Released.insert(Arg->IgnoreParenImpCasts());
      }
    });
  // What a handle held before it is set: a parameter's, an initializer's.
  auto HoldsOne = [&](const ValueDecl *Of) {
    const auto *Var = dyn_cast<VarDecl>(Of);
    const bool Before =
        isa<ParmVarDecl>(Of) ||
        (Var && Var->getInit() && !isNullHandle(Var->getInit(), Of->getASTContext()));
    return Before + SetAgain.lookup(Of) <= 1;
  };
  for (const auto &[Copy, Of] : CopyOf) {
    const auto *Field = dyn_cast<FieldDecl>(Copy);
    if (!Of || Of == Copy || !(isa<VarDecl>(Copy) || Field) ||
        Copy->getType()->isPointerType() != Of->getType()->isPointerType())
      continue;
    Members.addCopy(Copy, Of);
    // A field every object starts with another handle in holds no one copy.
    if (HoldsOne(Of) && !(Field && Field->hasInClassInitializer() &&
                          !isNullHandle(Field->getInClassInitializer(), Field->getASTContext())))
      Handles->addCopy(Copy, Of);
  }
}

// A sub-grid's coordinates copied into scalar fields (`g.i = coords[0];
// g.j = coords[1];` beside `MPI_Cart_sub(g.cart, keep_col, &g.col)`), each
// read where the coordinates call left it: the field is that coordinate
// wherever it is read, one symbol as a colour field is, when nothing else
// in the file writes it (collectSplits counts the writes). A dropped
// coordinate is the same on the members.
void TranslationUnitAnalysis::collectCoordinateCopies(const FunctionCFG &Function,
                                                      const RankSplit &Split) {
  if (!Split.Coordinates)
    return;
  const FunctionDependence &Result = Dependence[&Function];
  llvm::SmallVector<std::pair<const FieldDecl *, unsigned>, 4> Copies;
  forEachStmtInOrder(Function.decl()->getBody(), [&](const Stmt *S) {
    const auto *Assign = dyn_cast<BinaryOperator>(S);
    const auto *Member = Assign && Assign->getOpcode() == BO_Assign
                             ? dyn_cast<MemberExpr>(Assign->getLHS()->IgnoreParenImpCasts())
                             : nullptr;
    const auto *Field = Member ? dyn_cast<FieldDecl>(Member->getMemberDecl()) : nullptr;
    const auto *Element =
        Field ? dyn_cast<ArraySubscriptExpr>(Assign->getRHS()->IgnoreParenImpCasts()) : nullptr;
    const auto *Array =
        Element ? dyn_cast<DeclRefExpr>(Element->getBase()->IgnoreParenImpCasts()) : nullptr;
    auto Read = Array && Array->getDecl() == Split.Coordinates ? Result.Values.find(Element)
                                                               : Result.Values.end();
    std::optional<unsigned> Index = Read != Result.Values.end()
                                        ? constantIndex(Element->getIdx(), Function.context())
                                        : std::nullopt;
    if (!Index || Read->second.Definition != Split.CoordinatesWrite ||
        !Field->getType()->isIntegerType())
      return;
    Copies.push_back({Field, *Index});
  });
  for (const auto &[Field, Dim] : Copies)
    CoordinateCopies.try_emplace(Field,
                                 CoordinateCopy{Split.Coordinates, Split.CoordinatesWrite, Dim});
}

} // namespace lockstep::analysis
