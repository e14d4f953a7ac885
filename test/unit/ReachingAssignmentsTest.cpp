// ReachingAssignments: which assignments a read of a local sees, and the
// branches that choose among them.
#include "../../checker/analysis/ReachingAssignments.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

using lockstep::analysis::FunctionCFG;
using lockstep::analysis::ReachingAssignments;

namespace {

class ReachingTest : public ::testing::Test {
protected:
  /// The choice the last read of `v` in `f` sees, printed as
  /// `cond ? then : else` over the assigned expressions; "" when unknown.
  std::string choiceOfLastRead(const std::string &Code) {
    Unit = clang::tooling::buildASTFromCodeWithArgs(Code, {"-std=c++17"}, "input.cpp");
    EXPECT_TRUE(Unit && !Unit->getDiagnostics().hasErrorOccurred());
    struct Finder : clang::RecursiveASTVisitor<Finder> {
      const clang::FunctionDecl *F = nullptr;
      const clang::DeclRefExpr *Read = nullptr;
      bool VisitFunctionDecl(clang::FunctionDecl *D) {
        if (D->getName() == "f" && D->hasBody())
          F = D;
        return true;
      }
      bool VisitDeclRefExpr(clang::DeclRefExpr *E) {
        if (E->getDecl()->getName() == "v")
          Read = E;
        return true;
      }
    } Find;
    Find.TraverseAST(Unit->getASTContext());
    Function = FunctionCFG::build(Find.F, Unit->getASTContext());
    ReachingAssignments Reaching(*Function);
    bool Limited = false;
    std::vector<ReachingAssignments::Node> Nodes = Reaching.of(Find.Read, Limited);
    EXPECT_FALSE(Limited);
    std::vector<std::string> Printed;
    for (const ReachingAssignments::Node &N : Nodes)
      Printed.push_back(N.Branch ? text(lockstep::analysis::decidingCondition(*N.Branch)) + " ? " +
                                       Printed[N.Then] + " : " + Printed[N.Else]
                                 : text(N.Assigned));
    return Printed.empty() ? "" : "(" + Printed.back() + ")";
  }

  std::string text(const clang::Stmt *S) const {
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    S->printPretty(OS, nullptr, Unit->getASTContext().getPrintingPolicy());
    return Text;
  }

  std::unique_ptr<clang::ASTUnit> Unit;
  std::unique_ptr<FunctionCFG> Function;
};

TEST_F(ReachingTest, OneAssignmentReachesWhateverElseAssigns) {
  EXPECT_EQ(choiceOfLastRead("void g(int); void f(int a) { int v; v = a; g(v); v = 0; g(v); }"),
            "(0)");
}

TEST_F(ReachingTest, IfElseChoosesByItsCondition) {
  EXPECT_EQ(
      choiceOfLastRead("void g(int); void f(int s) { int v; if (s > 4) v = 4; else v = s; g(v); }"),
      "(s > 4 ? 4 : s)");
}

TEST_F(ReachingTest, ElseIfChainNests) {
  EXPECT_EQ(choiceOfLastRead("void g(int); void f(int r) { int v;"
                             " if (r == 0) v = 0; else if (r < 3) v = 1; else v = 2; g(v); }"),
            "(r == 0 ? 0 : r < 3 ? 1 : 2)");
}

TEST_F(ReachingTest, BranchesThatDoNotAssignAreSkipped) {
  EXPECT_EQ(choiceOfLastRead("void g(int); void f(int r) { int v; v = 7;"
                             " if (r) g(1); else g(2); while (r--) g(3); g(v); }"),
            "(7)");
}

TEST_F(ReachingTest, AssignmentInsideALoopIsUnknown) {
  EXPECT_EQ(choiceOfLastRead(
                "void g(int); void f(int n) { int v; v = 0; for (int i = 0; i < n; ++i) v = i;"
                " g(v); }"),
            "");
}

TEST_F(ReachingTest, OtherUsesThanReadsAndAssignmentsAreUnknown) {
  EXPECT_EQ(choiceOfLastRead("void g(int *); void f() { int v; v = 0; g(&v); v = 1; g(&v); }"), "");
  EXPECT_EQ(choiceOfLastRead("void g(int); void f() { int v; v = 0; ++v; g(v); }"), "");
  EXPECT_EQ(choiceOfLastRead("void g(int); void f() { int v; v = 0; auto l = [&] { v = 2; };"
                             " l(); v = v; g(v); }"),
            "");
}

TEST_F(ReachingTest, DeclarationWithoutInitializerIsUnknown) {
  EXPECT_EQ(choiceOfLastRead("void g(int); void f(int r) { int v; if (r) v = 1; g(v); }"), "");
}

} // namespace
