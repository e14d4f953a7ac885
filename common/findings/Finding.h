// A finding as every part of lockstep exchanges it: one diagnostic of a
// lockstep check with its notes, in plain data (no Clang types), so that
// `lockstep check` can write it as text, JSON or SARIF, compare it with a
// baseline and merge it across shards, and `lockstep run` can confirm it.
#pragma once

#include "Wording.h"

#include <optional>
#include <string>
#include <vector>

namespace lockstep::findings {

struct Location {
  std::string File; // absolute path, or as the findings file wrote it
  unsigned Line = 0;
  unsigned Column = 0;
};

struct Note {
  findings::Location Location;
  std::string Message;
};

/// One edit of a fix-it: replace \c Length bytes at \c Offset of \c File.
struct Replacement {
  std::string File; // absolute path
  unsigned Offset = 0;
  unsigned Length = 0;
  std::string Text;
};

struct Finding {
  std::string Check;            // "lockstep-rank-branch"
  findings::Location Location;  // where the warning sits
  std::string Message;          // the warning text, without the "[check]" suffix
  std::string Function;         // qualified name of the enclosing function, if known
  std::string Collective;       // "MPI_Barrier", when the finding is about one collective
  std::string Communicator;     // as written at the call, when known
  std::string Condition;        // the deciding condition as written, when there is one
  std::vector<Note> Notes;      // in emission order
  std::string Id;               // stable identity: see checker/cli/FindingsOutput.h
  std::vector<Replacement> Fix; // the fix-it, when the check offers one; not in the outputs
  // While a call the finding names waits for its callee's summary (a
  // function of another file), or a field or global its value was read from
  // for the summary of a file that writes it: the wording its text was
  // rendered from, to render it again once resolved (PendingFindings.h).
  std::optional<Wording> Pending;
};

/// Renders \p W into \p F's message and notes (one per note of \p F, in
/// order); keeps \p W as F.pending while one of its calls is pending.
void render(Finding &F, Wording W);

} // namespace lockstep::findings
