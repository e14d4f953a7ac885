#include "Finding.h"

#include <algorithm>
#include <cassert>

namespace lockstep::findings {

Message::Message(std::string Text) {
  if (!Text.empty())
    Parts.push_back({std::move(Text), std::nullopt, Naming::Collective});
}

Message Message::naming(unsigned Call, Naming N) {
  Message M;
  M.Parts.push_back({"", Call, N});
  return M;
}

Message &Message::operator+=(const Message &Other) {
  for (const MessagePart &Part : Other.Parts)
    if (!Part.Call && !Parts.empty() && !Parts.back().Call)
      Parts.back().Text += Part.Text; // adjacent text is one part
    else
      Parts.push_back(Part);
  return *this;
}

std::string quoted(const std::string &Name) { return "'" + Name + "'"; }

std::string name(const Collective &C, Naming N) {
  if (N == Naming::OnCommunicator)
    return C.Communicator.empty() ? "" : " on " + quoted(C.Communicator);
  if (C.Name.empty())
    return quoted(C.Callee);
  if (N == Naming::Collective || C.Callee.empty())
    return quoted(C.Name);
  if (!C.Guard.empty())
    return "the destructor of " + quoted(C.Guard) + " (which calls " + quoted(C.Name) + ")";
  return quoted(C.Callee) + (C.Kept ? " (which keeps a callable that calls " : " (which calls ") +
         quoted(C.Name) + ")";
}

std::string render(const Message &M, const std::vector<Call> &Calls) {
  std::string Text;
  for (const MessagePart &Part : M.Parts)
    Text += Part.Call ? name(Calls[*Part.Call].Collective, Part.Naming) : Part.Text;
  return Text;
}

std::string calleeNote(const Collective &C) {
  if (C.Kept)
    return quoted(C.Name) + " is called here, in the callable " + quoted(C.Callee) +
           " keeps; it runs wherever that callable is called later";
  return quoted(C.Name) + " is called here, inside " + quoted(C.Callee);
}

bool Wording::pending() const {
  bool Waiting = !Reads.empty();
  for (const Call &C : Calls)
    Waiting |= C.pending();
  return Waiting;
}

void render(Finding &F, Wording W) {
  assert(W.notes.size() == F.notes.size() && "one message per note");
  F.Message = render(W.Warning, W.Calls);
  for (size_t I = 0; I < F.Notes.size(); ++I)
    F.Notes[I].Message = render(W.Notes[I], W.Calls);
  F.Pending.reset();
  if (W.pending())
    F.Pending = std::move(W);
}

} // namespace lockstep::findings
