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
  std::string file; // absolute path, or as the findings file wrote it
  unsigned line = 0;
  unsigned column = 0;
};

struct Note {
  Location location;
  std::string message;
};

/// One edit of a fix-it: replace \c length bytes at \c offset of \c file.
struct Replacement {
  std::string file; // absolute path
  unsigned offset = 0;
  unsigned length = 0;
  std::string text;
};

struct Finding {
  std::string check;            // "lockstep-rank-branch"
  Location location;            // where the warning sits
  std::string message;          // the warning text, without the "[check]" suffix
  std::string function;         // qualified name of the enclosing function, if known
  std::string collective;       // "MPI_Barrier", when the finding is about one collective
  std::string communicator;     // as written at the call, when known
  std::string condition;        // the deciding condition as written, when there is one
  std::vector<Note> notes;      // in emission order
  std::string id;               // stable identity: see checker/cli/FindingsOutput.h
  std::vector<Replacement> fix; // the fix-it, when the check offers one; not in the outputs
  // While a call the finding names waits for its callee's summary (a
  // function of another file): the wording its text was rendered from, to
  // render it again once resolved (PendingCalls.h).
  std::optional<Wording> pending;
};

/// Renders \p W into \p F's message and notes (one per note of \p F, in
/// order); keeps \p W as F.pending while one of its calls is pending.
void render(Finding &F, Wording W);

} // namespace lockstep::findings
