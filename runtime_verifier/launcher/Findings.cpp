#include "Findings.h"

#include "Diagnosis.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

namespace lockstep::run {

namespace {

std::string where(const std::string &Path, size_t Index) {
  return Path + ": finding " + std::to_string(Index + 1);
}

std::string readPoint(const nlohmann::json &J, SourcePoint &P, const std::string &Context) {
  if (!J.is_object())
    return Context + ": expected an object";
  auto File = J.find("file");
  auto Line = J.find("line");
  if (File == J.end() || !File->is_string() || File->get<std::string>().empty())
    return Context + ": 'file' must be a non-empty string";
  if (Line == J.end() || !Line->is_number_unsigned() || Line->get<unsigned>() == 0)
    return Context + ": 'line' must be a positive integer";
  P.File = File->get<std::string>();
  P.Line = Line->get<unsigned>();
  if (auto Column = J.find("column"); Column != J.end()) {
    if (!Column->is_number_unsigned())
      return Context + ": 'column' must be a non-negative integer";
    P.Column = Column->get<unsigned>();
  }
  return "";
}

std::string loadJson(const std::string &Path, const std::string &Text, std::vector<Finding> &Out) {
  nlohmann::json Doc = nlohmann::json::parse(Text, nullptr, false);
  if (Doc.is_discarded())
    return Path + ": not valid JSON";
  const nlohmann::json *List = &Doc;
  if (Doc.is_object()) {
    auto It = Doc.find("findings");
    if (It == Doc.end())
      return Path + ": a JSON object must hold a 'findings' array";
    List = &*It;
  }
  if (!List->is_array())
    return Path + ": expected an array of findings";
  for (size_t I = 0; I < List->size(); ++I) {
    const nlohmann::json &J = (*List)[I];
    Finding F;
    if (std::string E = readPoint(J, F.At, where(Path, I)); !E.empty())
      return E;
    for (const char *Key : {"check", "message"})
      if (auto It = J.find(Key); It != J.end()) {
        if (!It->is_string())
          return where(Path, I) + ": '" + Key + "' must be a string";
        (std::string(Key) == "check" ? F.Check : F.Message) = It->get<std::string>();
      }
    if (auto Notes = J.find("notes"); Notes != J.end()) {
      if (!Notes->is_array())
        return where(Path, I) + ": 'notes' must be an array";
      for (size_t N = 0; N < Notes->size(); ++N) {
        SourcePoint P;
        std::string E = readPoint((*Notes)[N], P, where(Path, I) + ", note " + std::to_string(N + 1));
        if (!E.empty())
          return E;
        F.Related.push_back(P);
      }
    }
    Out.push_back(F);
  }
  return "";
}

std::string loadText(const std::string &Path, const std::string &Text, std::vector<Finding> &Out) {
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
      return Path + ":" + std::to_string(Number) + ": expected FILE:LINE[:COLUMN][: message]";
    SourcePoint P{M[1], unsigned(std::stoul(M[2])), M[3].matched ? unsigned(std::stoul(M[3])) : 0};
    std::string Message = M[4];
    if (Message.rfind("note:", 0) == 0) {
      if (Out.empty())
        return Path + ":" + std::to_string(Number) + ": a note before any finding";
      Out.back().Related.push_back(P);
      continue;
    }
    static const std::regex Check(R"(\[([\w.-]+)\]$)");
    Finding F;
    F.At = P;
    F.Message = Message;
    if (std::smatch C; std::regex_search(Message, C, Check))
      F.Check = C[1];
    Out.push_back(F);
  }
  return "";
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

bool matches(const Location &L, const SourcePoint &P) {
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

std::string loadFindings(const std::string &Path, std::vector<Finding> &Out) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return "cannot read findings file '" + Path + "'";
  std::stringstream S;
  S << In.rdbuf();
  std::string Text = S.str();
  size_t First = Text.find_first_not_of(" \t\r\n");
  if (First != std::string::npos && (Text[First] == '[' || Text[First] == '{'))
    return loadJson(Path, Text, Out);
  return loadText(Path, Text, Out);
}

std::vector<Judged> judge(const std::vector<Finding> &Findings, const Matcher &M,
                          const std::vector<Location> &Sites) {
  std::vector<DivergingCall> Diverging = divergingCalls(M);
  std::vector<Judged> Result;
  for (const Finding &F : Findings) {
    Judged J{F, Verdict::NotReached, "no rank ran this code"};
    std::vector<SourcePoint> Points = F.Related;
    Points.insert(Points.begin(), F.At);
    auto Hit = [&](uint32_t Site) {
      for (const SourcePoint &P : Points)
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
      J.Detail = std::string(kindName(D.Kind)) + " at collective #" + std::to_string(P.Seq) + " on " +
                 M.label(P.Comm) + " (rank" + (Involved.size() > 1 ? "s " : " ") + rankList(Involved) +
                 " here)";
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
