#include "Diagnosis.h"
#include "Report.h"

#include <climits>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace lockstep::run {

namespace {

std::string escape(const std::string &S) {
  std::string Out;
  for (char C : S) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    case '\'':
      Out += "&#39;";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

const char *const Style = R"(
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #1d2330; background: #fafbfc; }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 28px 0 8px; }
.status { display: inline-block; padding: 2px 10px; border-radius: 10px; font-weight: 600; }
.status.passed { background: #d8f3dc; color: #1b4332; }
.status.diverged, .status.stalled, .status.failed { background: #ffd6d6; color: #7a0c0c; }
pre.diagnosis { background: #fff; border: 1px solid #d0d4dc; padding: 12px; overflow-x: auto; font-size: 12px; }
.trace { overflow-x: auto; border: 1px solid #d0d4dc; background: #fff; padding: 8px; }
.lane { display: flex; align-items: stretch; margin: 4px 0; }
.lane-label { width: 80px; flex: none; font-weight: 600; padding-top: 6px; }
.box, .gap { width: 170px; flex: none; margin-right: 6px; padding: 4px 6px; border-radius: 6px;
  font-size: 12px; box-sizing: border-box; min-height: 44px; }
.box { background: #e7eefc; border: 1px solid #9db4e8; }
.box .seq { color: #5a6478; font-size: 11px; display: flex; justify-content: space-between; }
.box .site { color: #2b3a55; font-size: 11px; margin-top: 2px; }
.box code { display: block; font-size: 11px; color: #3a4256; white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; }
.box.diverged { background: #ffd6d6; border: 2px solid #d62828; }
.box.missing { background: repeating-linear-gradient(45deg, #fff, #fff 6px, #f3f3f3 6px, #f3f3f3 12px);
  border: 1px dashed #999; color: #555; }
.box.missing.diverged { border: 2px dashed #d62828; }
.axis { display: flex; margin-left: 80px; color: #5a6478; font-size: 11px; }
.axis div { width: 170px; margin-right: 6px; flex: none; }
table.verdicts { border-collapse: collapse; background: #fff; }
table.verdicts td, table.verdicts th { border: 1px solid #d0d4dc; padding: 4px 8px; text-align: left; }
.verdict-CONFIRMED { color: #a4161a; font-weight: 600; }
.verdict-NOT-REPRODUCED { color: #1b4332; font-weight: 600; }
.verdict-NOT-REACHED { color: #5a6478; font-weight: 600; }
)";

std::string hover(const Matcher &M, const std::vector<Location> &Sites, const Call &C) {
  std::string Text = describeCall(M, C) + "\n" + Sites[C.Site].text();
  for (size_t I = 1; I < Sites[C.Site].Frames.size(); ++I) {
    const Frame &F = Sites[C.Site].Frames[I];
    Text += "\ninlined into " + F.Function + " at " + F.File + ":" + std::to_string(F.Line);
  }
  return Text;
}

/// The text of a call site's source line, when the source is readable here.
class SourceLines {
public:
  std::string line(const Location &At) {
    if (At.Frames.empty())
      return "";
    const Frame &F = At.Frames.front();
    auto [It, New] = Files.try_emplace(F.File);
    if (New) {
      std::ifstream In(F.File);
      for (std::string Text; std::getline(In, Text);)
        It->second.push_back(Text);
    }
    if (F.Line == 0 || F.Line > It->second.size())
      return "";
    const std::string &Text = It->second[F.Line - 1];
    size_t Start = Text.find_first_not_of(" \t");
    return Start == std::string::npos ? "" : Text.substr(Start);
  }

private:
  std::map<std::string, std::vector<std::string>> Files;
};

/// "+12.3 ms": the time since the lane's previous collective.
std::string since(uint64_t Ns) {
  char Text[32];
  if (Ns < 1000000)
    std::snprintf(Text, sizeof Text, "+%.0f us", Ns / 1e3);
  else if (Ns < 1000000000)
    std::snprintf(Text, sizeof Text, "+%.1f ms", Ns / 1e6);
  else
    std::snprintf(Text, sizeof Text, "+%.2f s", Ns / 1e9);
  return Text;
}

void trace(std::ostream &Out, const Matcher &M, const std::vector<Location> &Sites, uint64_t CommId,
           SourceLines &Source) {
  const CommState &C = M.comms().at(CommId);
  std::set<uint64_t> Marked;
  std::set<int> Flagged;
  if (const auto &D = M.divergence()) {
    for (const auto &P : D->Points)
      if (P.Comm == CommId)
        Marked.insert(P.Seq);
    Flagged.insert(D->Culprits.begin(), D->Culprits.end());
  }
  uint64_t Lo = UINT64_MAX, Hi = 0;
  for (const auto &[R, T] : C.Members) {
    for (const Call &Made : T.Recent) {
      Lo = std::min(Lo, Made.Seq);
      Hi = std::max(Hi, Made.Seq);
    }
    Hi = std::max(Hi, T.Count + 1);
  }
  for (uint64_t S : Marked) {
    Lo = std::min(Lo, S);
    Hi = std::max(Hi, S);
  }
  if (Lo == UINT64_MAX)
    Lo = 1;
  constexpr uint64_t Columns = 24; // ending just after the divergence when there is one
  if (Hi - Lo + 1 > Columns) {
    uint64_t End = Marked.empty() ? Hi : std::min(Hi, *Marked.begin() + 2);
    Lo = End + 1 > Columns ? End + 1 - Columns : 1;
    Hi = Lo + Columns - 1;
  }
  // Ranks that left before the divergence was found; later exits are the stop.
  uint64_t DetectedNs = M.divergence() ? M.divergence()->DetectedNs : UINT64_MAX;
  auto LeftBefore = [&](const RankState &S) { return S.Departed && S.DepartedNs <= DetectedNs; };
  auto Shown = [&](int R, const MemberTrace &T, uint64_t S) { // a box, not a gap
    return M.call(CommId, R, S) ||
           (S == T.Count + 1 && (Marked.count(S) || LeftBefore(M.ranks()[size_t(R)])));
  };
  for (bool Empty = true; Empty && Hi > Lo; Hi -= Empty) // no column of gaps only at the end
    for (const auto &[R, T] : C.Members)
      Empty &= !Shown(R, T, Hi);
  Out << "<h2>" << escape(M.label(CommId)) << " &middot; " << C.Size << " ranks</h2>\n"
      << "<div class=\"trace\" data-comm=\"" << escape(M.label(CommId))
      << "\">\n<div class=\"axis\">";
  for (uint64_t S = Lo; S <= Hi; ++S)
    Out << "<div>#" << S << "</div>";
  Out << "</div>\n";
  for (const auto &[R, T] : C.Members) {
    const RankState &State = M.ranks()[size_t(R)];
    Out << "<div class=\"lane\" data-rank=\"" << R << "\"><div class=\"lane-label\">rank " << R
        << "</div>";
    for (uint64_t S = Lo; S <= Hi; ++S) {
      bool Diverged = Marked.count(S) > 0;
      const Call *Made = M.call(CommId, R, S);
      if (Made) {
        const Call *Before = M.call(CommId, R, S - 1);
        std::string Code = Source.line(Sites[Made->Site]);
        Out << "<div class=\"box" << (Diverged ? " diverged" : "") << "\" title=\""
            << escape(hover(M, Sites, *Made)) << "\"><div class=\"seq\"><span>#" << S << "</span>"
            << (Before && Made->TimeNs >= Before->TimeNs
                    ? "<span class=\"since\">" + since(Made->TimeNs - Before->TimeNs) + "</span>"
                    : "")
            << "</div>" << escape(M.names().function(Made->Func).Name) << "<div class=\"site\">"
            << escape(Sites[Made->Site].brief()) << "</div>"
            << (Code.empty() ? "" : "<code>" + escape(Code) + "</code>") << "</div>";
      } else if (S == T.Count + 1 && (Diverged || LeftBefore(State))) {
        std::string Why =
            LeftBefore(State) ? (State.Exit.empty() ? "left" : State.Exit) : "not called";
        Out << "<div class=\"box missing" << (Diverged ? " diverged" : "") << "\" title=\"rank "
            << R << " never called collective #" << S << "\"><div class=\"seq\">#" << S << "</div>("
            << escape(Why) << ")</div>";
      } else {
        Out << "<div class=\"gap\"></div>";
      }
    }
    Out << "</div>\n";
  }
  Out << "</div>\n";
}

} // namespace

Error writeHtml(const std::string &Path, const Matcher &M, const std::vector<Location> &Sites,
                const Outcome &O) {
  std::ostringstream Out;
  std::string Command;
  for (const auto &A : O.Command)
    Command += (Command.empty() ? "" : " ") + A;
  Out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
      << "<title>lockstep run: " << escape(O.Status) << "</title>\n<style>" << Style
      << "</style></head>\n<body>\n"
      << "<h1>lockstep run <span class=\"status " << escape(O.Status) << "\">" << escape(O.Status)
      << "</span></h1>\n<p><code>" << escape(Command) << "</code> &middot; " << M.worldSize()
      << " ranks &middot; exit code " << O.ExitCode << "</p>\n";
  if (!O.Diagnosis.empty())
    Out << "<pre class=\"diagnosis\">" << escape(O.Diagnosis) << "</pre>\n";
  SourceLines Source;
  for (uint64_t Id : reportedComms(M))
    trace(Out, M, Sites, Id, Source);
  if (!O.Verdicts.empty()) {
    Out << "<h2>Static findings</h2>\n<table "
           "class=\"verdicts\"><tr><th>verdict</th><th>finding</th>"
        << "<th>check</th><th>detail</th></tr>\n";
    for (const Judged &V : O.Verdicts) {
      std::string Name = verdictName(V.Outcome);
      std::string Class = Name;
      for (char &Ch : Class)
        Ch = Ch == ' ' ? '-' : Ch;
      Out << "<tr class=\"verdict\"><td class=\"verdict-" << Class << "\">" << Name << "</td><td>"
          << escape(V.What.Location.File + ":" + std::to_string(V.What.Location.Line))
          << "</td><td>" << escape(V.What.Check) << "</td><td>" << escape(V.Detail)
          << "</td></tr>\n";
    }
    Out << "</table>\n";
  }
  if (!O.Warnings.empty()) {
    Out << "<h2>Warnings</h2>\n<ul>";
    for (const auto &W : O.Warnings)
      Out << "<li>" << escape(W) << "</li>";
    Out << "</ul>\n";
  }
  Out << "</body></html>\n";
  std::ofstream File(Path);
  File << Out.str();
  if (!File)
    return Error("cannot write '" + Path + "'");
  return Error::success();
}

} // namespace lockstep::run
