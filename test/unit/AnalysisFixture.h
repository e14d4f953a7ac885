// Parses a snippet against small MPI/NCCL declarations and runs the engine
// with the shipped rules.
#pragma once

#include "../../checker/analysis/TranslationUnitAnalysis.h"
#include "ErrorText.h"
#include "RulesLoader.h"

#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

namespace lockstep::testing {

inline const char *MiniHeaders = R"(
typedef struct ompi_communicator_t *MPI_Comm;
typedef int MPI_Datatype;
typedef int MPI_Op;
extern MPI_Comm MPI_COMM_WORLD;
int MPI_Comm_rank(MPI_Comm, int *);
int MPI_Comm_size(MPI_Comm, int *);
int MPI_Barrier(MPI_Comm);
int MPI_Bcast(void *, int, MPI_Datatype, int, MPI_Comm);
int MPI_Allreduce(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm);
int MPI_Send(const void *, int, MPI_Datatype, int, int, MPI_Comm);
int MPI_Comm_split(MPI_Comm, int, int, MPI_Comm *);
extern MPI_Comm MPI_COMM_NULL;
typedef struct ncclComm *ncclComm_t;
int ncclGroupStart();
int ncclGroupEnd();
char *getenv(const char *);
int atoi(const char *);
)";

class AnalysisTest : public ::testing::Test {
protected:
  void analyze(const std::string &Code) {
    Rules = std::make_unique<rules::RuleSet>();
    ASSERT_EQ(errorText(rules::mergeBuiltinRules(*Rules)), "");
    Classifier = std::make_unique<analysis::CallClassifier>(*Rules);
    Unit = clang::tooling::buildASTFromCodeWithArgs(std::string(MiniHeaders) + Code, {"-std=c++17"},
                                                    "input.cpp");
    ASSERT_TRUE(Unit);
    ASSERT_FALSE(Unit->getDiagnostics().hasErrorOccurred());
    Result =
        std::make_unique<analysis::TranslationUnitAnalysis>(Unit->getASTContext(), *Classifier);
  }

  /// Source text of the rank-dependent branch conditions, in order.
  std::vector<std::string> dependentConditions() const {
    std::vector<std::string> Out;
    for (const auto &Branch : Result->rankDependentBranches())
      Out.push_back(text(Branch.Condition));
    std::sort(Out.begin(), Out.end());
    return Out;
  }

  std::string text(const clang::Stmt *S) const {
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    S->printPretty(OS, nullptr, Unit->getASTContext().getPrintingPolicy());
    return OS.str();
  }

  std::unique_ptr<rules::RuleSet> Rules;
  std::unique_ptr<analysis::CallClassifier> Classifier;
  std::unique_ptr<clang::ASTUnit> Unit;
  std::unique_ptr<analysis::TranslationUnitAnalysis> Result;
};

} // namespace lockstep::testing
