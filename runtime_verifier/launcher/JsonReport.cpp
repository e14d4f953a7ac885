#include "Diagnosis.h"
#include "Report.h"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

namespace lockstep::run {

std::vector<uint64_t> reportedComms(const Matcher &M) {
  std::vector<uint64_t> Ids;
  if (const auto &D = M.divergence()) {
    for (const auto &P : D->Points)
      if (std::find(Ids.begin(), Ids.end(), P.Comm) == Ids.end())
        Ids.push_back(P.Comm);
    return Ids;
  }
  for (const auto &[Id, C] : M.comms())
    if (Ids.size() < 8)
      Ids.push_back(Id);
  return Ids;
}

namespace {

nlohmann::json site(const std::vector<Location> &Sites, uint32_t Id) {
  nlohmann::json J = {{"location", Sites[Id].text()}};
  nlohmann::json Frames = nlohmann::json::array();
  for (const Frame &F : Sites[Id].Frames)
    Frames.push_back(
        {{"file", F.File}, {"line", F.Line}, {"column", F.Column}, {"function", F.Function}});
  J["frames"] = Frames;
  return J;
}

nlohmann::json call(const Matcher &M, const std::vector<Location> &Sites, const Call &C) {
  const Function &F = M.names().function(C.Func);
  nlohmann::json J = {{"seq", C.Seq},
                      {"function", F.Name},
                      {"operation", F.Operation},
                      {"call", describeCall(M, C)},
                      {"site", site(Sites, C.Site)}};
  if (C.Count != wire::NoCount)
    J["count"] = C.Count;
  if (C.Root != wire::NoRoot)
    J["root"] = C.Root;
  if (C.Datatype != NoName)
    J["datatype"] = M.names().text(C.Datatype);
  if (C.Op != NoName)
    J["op"] = M.names().text(C.Op);
  return J;
}

} // namespace

Error writeJson(const std::string &Path, const Matcher &M, const std::vector<Location> &Sites,
                const Outcome &O) {
  nlohmann::json J = {{"version", 1},
                      {"status", O.Status},
                      {"exit_code", O.ExitCode},
                      {"world_size", M.worldSize()},
                      {"command", O.Command},
                      {"warnings", O.Warnings}};
  if (const auto &D = M.divergence()) {
    nlohmann::json Points = nlohmann::json::array(), Calls = nlohmann::json::array();
    for (const auto &P : D->Points) {
      nlohmann::json Point = {{"communicator", M.label(P.Comm)}, {"seq", P.Seq}};
      if (P.Rank >= 0)
        Point["rank"] = P.Rank;
      Points.push_back(Point);
    }
    for (const auto &C : divergingCalls(M)) {
      nlohmann::json Entry = {{"rank", C.Rank}, {"communicator", M.label(C.Comm)}, {"seq", C.Seq}};
      Entry["made"] = C.What ? call(M, Sites, *C.What) : nlohmann::json(nullptr);
      Calls.push_back(Entry);
    }
    J["divergence"] = {{"kind", kindName(D->K)},
                       {"field", D->Field},
                       {"points", Points},
                       {"ranks", D->Culprits},
                       {"calls", Calls},
                       {"detected_after_ms", O.DetectionMs},
                       {"stop_ordered_after_ms", O.StopMs},
                       {"text", O.Diagnosis}};
  } else {
    J["divergence"] = nullptr;
  }
  nlohmann::json Ranks = nlohmann::json::array();
  for (int R = 0; R < M.worldSize(); ++R) {
    const RankState &S = M.ranks()[size_t(R)];
    Ranks.push_back({{"rank", R},
                     {"calls", S.Calls},
                     {"connected", S.Connected},
                     {"exit", S.Exit},
                     {"dropped_events", S.Dropped},
                     {"incomplete", M.incomplete(R)}});
  }
  J["ranks"] = Ranks;
  if (!O.LauncherExit.empty())
    J["launcher"] = {{"exit", O.LauncherExit}, {"signalled_by_lockstep", O.LauncherSignalled}};
  nlohmann::json Comms = nlohmann::json::array();
  for (const auto &[Id, C] : M.comms()) {
    std::vector<int> Members;
    uint64_t Calls = 0;
    for (const auto &[R, T] : C.Members) {
      Members.push_back(R);
      Calls = std::max(Calls, T.known());
    }
    Comms.push_back({{"label", M.label(Id)},
                     {"size", C.Size},
                     {"ranks", Members},
                     {"collectives", Calls},
                     {"compared_from", C.ResyncFrom ? C.ResyncFrom : 1}});
  }
  J["communicators"] = Comms;
  nlohmann::json Verdicts = nlohmann::json::array();
  for (const Judged &V : O.Verdicts)
    Verdicts.push_back({{"file", V.What.Location.File},
                        {"line", V.What.Location.Line},
                        {"check", V.What.Check},
                        {"message", V.What.Message},
                        {"verdict", verdictName(V.Outcome)},
                        {"detail", V.Detail}});
  J["verdicts"] = Verdicts;
  std::ofstream Out(Path);
  Out << J.dump(2) << "\n";
  if (!Out)
    return Error("cannot write '" + Path + "'");
  return Error::success();
}

} // namespace lockstep::run
