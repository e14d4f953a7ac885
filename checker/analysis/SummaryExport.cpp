// What a translation unit tells the other files of a project (lockstep
// check's summaries): each visible function's collectives and the rank it
// returns, the communicators its accessors hand out split by a part of the
// job, and the fields and globals it writes per rank.
#include "SourceText.h"
#include "TranslationUnitAnalysis.h"

#include "clang/Basic/SourceManager.h"

namespace lockstep::analysis {
using namespace clang;

static SourcePoint pointOf(SourceLocation Loc, const SourceManager &SM) {
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  return P.isValid() ? SourcePoint{P.getFilename(), P.getLine(), P.getColumn()} : SourcePoint{};
}

/// Where a per-rank value comes from for a reader in another file: the name
/// and place its provenance chain starts with.
static void setRankSource(const Provenance *Source, const SourceManager &SM,
                          ExternalFunction &Out) {
  // An assignment under a condition has no name of its own; its origin has.
  Out.RankPart = rankPartName(Source);
  Out.ReturnsSplit = fromSplit(Source);
  while (Source->Name.empty() && Source->Via)
    Source = Source->Via;
  Out.ReturnsRank = true;
  Out.RankSource = Source->Name.empty() ? Out.Name : Source->Name;
  Out.RankSite = Source->K == Provenance::Kind::External
                     ? SourcePoint{Source->File, Source->Line, Source->Column}
                     : pointOf(Source->Loc, SM);
}

// Communicators split by a rank in a part of the job (`MPI_Comm_split(world,
// local_rank, ...)`), by the part's name: what accessors of them export.
std::map<const ValueDecl *, std::string> TranslationUnitAnalysis::splitsByPart() const {
  std::map<const ValueDecl *, std::string> Parts;
  for (const auto &[Function, Result] : Dependence)
    for (const RankSplit &Split : Result.Splits) {
      std::string Part = Split.Value.ExactRank ? rankPartName(Split.Value.Source) : "";
      auto [It, Inserted] = Parts.try_emplace(Split.Communicator, Part);
      if (!Inserted && It->second != Part)
        It->second.clear(); // split two ways
    }
  return Parts;
}

ExternalSummaries TranslationUnitAnalysis::exportSummaries() const {
  ExternalSummaries Out;
  const std::map<const ValueDecl *, std::string> SplitParts = splitsByPart();
  for (const auto &Function : Functions) {
    const FunctionDecl *FD = Function->decl();
    const auto *Method = dyn_cast<CXXMethodDecl>(FD);
    if (!FD->isExternallyVisible() || (Method && Method->getParent()->isLambda()))
      continue;
    ExternalFunction Summary;
    Summary.Name = FD->getQualifiedNameAsString();
    const SourceManager &SM = FD->getASTContext().getSourceManager();
    if (const FunctionSummary *Sequences = Events->functionSummary(FD)) {
      for (const CollectiveEvent *Step : Sequences->Events) {
        const CollectiveEvent &Event = *Step;
        if (Event.GroupMarker)
          continue;
        const auto *Param = dyn_cast_or_null<ParmVarDecl>(Event.CommunicatorDecl);
        Summary.Collectives.push_back(
            {Event.Collective.str(),
             Event.ExternalSite ? *Event.ExternalSite : pointOf(Event.CollectiveSite, SM),
             Event.Communicator.str(),
             Param && Param->getDeclContext() == FD ? std::optional(Param->getFunctionScopeIndex())
                                                    : std::nullopt});
        if (Sequences->Several)
          break;
      }
      Summary.SeveralSequences = Sequences->Several && !Summary.Collectives.empty();
    }
    const RankValue &Returned = Env.Facts.lookup(FD->getCanonicalDecl()).ReturnValue;
    if (const Provenance *Source = Returned.Source; Source && !Source->Pending)
      setRankSource(Source, SM, Summary);
    if (auto Split = SplitParts.find(accessorTarget(FD)); Split != SplitParts.end())
      Summary.SplitByPart = Split->second;
    if (Summary.worthKeeping())
      Out.emplace(usrOf(FD), std::move(Summary));
  }
  // Fields and globals written here with per-rank values: read in another
  // file, they are per-rank there too.
  // Another file knows a field of a global struct by the field alone.
  auto Export = [&](const ValueDecl *Decl, const RankValue &Value) {
    if (!Value.Source || Value.pending() || !visibleElsewhere(Decl))
      return;
    ExternalFunction Summary;
    Summary.Name = Decl->getQualifiedNameAsString();
    Summary.Storage = true;
    setRankSource(Value.Source, Decl->getASTContext().getSourceManager(), Summary);
    Out.emplace(usrOf(Decl), std::move(Summary));
  };
  for (const auto &[Decl, Value] : Env.Shared)
    Export(Decl, Value);
  for (const auto &[Part, Value] : Env.SharedParts)
    Export(Part.Fields.back(), Value);
  return Out;
}

} // namespace lockstep::analysis
