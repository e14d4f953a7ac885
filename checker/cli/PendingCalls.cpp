#include "PendingCalls.h"

namespace lockstep::cli {

namespace {

/// The USR in the first "lockstep-pending:<USR>" of \p Text.
std::string pendingUsr(const std::string &Text) {
  size_t Start = Text.find(analysis::PendingPrefix);
  if (Start == std::string::npos)
    return "";
  Start += std::string(analysis::PendingPrefix).size();
  size_t End = Text.find('\'', Start);
  return Text.substr(Start, End == std::string::npos ? std::string::npos : End - Start);
}

void replaceAll(std::string &Text, const std::string &From, const std::string &To) {
  for (size_t At = Text.find(From); At != std::string::npos; At = Text.find(From, At + To.size()))
    Text.replace(At, From.size(), To);
}

} // namespace

std::vector<Finding> resolvePending(std::vector<Finding> Findings,
                                    const analysis::ExternalSummaries &Summaries,
                                    bool KeepUnresolved) {
  std::vector<Finding> Out;
  for (Finding &F : Findings) {
    const std::string Usr = pendingUsr(F.message);
    if (Usr.empty()) {
      Out.push_back(std::move(F));
      continue;
    }
    auto It = Summaries.find(Usr);
    if (It == Summaries.end()) {
      if (KeepUnresolved)
        Out.push_back(std::move(F));
      continue; // defined nowhere in the project: a library call
    }
    const analysis::ExternalFunction &Callee = It->second;
    if (!Callee.performsCollectives())
      continue;
    const analysis::ExternalFunction::Collective &First = Callee.collectives.front();
    const std::string Placeholder = analysis::PendingPrefix + Usr;
    replaceAll(F.message, Placeholder, First.name);
    for (Note &N : F.notes)
      replaceAll(N.message, Placeholder, First.name);
    F.collective = First.name;
    F.communicator = First.communicatorParam && *First.communicatorParam < F.callArguments.size()
                         ? F.callArguments[*First.communicatorParam]
                         : First.communicator;
    // The note into the other file goes right after the warning, as the
    // checks place the callee note for a function of the same file.
    F.notes.insert(F.notes.begin(),
                   Note{{First.site.file, First.site.line, First.site.column},
                        "'" + First.name + "' is called here, inside '" + Callee.name + "'"});
    Out.push_back(std::move(F));
  }
  return Out;
}

} // namespace lockstep::cli
