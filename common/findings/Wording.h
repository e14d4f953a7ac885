// The wording of a finding as data: its warning and notes are messages made
// of text and of the collectives they name, rendered by one path (render,
// Finding.h). A call to a function of another file is named before its
// callee is known and named again, the same way as a call to a function of
// the same file, once `lockstep check` has its summary.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace lockstep::findings {

/// A collective as the messages name it.
struct Collective {
  std::string Name;         // "MPI_Barrier"; empty while its call is pending
  std::string Communicator; // as written at the call, when known
  std::string Callee;       // what the user calls when it runs inside a function
  std::string Guard;        // the local object whose destructor calls it, if one
  bool Kept = false;        // in a callable the callee keeps to run later
};

/// How a message names a collective.
enum class Naming {
  Collective,     // 'MPI_Barrier'
  Called,         // 'save' (which calls 'MPI_Barrier'), or 'MPI_Barrier'; 'hooks.add'
                  // (which keeps a callable that calls 'MPI_Barrier')
  OnCommunicator, // " on 'comm'", or nothing when no communicator is known
};

/// A collective a finding's messages name: a call to a function of another
/// file is pending (its collective unnamed) until its summary is known.
struct Call {
  findings::Collective Collective;
  std::string Usr;                    // a pending call's callee, by USR
  std::vector<std::string> Arguments; // a pending call's arguments, as written
  // The finding's own collective, pending: the note into the callee takes
  // this place among the notes once resolved.
  std::optional<unsigned> CalleeNote;

  bool pending() const { return !Usr.empty(); }
};

/// Text, or one of the finding's calls named one way.
struct MessagePart {
  std::string Text;
  std::optional<unsigned> Call; // index into Wording::calls
  findings::Naming Naming = findings::Naming::Collective;
};

/// A message as data; concatenate with +.
struct Message {
  std::vector<MessagePart> Parts;

  Message() = default;
  Message(std::string Text);
  Message(const char *Text) : Message(std::string(Text)) {}
  /// The call \p Call (an index into Wording::calls) named as \p N.
  static Message naming(unsigned Call, Naming N);

  Message &operator+=(const Message &Other);
  friend Message operator+(Message A, const Message &B) { return A += B; }
};

/// A field or global a finding's per-rank value was read from, or a function
/// of another file that returned it, that no summary named when its file was
/// analysed: the finding stands once one says another file writes or
/// returns a per-rank value there.
struct PendingRead {
  std::string Usr;
  std::string Name;  // as the notes name it: "Decomposition::local_n", "owner_of"
  unsigned Note = 0; // where the note at that write takes its place among the notes
};

struct Wording {
  std::vector<Call> Calls;
  std::vector<PendingRead> Reads; // the finding stands if one of them is per-rank
  Message Warning;
  std::vector<Message> Notes;

  /// Whether a call or a read still waits for another file's summary.
  bool pending() const;
};

std::string quoted(const std::string &Name);

/// How \p C reads in a message as \p N. A pending call's collective is
/// named by what the user calls.
std::string name(const Collective &C, Naming N);

/// \p M with its calls named.
std::string render(const Message &M, const std::vector<Call> &Calls);

/// "'MPI_Barrier' is called here, inside 'save'": the note at the
/// collective inside the called function.
std::string calleeNote(const Collective &C);

} // namespace lockstep::findings
