// A finding as every part of lockstep exchanges it: one diagnostic of a
// lockstep check with its notes, in plain data (no Clang types), so that
// `lockstep check` can write it as text, JSON or SARIF, compare it with a
// baseline and merge it across shards, and `lockstep run` can confirm it.
#pragma once

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
  std::string check;        // "lockstep-rank-branch"
  Location location;        // where the warning sits
  std::string message;      // the warning text, without the "[check]" suffix
  std::string function;     // qualified name of the enclosing function, if known
  std::string collective;   // "MPI_Barrier", when the finding is about one collective
  std::string communicator; // as written at the call, when known
  std::string condition;    // the deciding condition as written, when there is one
  std::vector<Note> notes;  // in emission order
  std::string id;           // stable identity: see checker/cli/FindingsOutput.h
  std::vector<Replacement> fix; // the fix-it, when the check offers one; not in the outputs
  // A call still pending: its arguments as written, so that the communicator
  // the callee receives is named once resolved; not in the outputs.
  std::vector<std::string> callArguments;
};

} // namespace lockstep::findings
