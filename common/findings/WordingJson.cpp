#include "WordingJson.h"
#include "JsonReader.h"

#include <algorithm>

namespace lockstep::findings {

namespace {

using json_reader::found;
using json_reader::Reader;
using nlohmann::json;
using nlohmann::ordered_json;

constexpr std::pair<Naming, const char *> NamingNames[] = {
    {Naming::Collective, "collective"},
    {Naming::Called, "called"},
    {Naming::OnCommunicator, "on-communicator"},
};

ordered_json messageJson(const Message &M) {
  ordered_json Parts = ordered_json::array();
  for (const MessagePart &Part : M.Parts) {
    if (!Part.Call) {
      Parts.push_back(Part.Text);
      continue;
    }
    for (auto [N, Name] : NamingNames)
      if (N == Part.Naming)
        Parts.push_back({{"call", *Part.Call}, {"naming", Name}});
  }
  return Parts;
}

Error readMessage(const json &Value, const std::string &Context, size_t Calls, Message &Out) {
  if (!Value.is_array())
    return Error(Context + ": expected an array, found " + found(Value));
  for (size_t I = 0; I < Value.size(); ++I) {
    if (Value[I].is_string()) {
      Out += Message(Value[I].get<std::string>());
      continue;
    }
    Reader R(Value[I], Context + ", part " + std::to_string(I + 1));
    unsigned Call = 0;
    std::string Name;
    if (!R.onlyKeys({"call", "naming"}) || !R.count("call", Call) || !R.string("naming", Name))
      return R.takeError();
    if (Call >= Calls)
      return R.failure("call", "expected an index of 'calls', found " + std::to_string(Call));
    const auto *Known = std::find_if(std::begin(NamingNames), std::end(NamingNames),
                                     [&](const auto &Entry) { return Name == Entry.second; });
    if (Known == std::end(NamingNames))
      return R.failure("naming", "expected 'collective', 'called' or 'on-communicator', found '" +
                                     Name + "'");
    Out += Message::naming(Call, Known->first);
  }
  return Error::success();
}

Error readCall(const json &Value, const std::string &Context, size_t NoteCount, Call &Out) {
  Reader R(Value, Context);
  if (!R.onlyKeys({"collective", "communicator", "callee", "guard", "kept", "usr", "arguments",
                   "callee_note"}) ||
      !R.text("collective", Out.Collective.Name) ||
      !R.text("communicator", Out.Collective.Communicator) ||
      !R.text("callee", Out.Collective.Callee) || !R.text("guard", Out.Collective.Guard) ||
      !R.boolean("kept", Out.Collective.Kept) || !R.text("usr", Out.Usr) ||
      !R.stringList("arguments", Out.Arguments))
    return R.takeError();
  if (!R.has("callee_note"))
    return Error::success();
  unsigned Note = 0;
  if (!R.count("callee_note", Note))
    return R.takeError();
  if (Note > NoteCount)
    return R.failure("callee_note", "expected a place among the " + std::to_string(NoteCount) +
                                        " notes, found " + std::to_string(Note));
  Out.CalleeNote = Note;
  return Error::success();
}

} // namespace

static Error readRead(const json &Value, const std::string &Context, size_t NoteCount,
                      PendingRead &Out) {
  Reader R(Value, Context);
  if (!R.onlyKeys({"usr", "name", "note"}) || !R.string("usr", Out.Usr) ||
      !R.string("name", Out.Name) || !R.count("note", Out.Note))
    return R.takeError();
  if (Out.Note > NoteCount)
    return R.failure("note", "expected a place among the " + std::to_string(NoteCount) +
                                 " notes, found " + std::to_string(Out.Note));
  return Error::success();
}

ordered_json wordingJson(const Wording &W) {
  ordered_json Calls = ordered_json::array();
  for (const Call &C : W.Calls) {
    ordered_json Item = {{"collective", C.Collective.Name},
                         {"communicator", C.Collective.Communicator},
                         {"callee", C.Collective.Callee},
                         {"guard", C.Collective.Guard},
                         {"usr", C.Usr}};
    if (C.Collective.Kept)
      Item["kept"] = true;
    if (!C.Arguments.empty())
      Item["arguments"] = C.Arguments;
    if (C.CalleeNote)
      Item["callee_note"] = *C.CalleeNote;
    Calls.push_back(std::move(Item));
  }
  ordered_json Notes = ordered_json::array();
  for (const Message &M : W.Notes)
    Notes.push_back(messageJson(M));
  ordered_json Out = {{"calls", std::move(Calls)}};
  if (!W.Reads.empty()) {
    ordered_json &Reads = Out["reads"] = ordered_json::array();
    for (const PendingRead &Read : W.Reads)
      Reads.push_back({{"usr", Read.Usr}, {"name", Read.Name}, {"note", Read.Note}});
  }
  Out["message"] = messageJson(W.Warning);
  Out["notes"] = std::move(Notes);
  return Out;
}

Error readWording(const json &Object, const std::string &Context, size_t NoteCount, Wording &Out) {
  Reader R(Object, Context);
  const json *Calls =
      R.onlyKeys({"calls", "reads", "message", "notes"}) ? R.array("calls") : nullptr;
  if (!Calls)
    return R.takeError();
  for (size_t I = 0; I < Calls->size(); ++I) {
    Call C;
    if (Error E = readCall((*Calls)[I], Context + ", call " + std::to_string(I + 1), NoteCount, C))
      return E;
    Out.Calls.push_back(std::move(C));
  }
  if (R.has("reads")) {
    const json *Reads = R.array("reads");
    if (!Reads)
      return R.takeError();
    for (size_t I = 0; I < Reads->size(); ++I)
      if (Error E = readRead((*Reads)[I], Context + ", read " + std::to_string(I + 1), NoteCount,
                             Out.Reads.emplace_back()))
        return E;
  }
  if (!Out.pending())
    return R.failure("calls", "expected a pending call or read");
  const json *Warning = R.require("message");
  const json *Notes = Warning ? R.array("notes") : nullptr;
  if (!Notes)
    return R.takeError();
  if (Error E = readMessage(*Warning, Context + ": message", Out.Calls.size(), Out.Warning))
    return E;
  if (Notes->size() != NoteCount)
    return R.failure("notes", "expected one message per note (" + std::to_string(NoteCount) +
                                  "), found " + std::to_string(Notes->size()));
  for (size_t I = 0; I < Notes->size(); ++I)
    if (Error E = readMessage((*Notes)[I], Context + ": note " + std::to_string(I + 1),
                              Out.Calls.size(), Out.Notes.emplace_back()))
      return E;
  return Error::success();
}

} // namespace lockstep::findings
