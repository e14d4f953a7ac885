// Summaries of functions defined in other translation units, as plain data:
// which collectives a function performs and whether it returns a rank. The
// CLI writes them from every translation unit and merges them; the checks
// read the merged file (option SummaryFile) so that a call to a function
// defined elsewhere counts like a call to one defined here.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lockstep::analysis {

struct SourcePoint {
  std::string file; // absolute
  unsigned line = 0;
  unsigned column = 0;
};

struct ExternalFunction {
  std::string name; // qualified, for messages
  struct Collective {
    std::string name; // "MPI_Barrier"
    SourcePoint site;
    std::string communicator;                  // as written in the function
    std::optional<unsigned> communicatorParam; // the parameter that receives it, if one does
  };
  std::vector<Collective> collectives; // the sequence it performs on every path
  bool severalSequences = false;       // paths differ: it counts as one opaque event
  // A field (by record) or a global, not a function: some file writes it
  // with a per-rank value (returnsRank), so a read of it is per-rank.
  bool storage = false;
  bool returnsRank = false;
  std::string rankSource; // what the rank comes from, for the note
  SourcePoint rankSite;

  bool performsCollectives() const { return !collectives.empty(); }
};

/// By USR (clang::index), which names the same function, field or global in
/// every file.
using ExternalSummaries = std::map<std::string, ExternalFunction>;

} // namespace lockstep::analysis
