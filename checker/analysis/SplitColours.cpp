// Membership from the splits the data flow recorded: each split's colour as
// a formula over the rank, for the handle it writes, the callers' handles a
// helper hands it back to, and the objects of process-group classes.
#include "HandedBackSplits.h"
#include "TranslationUnitAnalysis.h"

namespace lockstep::analysis {
using namespace clang;

// A split's colour, as a formula over the rank: who shares each part.
void TranslationUnitAnalysis::collectSplits() {
  // The communicator and its colour kept side by side in a struct (`d.group`
  // split by `d.color`, `h.leaders` by `h.is_leader() ? 0 : MPI_UNDEFINED`):
  // functions handed the struct test the fields the colour is computed from.
  for (const auto &Function : Functions)
    for (const RankSplit &Split : Dependence[Function.get()].Splits)
      if (Split.Color)
        fieldsBehind(Split.Color, ColourFields);
      else if (Split.CoordinatesField)
        CoordinateFields.try_emplace(Split.CoordinatesField);
  for (const auto &Function : Functions)
    for (const RankSplit &Split : Dependence[Function.get()].Splits) {
      const Provenance *Source = Env.resolve(Split.Value, Function->decl());
      if (!Source || Source->Pending)
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
      FormulaRef Colour = Split.Color ? shapeOf(*Function).conditions().expression(Split.Color)
                                      : Coordinate(Split.Dims.front());
      auto AddSplit = [&](const ValueDecl *Comm, const ValueDecl *Parent, FormulaRef Shared) {
        Members.addSplit(Comm, Parent, Shared);
        if (!Split.Color) // a sub-grid drops at least one dimension
          for (unsigned Dim : llvm::ArrayRef(Split.Dims).drop_front())
            Members.sameOnMembers(Comm, Coordinate(Dim));
      };
      AddSplit(Split.Communicator, Split.Parent, Colour);
      // The callers' handles of a split a helper returns or writes out: the
      // colour in the caller's terms where the call's arguments make it.
      for (const HandedBackSplit &Kept : handedBack(*Function, Split, *Bindings)) {
        std::optional<FormulaRef> Passed =
            Split.Color ? shapeOf(*Kept.Caller).conditions().atCall(Kept.Call, Split.Color)
                        : std::nullopt;
        AddSplit(Kept.Storage, Kept.Parent, Passed.value_or(Colour));
      }
    }
  // Each object of a class whose constructor splits its communicator is one
  // part of its own split: the one its construction's colour says.
  for (const auto &Function : Functions)
    Wrappers.forEachConstruction(Function->decl(), [&](const WrapperObjects::Construction &Made) {
      const FunctionCFG *Constructor =
          ByDecl.lookup(Made.Construct->getConstructor()->getCanonicalDecl());
      if (const Provenance *Source =
              Constructor ? Env.resolve(Made.Split->Value, Constructor->decl()) : nullptr;
          Source && Source->Pending)
        return; // decided by another file's summary, as the splits above
      std::optional<FormulaRef> Colour;
      if (const Expr *Argument = WrapperObjects::passedFor(Made.Object, Made.Split->Color))
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
}

} // namespace lockstep::analysis
