#include "ExternalIndex.h"
#include "CallSite.h"

namespace lockstep::analysis {
using namespace clang;

const std::string &ExternalIndex::usr(const FunctionDecl *FD) const {
  FD = FD->getCanonicalDecl();
  auto It = Usrs.find(FD);
  if (It == Usrs.end())
    It = Usrs.try_emplace(FD, usrOf(FD)).first;
  return It->second;
}

const ExternalFunction *ExternalIndex::find(const FunctionDecl *FD) const {
  if (!Summaries || Summaries->empty() || FD->hasBody())
    return nullptr;
  FD = FD->getCanonicalDecl();
  auto It = Found.find(FD);
  if (It == Found.end()) {
    auto Summary = Summaries->find(usr(FD));
    It = Found.try_emplace(FD, Summary == Summaries->end() ? nullptr : &Summary->second).first;
  }
  return It->second;
}

const ExternalFunction *ExternalIndex::findStorage(const ValueDecl *D) const {
  if (!Summaries || Summaries->empty())
    return nullptr;
  auto [It, Inserted] = Storage.try_emplace(D, nullptr);
  if (Inserted)
    if (auto Summary = Summaries->find(usrOf(D));
        Summary != Summaries->end() && Summary->second.Storage && Summary->second.ReturnsRank)
      It->second = &Summary->second;
  return It->second;
}

} // namespace lockstep::analysis
