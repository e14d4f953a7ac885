#include "Findings.h"

#include "Diagnosis.h"

#include "FindingsJson.h"

#include <fstream>
#include <regex>
#include <sstream>

namespace lockstep::run {

namespace {

Error loadText(const std::string &Path, const std::string &Text, std::vector<Finding> &Out) {
  static const std::regex Shape(R"(^([^:]+):(\d+)(?::(\d+))?(?::\s*(.*))?$)");
  std::istringstream In(Text);
  std::string Line;
  for (unsigned Number = 1; std::getline(In, Line); ++Number) {
    if (!Line.empty() && Line.back() == '\r')
      Line.pop_back();
    if (Line.empty() || Line[0] == '#' || Line[0] == ' ' || Line[0] == '\t')
      continue;
    std::smatch M;
    if (!std::regex_match(Line, M, Shape) || std::stoul(M[2]) == 0)
      return Error(Path + ":" + std::to_string(Number) +
                   ": expected FILE:LINE[:COLUMN][: message]");
    findings::Location P{M[1], unsigned(std::stoul(M[2])),
                         M[3].matched ? unsigned(std::stoul(M[3])) : 0};
    std::string Message = M[4];
    if (Message.rfind("note:", 0) == 0) {
      if (Out.empty())
        return Error(Path + ":" + std::to_string(Number) + ": a note before any finding");
      Out.back().Notes.push_back({P, Message});
      continue;
    }
    static const std::regex Check(R"(\[([\w.-]+)\]$)");
    Finding F;
    F.Location = P;
    F.Message = Message;
    if (std::smatch C; std::regex_search(Message, C, Check))
      F.Check = C[1];
    Out.push_back(F);
  }
  return Error::success();
}

std::vector<std::string> components(const std::string &Path) {
  std::vector<std::string> Parts;
  std::stringstream S(Path);
  for (std::string Part; std::getline(S, Part, '/');) {
    if (Part.empty() || Part == ".")
      continue;
    if (Part == ".." && !Parts.empty() && Parts.back() != "..")
      Parts.pop_back(); // build/../test is test
    else
      Parts.push_back(Part);
  }
  return Parts;
}

bool matches(const Location &L, const findings::Location &P) {
  for (const Frame &F : L.Frames)
    if (F.Line == P.Line && sameFile(F.File, P.File))
      return true;
  return false;
}

} // namespace

const char *verdictName(Verdict V) {
  switch (V) {
  case Verdict::Confirmed:
    return "CONFIRMED";
  case Verdict::NotReproduced:
    return "NOT REPRODUCED";
  case Verdict::NotReached:
    return "NOT REACHED";
  }
  return "?";
}

bool sameFile(const std::string &A, const std::string &B) {
  std::vector<std::string> X = components(A), Y = components(B);
  if (X.empty() || Y.empty())
    return false;
  if (X.size() > Y.size())
    std::swap(X, Y);
  return std::equal(X.rbegin(), X.rend(), Y.rbegin());
}

Error loadFindings(const std::string &Path, std::vector<Finding> &Out) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return Error("cannot read findings file '" + Path + "'");
  std::stringstream S;
  S << In.rdbuf();
  std::string Text = S.str();
  size_t First = Text.find_first_not_of(" \t\r\n");
  if (First != std::string::npos && Text[First] == '{')
    return findings::readFindingsJson(Text, Path, Out);
  return loadText(Path, Text, Out);
}

std::vector<Judged> judge(const std::vector<Finding> &Findings, const Matcher &M,
                          const std::vector<Location> &Sites) {
  std::vector<DivergingCall> Diverging = divergingCalls(M);
  std::vector<Judged> Result;
  for (const Finding &F : Findings) {
    Judged J{F, Verdict::NotReached, "no rank ran this code"};
    std::vector<findings::Location> Points = {F.Location};
    for (const findings::Note &N : F.Notes)
      Points.push_back(N.Location);
    auto Hit = [&](uint32_t Site) {
      for (const findings::Location &P : Points)
        if (Site < Sites.size() && matches(Sites[Site], P))
          return true;
      return false;
    };
    std::vector<int> Involved;
    for (const DivergingCall &C : Diverging)
      if (C.What && Hit(C.What->Site))
        Involved.push_back(C.Rank);
    if (!Involved.empty()) {
      const auto &D = *M.divergence();
      const auto &P = D.Points.front();
      J.Outcome = Verdict::Confirmed;
      J.Detail = std::string(kindName(D.K)) + " at collective #" + std::to_string(P.Seq) + " on " +
                 M.label(P.Comm) + " (rank" + (Involved.size() > 1 ? "s " : " ") +
                 rankList(Involved) + " here)";
    } else {
      std::vector<int> Ran;
      for (const auto &[Site, Ranks] : M.siteRanks())
        if (Hit(Site))
          Ran.insert(Ran.end(), Ranks.begin(), Ranks.end());
      if (!Ran.empty()) {
        J.Outcome = Verdict::NotReproduced;
        J.Detail = "ran on rank" + std::string(Ran.size() > 1 ? "s " : " ") + rankList(Ran) +
                   " without diverging";
      }
    }
    Result.push_back(J);
  }
  return Result;
}

} // namespace lockstep::run
