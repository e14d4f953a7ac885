// Maps a called function to what the rules say about it: a collective, an
// NCCL group marker, a rank source, a uniform source, a per-rank data
// source, an environment reader.
// Rules come from rules/*.json and from [[clang::annotate("lockstep::...")]]
// on the user's own declarations (see include/lockstep/annotations.h).
#pragma once

#include "RuleSet.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace lockstep::analysis {

struct CalleeRole {
  const rules::CollectiveRule *Collective = nullptr;
  bool AnnotatedCollective = false;
  const rules::GroupMarkerRule *GroupMarker = nullptr;
  const rules::ValueSourceRule *RankSource = nullptr;
  bool AnnotatedRankSource = false;
  const rules::ValueSourceRule *UniformSource = nullptr;
  bool AnnotatedUniform = false;
  const rules::PerRankSourceRule *PerRankSource = nullptr; // a clock, a host query, ...
  const rules::CopyRule *Copy = nullptr;                   // memcpy, cudaMemcpy, ...
  const rules::RankSetRule *RankSet = nullptr;             // MPI_Comm_group, MPI_Group_incl, ...
  const rules::JoinProtocolRule *JoinBegin = nullptr;      // opens the region (guard constructor)
  const rules::JoinProtocolRule *JoinEnd = nullptr;        // closes it (guard destructor)
  std::vector<const rules::JoinProtocolRule *> ShadowedBy; // protocols that shadow this call
  bool EnvironmentReader = false;
  bool AbortsJob = false; // ends every process of the job (rules' job_aborts)
  bool Converter = false;
  // Declared in a system header, or a builtin: a library function
  // (std::min, snprintf, fopen, __builtin_isnan) whose results are computed
  // from its inputs.
  bool SystemLibrary = false;
  std::optional<int64_t> StatusSuccess; // its result reports success with this value
  bool NullFails = false;               // its pointer result is null when it failed
  std::string Name;                     // the rule's name, or the function's qualified name

  bool isCollective() const { return Collective || AnnotatedCollective; }
  /// A collective a rank can wait in: not one that, like `MPI_Comm_free`,
  /// returns without the other members.
  bool synchronizes() const {
    return AnnotatedCollective || (Collective && Collective->Synchronizes);
  }
  /// Known to the rules: its return value is never an unknown quantity.
  bool isKnown() const {
    return isCollective() || GroupMarker || RankSource || AnnotatedRankSource || UniformSource ||
           AnnotatedUniform || PerRankSource || RankSet || JoinBegin || JoinEnd;
  }
};

enum class EnvironmentValue { None, Rank, WorldSize };

class CallClassifier {
public:
  explicit CallClassifier(const rules::RuleSet &Rules);

  const CalleeRole &classify(const clang::FunctionDecl *Callee) const;

  /// For a call to an environment reader with a literal name, or to a
  /// function that hands its parameter to one (`env_int("LOCAL_RANK")`): which
  /// kind of value it reads, and the variable's name in \p Variable.
  EnvironmentValue environmentRead(const clang::CallExpr *Call, std::string &Variable) const;

  /// Whether the rules' collectives are methods of \p Class or of a base
  /// of it (`c10d::ProcessGroup`): an object the ranks run collectives on.
  bool isCollectiveReceiver(const clang::CXXRecordDecl *Class) const;

  /// The success value of the values of \p Type when the rules call that
  /// type a status (`ncclResult_t`: `ncclSuccess`).
  std::optional<int64_t> statusTypeSuccess(clang::QualType Type) const {
    return successOf(Type, nullptr);
  }

  bool isRankName(llvm::StringRef Name) const;
  bool isWorldSizeName(llvm::StringRef Name) const;

private:
  CalleeRole computeRole(const clang::FunctionDecl *Callee) const;
  bool readsEnvironmentNamedBy(const clang::ParmVarDecl *Param) const;
  std::optional<int64_t> successOf(clang::QualType Type, const std::string *Function) const;
  bool nullFails(const clang::FunctionDecl *Callee, const std::vector<std::string> &Names) const;

  const rules::RuleSet &Rules;
  std::regex RankName, WorldSizeName;
  std::vector<std::regex> StatusFunctions; // Rules.statuses[I].functions, compiled
  llvm::StringSet<> ReceiverClasses;       // qualified names (isCollectiveReceiver)
  mutable llvm::DenseMap<const clang::FunctionDecl *, CalleeRole> Cache;
  mutable llvm::DenseMap<const clang::ParmVarDecl *, bool> EnvironmentNameParams;
  mutable llvm::StringMap<bool> RankNames, WorldSizeNames; // std::regex is slow: match once
  bool matches(llvm::StringRef Name, const std::regex &Pattern, llvm::StringMap<bool> &Seen) const;
};

} // namespace lockstep::analysis
