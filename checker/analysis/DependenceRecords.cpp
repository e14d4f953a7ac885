// Records field by field in the rank-dependence data flow: a plain struct
// returned, copied or assigned keeps each field's own dependence, so that
// `Span s = partition(rank, n);` makes `s.offset` per-rank and leaves
// `s.size` uniform.
#include "CallSite.h"
#include "DependenceDataflow.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

namespace lockstep::analysis::dependence {
using namespace clang;

namespace {

/// A plain struct, or a `std::pair`: its fields are all there is to its value.
const RecordDecl *plainRecord(QualType Type) {
  const RecordDecl *Record = Type->getAsRecordDecl();
  if (!Record || Record->isUnion() || !Record->getDefinition())
    return nullptr;
  if (const auto *Class = dyn_cast<CXXRecordDecl>(Record->getDefinition()))
    if (!isStdPair(Class) && (!Class->isAggregate() || Class->getNumBases() != 0))
      return nullptr;
  return Record->getDefinition();
}

} // namespace

/// The two values a `std::pair` is made of (`{count, offset}`,
/// `std::make_pair(count, offset)`), or null.
static const Expr *const *pairParts(const Expr *E) {
  if (!isStdPair(E->getType()->getAsCXXRecordDecl()))
    return nullptr;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
      Construct && Construct->getNumArgs() == 2)
    return Construct->getArgs();
  const auto *Call = dyn_cast<CallExpr>(E);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (Callee && Callee->isInStdNamespace() && Callee->getName() == "make_pair" &&
      Call->getNumArgs() == 2)
    return Call->getArgs();
  return nullptr;
}

// A summary's value in the caller's terms: parameters stand for arguments
// (a container's own state or its elements).
RankValue Dataflow::atCall(const RankValue &Summary, llvm::ArrayRef<const Expr *> Args,
                           const FunctionDecl *Callee) const {
  RankValue Value;
  const Provenance *Split = splitByParameters(Summary.Source) ? Summary.Source : nullptr;
  Value.Source = Split ? nullptr : Summary.Source;
  Value.ExactRank = Summary.ExactRank && Summary.Source;
  for (size_t I = 0; I < Args.size() && I < 64; ++I) {
    bool Own = Summary.Params >> I & 1, Elements = Summary.ElementParams >> I & 1;
    if (!Own && !Elements)
      continue;
    PassedValue Passed =
        passedTo(Args[I], I < Callee->getNumParams() ? Callee->getParamDecl(I) : nullptr);
    if (Own)
      Value.merge(Passed.Own);
    if (Elements)
      Value.merge(Passed.Elements);
  }
  // A split by the colour this call passes: still the caller's parameters',
  // or a source here.
  if (Split && Value.Source && !Value.pending())
    Value.Source = Env.Arena.splitBy(Split, Value.Source);
  else if (Split && Value.onParameters())
    Value.Source = Split;
  return Value;
}

// The fields of the plain struct \p E: an initializer list, storage, or a
// call of a function of the file that returns one field by field.
bool Dataflow::fieldsOf(const Expr *E, FieldValues &Fields) const {
  E = stripCopies(E);
  const RecordDecl *Record = plainRecord(E->getType());
  if (!Record)
    return false;
  if (const Expr *const *Parts = pairParts(E)) {
    auto Field = Record->field_begin();
    Fields[*Field] = eval(Parts[0]);
    Fields[*std::next(Field)] = eval(Parts[1]);
    return true;
  }
  if (const auto *List = dyn_cast<InitListExpr>(E)) {
    unsigned I = 0;
    for (const FieldDecl *Field : Record->fields())
      if (I < List->getNumInits())
        Fields[Field] = eval(List->getInit(I++));
    return true;
  }
  StorageKey Key;
  if (keyOf(E, Key)) {
    for (const FieldDecl *Field : Record->fields()) {
      Key.push_back(Field);
      Fields[Field] = read(Key);
      Key.pop_back();
    }
    return true;
  }
  const auto *Call = dyn_cast<CallExpr>(E);
  const FunctionDecl *Callee = Call ? resolvedCallee(Call) : nullptr;
  auto It = Callee ? Env.Facts.find(Callee->getCanonicalDecl()) : Env.Facts.end();
  if (It == Env.Facts.end() || It->second.ReturnedFields.empty())
    return false;
  std::vector<const Expr *> Args = explicitArguments(Call);
  for (const auto &[Field, Value] : It->second.ReturnedFields)
    Fields[Field] = atCall(Value, Args, Callee);
  return true;
}

// The fields of the plain struct a pointer argument points to, where the
// storage is named: `&cfg`, `&run.cfg`, or a pointer parameter handed on (`cfg` of
// `solve(const cfg_t *cfg)` calling `norm(x, cfg)`), whose fields are what
// this function's callers passed.
bool Dataflow::pointeeFieldsOf(const Expr *Arg, FieldValues &Fields) const {
  const Expr *Bare = Arg->IgnoreParenImpCasts();
  const auto *Address = dyn_cast<UnaryOperator>(Bare);
  const auto *Name = dyn_cast<DeclRefExpr>(Bare);
  // `&arr[k]`, `&p->cfg`: storage this function's state may not hold whole.
  if (Address && Address->getOpcode() == UO_AddrOf) {
    const Expr *Named = Address->getSubExpr()->IgnoreParenImpCasts();
    for (const auto *Member = dyn_cast<MemberExpr>(Named); Member && !Member->isArrow();
         Member = dyn_cast<MemberExpr>(Named))
      Named = Member->getBase()->IgnoreParenImpCasts();
    if (!isa<DeclRefExpr>(Named))
      return false;
  }
  // Handed over as a `void *` (a callback's argument), by what it points to.
  QualType Type = Arg->getType()->isVoidPointerType() ? Bare->getType() : Arg->getType();
  const RecordDecl *Record = Type->isPointerType() ? plainRecord(Type->getPointeeType()) : nullptr;
  StorageKey Key;
  if (!Record ||
      !((Address && Address->getOpcode() == UO_AddrOf) ||
        (Name && isa<ParmVarDecl>(Name->getDecl()))) ||
      !pointeeKeyOf(Arg, Key))
    return false;
  for (const FieldDecl *Field : Record->fields()) {
    Key.push_back(Field);
    Fields[Field] = read(Key);
    Key.pop_back();
  }
  return true;
}

// The fields of the structs inside a struct argument whose storage the call
// names (`w.lease.busy_rounds` of `acquire(&w)`), at any depth, by the
// innermost field: a callee reading `w->lease.busy_rounds` reads what the
// caller holds there. The same inner field met twice (`lo.x`, `hi.x`) holds
// both.
void Dataflow::addNestedFields(const Expr *Arg, bool ThroughPointer, FieldValues &Fields) const {
  StorageKey Key;
  const RecordDecl *Record = plainRecord(ThroughPointer ? Arg->getType()->getPointeeType()
                                                        : Arg->getType().getNonReferenceType());
  if (!Record || !(ThroughPointer ? pointeeKeyOf(Arg, Key) : keyOf(Arg, Key)))
    return;
  std::vector<std::pair<StorageKey, const RecordDecl *>> Inside{{Key, Record}};
  bool Outermost = true;
  while (!Inside.empty()) {
    auto [Path, Struct] = std::move(Inside.back());
    Inside.pop_back();
    for (const FieldDecl *Field : Struct->fields()) {
      Path.push_back(Field);
      if (!Outermost) {
        RankValue Held = read(Path);
        auto [It, New] = Fields.try_emplace(Field, Held);
        if (!New)
          It->second.merge(Held);
      }
      if (const RecordDecl *Inner = plainRecord(Field->getType()))
        Inside.push_back({Path, Inner});
      Path.pop_back();
    }
    Outermost = false;
  }
}

// `partition(rank, n).size`: the field of a record that is no storage.
std::optional<RankValue> Dataflow::fieldOfValue(const MemberExpr *Member) const {
  const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
  FieldValues Fields;
  if (!Field || Member->isArrow() || !fieldsOf(Member->getBase(), Fields))
    return std::nullopt;
  auto It = Fields.find(Field);
  return It == Fields.end() ? std::nullopt : std::optional<RankValue>(It->second);
}

void Dataflow::assignFields(const StorageKey &Key, const Expr *Source) {
  FieldValues Fields;
  if (!fieldsOf(Source, Fields))
    return;
  StorageKey FieldKey = Key;
  for (auto &[Field, Value] : Fields) {
    FieldKey.push_back(Field);
    Value.Definition = Source;
    write(FieldKey, Value);
    FieldKey.pop_back();
  }
  // What the container fields of a record a function of the file returns
  // hold (`Batch b = make_shard(rank);`).
  const auto *Call = dyn_cast<CallExpr>(stripCopies(Source));
  const FunctionDecl *Callee = Call ? resolvedCallee(Call) : nullptr;
  if (auto It = Callee ? Env.Facts.find(Callee->getCanonicalDecl()) : Env.Facts.end();
      It != Env.Facts.end()) {
    std::vector<const Expr *> Args = explicitArguments(Call);
    for (const auto &[Field, Elements] : It->second.ReturnedFieldElements) {
      FieldKey.push_back(Field);
      writeElement(FieldKey, /*Index=*/nullptr, atCall(Elements, Args, Callee),
                   /*Compound=*/false, Source);
      FieldKey.pop_back();
    }
  }
  // A struct inside a braced list (`Solver s{make_grid(comm), 0.5};`) keeps
  // its own fields apart too: `s.grid.comm` is not per-rank for `s.grid.rank`.
  const auto *List = dyn_cast<InitListExpr>(stripCopies(Source));
  if (!List)
    return;
  unsigned I = 0;
  for (const FieldDecl *Field : plainRecord(List->getType())->fields()) {
    if (I >= List->getNumInits())
      break;
    const Expr *Init = List->getInit(I++);
    FieldKey.push_back(Field);
    // So does a container made there (`{4, std::vector<double>(n, x)}`).
    if (plainRecord(Field->getType()))
      assignFields(FieldKey, Init);
    else
      constructContainer(FieldKey, Init);
    FieldKey.pop_back();
  }
}

// A record written into an element (`items.push_back({rank, 4})`,
// `items[0] = Item{rank, 4}`, or its part \p Fields): field by field, so
// that `items[i].size` stays the same on every rank for a per-rank `owner`.
bool Dataflow::writeElementFields(const StorageKey &Container, const Expr *Index,
                                  llvm::ArrayRef<const void *> Fields, const Stmt *Source) {
  const auto *Record = dyn_cast<Expr>(Source);
  if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(Source);
      Operator && Operator->isAssignmentOp())
    Record = Operator->getArg(1); // `tasks[0] = Task{rank, 4}`
  FieldValues Values;
  if (!Record || !fieldsOf(Record, Values))
    return false;
  FieldPath Part(Fields.begin(), Fields.end());
  for (const auto &[Field, Value] : Values) {
    Part.push_back(Field);
    writeElement(Container, Index, Value, /*Compound=*/false, Source, Part);
    Part.pop_back();
  }
  return true;
}

// The elements of the container and array fields of a record returned from
// storage (`return b;` after filling `b.x` per rank), for the callers' copies.
void Dataflow::returnFieldElements(const Expr *Returned, const RankValue &ReturnTaint) {
  StorageKey Key;
  const RecordDecl *Record = plainRecord(stripCopies(Returned)->getType());
  if (!Record || !keyOf(stripCopies(Returned), Key))
    return;
  for (const FieldDecl *Field : Record->fields()) {
    if (!isContainer(Field->getType()) && !Field->getType()->isConstantArrayType())
      continue;
    Key.push_back(Field);
    RankValue Elements = readElement(Key, /*Index=*/nullptr);
    Key.pop_back();
    Elements.combine(ReturnTaint);
    if (Elements.dependent())
      Result.Facts.ReturnedFieldElements[Field].merge(Elements);
  }
}

// A function returns its record field by field only while every return
// does; otherwise its callers see the whole value. The elements of its
// container fields, \p Returned's, go apart.
void Dataflow::mergeReturnedFields(const FieldValues *Fields, const Expr *Returned,
                                   const RankValue &ReturnTaint) {
  if (Fields)
    returnFieldElements(Returned, ReturnTaint);
  FieldValues &Merged = Result.Facts.ReturnedFields;
  if (!Fields)
    RecordReturned = false;
  if (!RecordReturned) {
    Merged.clear();
    return;
  }
  if (!ReturnSeen) {
    Merged = *Fields;
    return;
  }
  for (const auto &[Field, Value] : *Fields)
    if (auto [It, Inserted] = Merged.emplace(Field, Value); !Inserted)
      It->second.merge(Value);
}

/// The elements a `std::tuple` is built from (`std::make_tuple(a, b)`,
/// `std::tuple<int, int>(a, b)`, `{a, b}`, or a tuple converted from one
/// so built); empty for any other expression.
static llvm::SmallVector<const Expr *, 4> tupleElements(const Expr *E) {
  E = E->IgnoreImplicit();
  const auto *Class = E->getType()->getAsCXXRecordDecl();
  if (!Class || !Class->isInStdNamespace() || !Class->getIdentifier() ||
      !Class->getIdentifier()->isStr("tuple"))
    return {};
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    const Expr *From =
        Construct->getNumArgs() == 1 ? Construct->getArg(0)->IgnoreImplicit() : nullptr;
    if (From && From->getType()->getAsCXXRecordDecl() &&
        From->getType()->getAsCXXRecordDecl()->getName() == "tuple")
      return tupleElements(From); // a copy or a conversion
    return llvm::SmallVector<const Expr *, 4>(Construct->arguments());
  }
  const auto *Call = dyn_cast<CallExpr>(E);
  const FunctionDecl *Maker = Call ? Call->getDirectCallee() : nullptr;
  if (Maker && Maker->isInStdNamespace() && Maker->getIdentifier() &&
      Maker->getIdentifier()->isStr("make_tuple"))
    return llvm::SmallVector<const Expr *, 4>(Call->arguments());
  if (const auto *List = dyn_cast<InitListExpr>(E))
    return llvm::SmallVector<const Expr *, 4>(List->inits());
  return {};
}

// A function returns its tuple element by element only while every return
// builds one of as many elements; otherwise its callers see the whole.
void Dataflow::mergeReturnedTuple(const Expr *Returned, const RankValue &ReturnTaint) {
  std::vector<RankValue> &Merged = Result.Facts.ReturnedTuple;
  llvm::SmallVector<const Expr *, 4> Elements = tupleElements(Returned);
  if (Elements.empty() || (ReturnSeen && Merged.size() != Elements.size()))
    TupleReturned = false;
  if (!TupleReturned) {
    Merged.clear();
    return;
  }
  if (!ReturnSeen)
    Merged.assign(Elements.size(), RankValue());
  for (size_t I = 0; I < Elements.size(); ++I) {
    RankValue Value = eval(Elements[I]);
    Value.combine(ReturnTaint);
    if (ReturnSeen)
      Merged[I].merge(Value);
    else
      Merged[I] = Value;
  }
}

// A binding of a tuple a function of the file returns (`auto [rank, size,
// root] = info(comm)`) is that element; of another tuple-like object, what
// its `std::get<i>` of the whole gives; of a copied array, any element of
// the original (the copy's elements are not told apart).
RankValue Dataflow::bindingValue(const BindingDecl *Binding) const {
  const auto *Whole = dyn_cast_or_null<DecompositionDecl>(Binding->getDecomposedDecl());
  if (const VarDecl *Holding = Binding->getHoldingVar()) {
    const auto *Call = Whole && Whole->getInit()
                           ? dyn_cast<CallExpr>(Whole->getInit()->IgnoreImplicit())
                           : nullptr;
    const FunctionDecl *Callee = Call ? resolvedCallee(Call) : nullptr;
    auto It = Callee ? Env.Facts.find(Callee->getCanonicalDecl()) : Env.Facts.end();
    size_t Index = llvm::find(Whole->bindings(), Binding) - Whole->bindings().begin();
    if (It != Env.Facts.end() && Index < It->second.ReturnedTuple.size())
      return atCall(It->second.ReturnedTuple[Index], explicitArguments(Call), Callee);
    return Holding->getInit() ? eval(Holding->getInit()) : RankValue();
  }
  if (const auto *Copy = Whole ? dyn_cast_or_null<ArrayInitLoopExpr>(Whole->getInit()) : nullptr)
    return eval(Copy->getCommonExpr()->getSourceExpr());
  const Expr *Bound = Binding->getBinding();
  return Bound ? eval(Bound) : RankValue();
}

// Whether \p E is computed from storage a collective agreed on, through
// operators and constants only (`go != 0`, `flag[0] > 0` after copying an
// agreed flag back): constants alone do not count, as two overrides may
// return different ones.
bool Dataflow::computedFromAgreed(const Expr *E) const {
  bool ReadsAgreed = false;
  std::vector<const Expr *> Work{E};
  while (!Work.empty()) {
    const Expr *Part = Work.back()->IgnoreParenCasts();
    Work.pop_back();
    if (isa<IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr>(Part))
      continue;
    if (const auto *Unary = dyn_cast<UnaryOperator>(Part);
        Unary && Unary->getOpcode() != UO_Deref && Unary->getOpcode() != UO_AddrOf) {
      Work.push_back(Unary->getSubExpr());
      continue;
    }
    if (const auto *Binary = dyn_cast<BinaryOperator>(Part); Binary && !Binary->isAssignmentOp()) {
      Work.push_back(Binary->getLHS());
      Work.push_back(Binary->getRHS());
      continue;
    }
    StorageKey Key;
    if (!keyOf(Part, Key) || read(Key).Definition != &AgreedByEveryRank)
      return false;
    ReadsAgreed = true;
  }
  return ReadsAgreed;
}

} // namespace lockstep::analysis::dependence
