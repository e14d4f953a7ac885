// The abstract value of the rank-dependence analysis: whether a value can
// differ between ranks, and why (its provenance, kept for the notes).
#pragma once

#include "clang/Basic/SourceLocation.h"

namespace clang {
class Expr;
class ValueDecl;
} // namespace clang

#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <tuple>

namespace lockstep::analysis {

/// Why a value differs between ranks. Chains through `via` for values that
/// were derived (a parameter that received a rank, an assignment made under
/// a rank-dependent condition).
struct Provenance {
  enum class Kind {
    SourceCall,  // a rank-source function from the rules: MPI_Comm_rank, getRank()
    Annotated,   // a function annotated lockstep::rank_source
    Environment, // getenv("RANK") and friends
    RankName,    // a parameter, field or variable of unknown origin named as a rank
    Parameter,   // a parameter that receives a rank-dependent argument
    Implicit,    // assigned under a rank-dependent condition
    External,    // returned by a function of another file (its summary says so)
    Split,       // a communicator split by a rank-dependent colour (each part has its own)
    PerRankData, // data each rank reads for itself: a clock, a host query (rules per_rank_sources)
    UnseenCall,  // computed from it by a function whose body no file shows (Name)
    // A project field or global another file may write, or a project
    // function of another file whose result it may compute, per rank, which
    // no summary names yet: per-rank if one does (`lockstep check` decides
    // at merge).
    Pending,
  };
  Kind K;
  std::string Name;          // function, variable or parameter name; condition text for Implicit
  clang::SourceLocation Loc; // where the value was produced
  const Provenance *Via = nullptr;
  std::string File; // External: where the rank is produced in the other file
  unsigned Line = 0, Column = 0;
  // SourceCall through an out-argument: the communicator whose rank it is
  // (`MPI_Comm_rank(node, &local_rank)`), when the call names one.
  const clang::Expr *Communicator = nullptr;
  // Split: the colour, as written.
  const clang::Expr *Colour = nullptr;
  // External: the part of the job the rank counts in, as its summary names
  // it (ExternalFunction::RankPart); null for the job's rank.
  const std::string *Part = nullptr;
  // The communicator on whose members the value is the same. Implicit: the
  // one the condition only tests for null (`sub != MPI_COMM_NULL`), so its
  // members all take the same arm; PerRankData: the split one whose size
  // it is.
  const clang::ValueDecl *MembersOf = nullptr;
  // PerRankData: what the data is ("a clock reading"), and the variable or
  // expression that receives it as written ("t"; empty when none does).
  // UnseenCall: the argument written through (`loss` of `f(b, &loss)`), or
  // empty for the result.
  std::string Why, Holder;
  // Pending: the USR of the field, global or function.
  std::string Usr;
  // This record or one it derives from is Kind::Pending: the value is
  // per-rank only if another file's summary says so.
  bool Pending = false;
};

/// The Kind::Pending record \p Source derives from; null when none.
inline const Provenance *pendingRoot(const Provenance *Source) {
  for (; Source && Source->Pending; Source = Source->Via)
    if (Source->K == Provenance::Kind::Pending)
      return Source;
  return nullptr;
}

/// The communicator on whose members a value that differs for \p Source is
/// the same: one assigned only where `sub != MPI_COMM_NULL` (the same value
/// on every member of `sub`, which alone meet in a collective on it), or
/// computed from the size of `sub`; null when there is none.
inline const clang::ValueDecl *sameAmongMembersOf(const Provenance *Source) {
  // A parameter handed such a value holds it (`d.gsize` of a struct whose
  // `d.group` the caller split).
  while (Source && !Source->MembersOf && Source->K == Provenance::Kind::Parameter)
    Source = Source->Via;
  return Source ? Source->MembersOf : nullptr;
}

/// Whether a value is a communicator handle that a rank-dependent split made
/// (each part has its own), itself or passed on as a parameter: not an
/// argument that must agree. One a condition chose (`n > 1 ? sub : world`,
/// with `n` the size of `sub`) or one computed from it is not that handle.
inline bool fromSplit(const Provenance *Source) {
  for (; Source; Source = Source->Via) {
    if (Source->K == Provenance::Kind::Split)
      return true;
    if (Source->K != Provenance::Kind::Parameter)
      return false;
  }
  return false;
}

/// Whether \p Found says more than \p Known about why a value differs
/// between ranks: something where there was nothing, or a source known here
/// where there was only one pending on another file.
inline bool saysMore(const Provenance *Found, const Provenance *Known) {
  return Found && (!Known || (Known->Pending && !Found->Pending));
}

/// Whether a caller's \p Found says more about a parameter than the
/// callers' \p Known: as saysMore, and a value that differs for real over a
/// split's handle, which each part has its own of (a helper handed a split
/// by one caller and a communicator picked by the rank by another).
inline bool saysMoreOfParameter(const Provenance *Found, const Provenance *Known) {
  return saysMore(Found, Known) ||
         (Found && !Found->Pending && fromSplit(Known) && !fromSplit(Found));
}

/// Whether \p Source is a split whose colour only the function's parameters
/// make per-rank: per-rank, and a split, where a caller passes a per-rank
/// colour; uniform where none does.
inline bool splitByParameters(const Provenance *Source) {
  return Source && Source->K == Provenance::Kind::Split && !Source->Via;
}

/// Owns the provenance records of one translation unit; pointers stay valid.
class ProvenanceArena {
public:
  const Provenance *make(Provenance::Kind Kind, std::string Name, clang::SourceLocation Loc,
                         const Provenance *Via = nullptr,
                         const clang::Expr *Communicator = nullptr) {
    Storage.push_back(Provenance{Kind, std::move(Name), Loc, Via, "", 0, 0, Communicator});
    Storage.back().Pending = Via && Via->Pending;
    return &Storage.back();
  }
  const Provenance *makePending(std::string Name, clang::SourceLocation Read, std::string Usr) {
    Storage.push_back(Provenance{Provenance::Kind::Pending, std::move(Name), Read});
    Storage.back().Usr = std::move(Usr);
    Storage.back().Pending = true;
    return &Storage.back();
  }
  const Provenance *makePerRank(std::string Function, clang::SourceLocation Call, std::string Why,
                                std::string Holder, const Provenance *Via = nullptr,
                                const clang::ValueDecl *MembersOf = nullptr) {
    Storage.push_back(Provenance{Provenance::Kind::PerRankData, std::move(Function), Call, Via});
    Storage.back().Why = std::move(Why);
    Storage.back().Holder = std::move(Holder);
    Storage.back().MembersOf = MembersOf;
    Storage.back().Pending = Via && Via->Pending;
    return &Storage.back();
  }
  const Provenance *makeUnseen(std::string Function, clang::SourceLocation Call,
                               const Provenance *Via, std::string Written = "") {
    const Provenance *Made = make(Provenance::Kind::UnseenCall, std::move(Function), Call, Via);
    Storage.back().Holder = std::move(Written);
    return Made;
  }
  const Provenance *makeExternal(std::string Name, clang::SourceLocation Call, std::string File,
                                 unsigned Line, unsigned Column, const std::string &Part = "") {
    Storage.push_back(Provenance{Provenance::Kind::External, std::move(Name), Call, nullptr,
                                 std::move(File), Line, Column});
    Storage.back().Part = Part.empty() ? nullptr : part(Part);
    return &Storage.back();
  }
  const Provenance *makeSplit(std::string Name, clang::SourceLocation Call, const Provenance *Via,
                              const clang::Expr *Colour) {
    const Provenance *Made = make(Provenance::Kind::Split, std::move(Name), Call, Via);
    Storage.back().Colour = Colour;
    return Made;
  }
  /// \p Split (splitByParameters) with the colour's source \p Color.
  const Provenance *splitBy(const Provenance *Split, const Provenance *Color) {
    const Provenance *&Made = Splits[{Split, Color}];
    if (!Made)
      Made = makeSplit(Split->Name, Split->Loc, Color, Split->Colour);
    return Made;
  }
  /// One record per condition, source and communicator: every merge after
  /// a branch asks for it again.
  const Provenance *makeImplicit(clang::SourceLocation Condition, const Provenance *Via,
                                 const clang::ValueDecl *MembersOf) {
    const Provenance *&Made = Implicits[{Condition.getRawEncoding(), Via, MembersOf}];
    if (!Made) {
      Storage.push_back(Provenance{Provenance::Kind::Implicit, "", Condition, Via});
      Storage.back().MembersOf = MembersOf;
      Storage.back().Pending = Via && Via->Pending;
      Made = &Storage.back();
    }
    return Made;
  }
  /// One record per part name: summaries name a part with a string, formulas
  /// by an address.
  const std::string *part(const std::string &Name) { return &*Parts.insert(Name).first; }

private:
  std::deque<Provenance> Storage;
  std::set<std::string> Parts;
  std::map<std::pair<const Provenance *, const Provenance *>, const Provenance *> Splits;
  std::map<std::tuple<unsigned, const Provenance *, const clang::ValueDecl *>, const Provenance *>
      Implicits;
};

struct RankValue {
  const Provenance *Source = nullptr; // non-null: differs between ranks
  uint64_t Params = 0;                // bit i: depends on parameter i of the function
  // Bit i: depends on the elements of container parameter i (`v[k]`, not
  // `v.size()`): a caller may hand per-rank elements in a container whose
  // size every rank agrees on.
  uint64_t ElementParams = 0;
  bool ExactRank = false; // is the rank itself (for tautologies)
  bool ExactSize = false; // is the world size itself
  bool Opaque = false;    // came from a function lockstep knows nothing about
  // Picked at a merge by a rank-dependent condition (`if (rank == 0) s =
  // a; else s = b;`), not computed from per-rank data: an object of
  // another type, perhaps, on other ranks.
  bool Chosen = false;
  const void *Definition = nullptr; // the write (or merge block) that produced it

  static RankValue rank(const Provenance *Source) {
    RankValue V;
    V.Source = Source;
    V.ExactRank = true;
    return V;
  }
  static RankValue worldSize() {
    RankValue V;
    V.ExactSize = true;
    return V;
  }

  bool dependent() const { return Source || onParameters(); }
  /// Whether it depends on what a caller passes.
  bool onParameters() const { return Params || ElementParams; }
  /// Per-rank only if another file's summary says so (Kind::Pending).
  bool pending() const { return Source && Source->Pending; }

  /// Combines operands into a derived value (no longer the rank itself).
  RankValue &combine(const RankValue &Other) {
    takeSource(Other.Source);
    Params |= Other.Params;
    ElementParams |= Other.ElementParams;
    Opaque = Opaque || Other.Opaque;
    Chosen = Chosen || Other.Chosen;
    ExactRank = ExactSize = false;
    return *this;
  }

  /// Merges the values a storage holds on two incoming paths.
  RankValue &merge(const RankValue &Other) {
    takeSource(Other.Source);
    Params |= Other.Params;
    ElementParams |= Other.ElementParams;
    Opaque = Opaque || Other.Opaque;
    Chosen = Chosen || Other.Chosen;
    ExactRank = ExactRank && Other.ExactRank;
    ExactSize = ExactSize && Other.ExactSize;
    return *this;
  }

  /// A source that makes the value per-rank for sure wins over a pending one,
  /// and one that differs on the members of a communicator over one the same
  /// among them: the value is the same there only if all its parts are.
  void takeSource(const Provenance *Other) {
    if (saysMore(Other, Source) || (Other && Source && Other->Pending <= Source->Pending &&
                                    sameAmongMembersOf(Source) && !sameAmongMembersOf(Other)))
      Source = Other;
  }

  bool sameAs(const RankValue &O) const {
    // A rank guessed from a name that becomes a known source (a global the
    // rank is written into, seen in a later round) is news to the callers,
    // and so is a pending value that turns out per-rank for sure.
    auto Guessed = [](const Provenance *P) { return P && P->K == Provenance::Kind::RankName; };
    return (Source != nullptr) == (O.Source != nullptr) && Guessed(Source) == Guessed(O.Source) &&
           pending() == O.pending() && Params == O.Params && ElementParams == O.ElementParams &&
           ExactRank == O.ExactRank && ExactSize == O.ExactSize && Opaque == O.Opaque &&
           Chosen == O.Chosen && Definition == O.Definition;
  }
};

} // namespace lockstep::analysis
