#include "Finding.h"

#include <algorithm>
#include <cassert>

namespace lockstep::findings {

Message::Message(std::string Text) {
  if (!Text.empty())
    parts.push_back({std::move(Text), std::nullopt, Naming::Collective});
}

Message Message::naming(unsigned Call, Naming N) {
  Message M;
  M.parts.push_back({"", Call, N});
  return M;
}

Message &Message::operator+=(const Message &Other) {
  for (const MessagePart &Part : Other.parts)
    if (!Part.call && !parts.empty() && !parts.back().call)
      parts.back().text += Part.text; // adjacent text is one part
    else
      parts.push_back(Part);
  return *this;
}

std::string quoted(const std::string &Name) { return "'" + Name + "'"; }

std::string name(const Collective &C, Naming N) {
  if (N == Naming::OnCommunicator)
    return C.communicator.empty() ? "" : " on " + quoted(C.communicator);
  if (C.name.empty())
    return quoted(C.callee);
  if (N == Naming::Collective || C.callee.empty())
    return quoted(C.name);
  if (!C.guard.empty())
    return "the destructor of " + quoted(C.guard) + " (which calls " + quoted(C.name) + ")";
  return quoted(C.callee) + " (which calls " + quoted(C.name) + ")";
}

std::string render(const Message &M, const std::vector<Call> &Calls) {
  std::string Text;
  for (const MessagePart &Part : M.parts)
    Text += Part.call ? name(Calls[*Part.call].collective, Part.naming) : Part.text;
  return Text;
}

std::string calleeNote(const Collective &C) {
  return quoted(C.name) + " is called here, inside " + quoted(C.callee);
}

void render(Finding &F, Wording W) {
  assert(W.notes.size() == F.notes.size() && "one message per note");
  F.message = render(W.warning, W.calls);
  for (size_t I = 0; I < F.notes.size(); ++I)
    F.notes[I].message = render(W.notes[I], W.calls);
  F.pending.reset();
  if (std::any_of(W.calls.begin(), W.calls.end(), [](const Call &C) { return C.pending(); }))
    F.pending = std::move(W);
}

} // namespace lockstep::findings
