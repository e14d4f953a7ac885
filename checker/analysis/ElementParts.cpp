// Elements of containers and their parts in the rank-dependence data flow.
// An element is held below its container at a small constant index or at
// any index (see ContainerStorage.cpp); a field of an element is held below
// the element (`slots[i].used` apart from `slots[i].capacity`), so that
// writing one field at a per-rank index leaves the other fields as they were.
// A part that was never written on its own holds what the nearest enclosing
// part holds.
#include "DependenceDataflow.h"
#include "LocalContainers.h"

#include "clang/AST/DeclCXX.h"

namespace lockstep::analysis::dependence {
using namespace clang;

/// What \p In holds at \p Key or, failing that, at the nearest enclosing
/// key no shorter than \p Shortest.
static const RankValue *nearestHeld(const State &In, StorageKey Key, size_t Shortest) {
  for (;; Key.pop_back()) {
    if (auto It = In.find(Key); It != In.end())
      return &It->second;
    if (Key.size() <= Shortest)
      return nullptr;
  }
}

/// Whether one of \p Path and \p Fields, parts below an element, lies
/// inside the other (or they are the same part).
static bool overlap(llvm::ArrayRef<const void *> Path, llvm::ArrayRef<const void *> Fields) {
  size_t Common = std::min(Path.size(), Fields.size());
  return std::equal(Path.begin(), Path.begin() + Common, Fields.begin());
}

/// Whether \p Path names fields only, no element of a container inside.
static bool fieldsOnly(llvm::ArrayRef<const void *> Path) {
  return llvm::none_of(Path, isElementStep);
}

const RankValue *enclosingElementPart(const State &In, const StorageKey &Key) {
  size_t Step = Key.size();
  while (Step > 0 && !isElementStep(Key[Step - 1]))
    --Step;
  if (Step == 0)
    return nullptr;
  if (const RankValue *Held = Key.size() > Step
                                  ? nearestHeld(In, StorageKey(Key.begin(), Key.end() - 1), Step)
                                  : nullptr)
    return Held;
  if (Key[Step - 1] == &AnyElement)
    return nullptr;
  StorageKey AnyIndex = Key;
  AnyIndex[Step - 1] = &AnyElement;
  return nearestHeld(In, AnyIndex, Step);
}

// What the fields inside \p Part hold that were written apart from it
// (`s = slots[0]` after `slots[0].used = rank`).
RankValue Dataflow::partsBelow(const StorageKey &Part) const {
  RankValue Value;
  forEachInside(Current, Part, [&](const StorageKey &Inside, const RankValue &Held) {
    if (Held.dependent() && fieldsOnly(llvm::ArrayRef(Inside).drop_front(Part.size())))
      Value.combine(Held);
  });
  return Value;
}

/// Whether the elements of the container type \p Type are structs with
/// containers inside (`std::vector<Bucket>` of `struct Bucket { std::vector<
/// float> flat; }`).
static bool holdsContainers(QualType Type) {
  Type = Type.getNonReferenceType();
  QualType Element;
  if (const auto *Array = Type->getAsArrayTypeUnsafe())
    Element = Array->getElementType();
  else if (const auto *Spec =
               dyn_cast_or_null<ClassTemplateSpecializationDecl>(Type->getAsCXXRecordDecl());
           Spec && Spec->getTemplateArgs().size() > 0 &&
           Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
    Element = Spec->getTemplateArgs()[0].getAsType();
  const RecordDecl *Record = Element.isNull() ? nullptr : Element->getAsRecordDecl();
  return Record && Record->getDefinition() &&
         llvm::any_of(Record->getDefinition()->fields(),
                      [](const FieldDecl *Field) { return isContainer(Field->getType()); });
}

// What the element at \p Index (or its part \p Fields) holds as written
// whole, at that index or else at any index, without the fields inside it
// written apart; null where nothing was written. \p Part: the key it was
// found at, or the key of the part at any index.
const RankValue *Dataflow::writtenPart(const StorageKey &Container, const Expr *Index,
                                       llvm::ArrayRef<const void *> Fields,
                                       StorageKey &Part) const {
  Part = Container;
  if (std::optional<unsigned> At = constantIndex(Index, Context)) {
    Part.push_back(&ElementAt[*At]);
    Part.append(Fields.begin(), Fields.end());
    if (const RankValue *Held = nearestHeld(Current, Part, Container.size() + 1))
      return Held;
    Part.resize(Container.size());
  }
  Part.push_back(&AnyElement);
  Part.append(Fields.begin(), Fields.end());
  return nearestHeld(Current, Part, Container.size() + 1);
}

RankValue Dataflow::elementAsWritten(const StorageKey &Container, const Expr *Index,
                                     llvm::ArrayRef<const void *> Fields) const {
  StorageKey Part;
  const RankValue *Held = writtenPart(Container, Index, Fields, Part);
  return Held ? *Held : elementsFallback(Container);
}

RankValue Dataflow::readElement(const StorageKey &Container, const Expr *Index, bool Nested,
                                llvm::ArrayRef<const void *> Fields) const {
  if (Container.back() == &DerefStep) // behind a pointer: one storage
    return read(Container);
  StorageKey Part;
  const RankValue *Held = writtenPart(Container, Index, Fields, Part);
  if (Held && Part[Container.size()] != &AnyElement) // at its own constant index
    return RankValue(*Held).combine(partsBelow(Part));
  RankValue Value = Held ? *Held : elementsFallback(Container);
  if (constantIndex(Index, Context))
    Value.combine(partsBelow(Part));
  else
    Value = withElements(Container, Value, Nested, Fields);
  // A caller's structs with containers inside: the callers' elements are
  // told apart only as a whole, and what differs between ranks in such a
  // struct is taken to be its containers' elements (a bucket's gradients),
  // not its own parts (their sizes).
  if (const auto *Param = !Nested && Container.size() == 1
                              ? dyn_cast<ParmVarDecl>(static_cast<const Decl *>(Container[0]))
                              : nullptr;
      Param && holdsContainers(Param->getType()))
    if (auto It = ParamIndex.find(Param); It != ParamIndex.end())
      Value.ElementParams &= ~(uint64_t(1) << It->second);
  return Value;
}

// A whole container's value holds its elements' (`w = v`, `f(v)`), or of
// their part \p Fields; without \p Nested, not those of the containers
// inside its elements.
RankValue Dataflow::withElements(const StorageKey &Key, RankValue Value, bool Nested,
                                 llvm::ArrayRef<const void *> Fields) const {
  Value.ElementParams |= callersElements(Key, Value);
  if (!HasElementKeys)
    return Value;
  forEachInside(Current, Key, [&](const StorageKey &Inside, const RankValue &Held) {
    if (!isElementStep(Inside[Key.size()]) || !Held.dependent())
      return;
    llvm::ArrayRef<const void *> Path = llvm::ArrayRef(Inside).drop_front(Key.size() + 1);
    if (overlap(Path, Fields) && (Nested || fieldsOnly(Path)))
      Value.combine(Held);
  });
  return Value;
}

void Dataflow::writeElement(const StorageKey &Container, const Expr *Index, RankValue Value,
                            bool Compound, const void *Definition,
                            llvm::ArrayRef<const void *> Fields) {
  if (Index)
    if (RankValue At = eval(Index); At.dependent())
      Value.combine(At); // `a[rank] = 1`: the ranks fill different elements
  if (Compound)
    Value.combine(readElement(Container, Index, /*Nested=*/true, Fields));
  Value.Definition = Definition;
  if (Container.back() == &DerefStep) { // behind a pointer: one storage, never replaced
    Value.combine(read(Container));
    Value.Definition = Definition;
    write(Container, Value);
    return;
  }
  HasElementKeys = true;
  StorageKey Key = Container;
  if (std::optional<unsigned> At = constantIndex(Index, Context)) {
    Key.push_back(&ElementAt[*At]);
    Key.append(Fields.begin(), Fields.end());
    replace(Key, Value);
  } else {
    Key.push_back(&AnyElement);
    Key.append(Fields.begin(), Fields.end());
    RankValue Any = elementAsWritten(Container, /*Index=*/nullptr, Fields);
    // Any element may be the one written: the part, and what lies inside
    // it, at every index. An element held only as a whole (or by an
    // enclosing part) gets the part of its own.
    llvm::SmallVector<const void *, 4> PartOnlyEnclosed;
    for (auto It = Current.upper_bound(Container); It != Current.end(); ++It) {
      if (It->first.size() <= Container.size() ||
          !std::equal(Container.begin(), Container.end(), It->first.begin()))
        break;
      const void *Step = It->first[Container.size()];
      llvm::ArrayRef<const void *> Path =
          llvm::ArrayRef(It->first).drop_front(Container.size() + 1);
      if (!isElementStep(Step) || !overlap(Path, Fields))
        continue;
      if (Path.size() >= Fields.size()) {
        It->second.combine(Value);
        It->second.Definition = Definition;
      } else if (Step != &AnyElement) {
        PartOnlyEnclosed.push_back(Step);
      }
    }
    for (const void *Step : PartOnlyEnclosed) {
      StorageKey Part = Key;
      Part[Container.size()] = Step;
      if (Current.count(Part))
        continue;
      RankValue Enclosing = *nearestHeld(Current, Part, Container.size() + 1);
      Current[Part] = Enclosing.combine(Value);
      Current[Part].Definition = Definition;
    }
    Any.combine(Value);
    Any.Definition = Definition;
    Current[Key] = Any;
  }
  // Recorded apart from the field or global that holds the container: other
  // functions must not take per-rank elements for a per-rank size. A
  // caller's container gets them as elements.
  recordParamWrite(Container, Value, /*Element=*/true,
                   Fields.empty() ? nullptr
                                  : dyn_cast<FieldDecl>(static_cast<const Decl *>(Fields.front())));
  // So are a local container's, for the lambdas that capture it (`[&] {
  // for (double x : v) s += x; }`); this function reads its own in order.
  const ValueDecl *Holder = Recording && Value.dependent() ? sharedHolder(Container) : nullptr;
  if (!Holder && Recording && Value.dependent())
    Holder = localContainer(Container, Function.decl());
  if (Holder) {
    Result.SharedWrites.push_back({Holder, Value, /*Elements=*/true});
    SharedWriteKeys.push_back(Container);
  }
}

} // namespace lockstep::analysis::dependence
