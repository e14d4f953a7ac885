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
  std::string File; // absolute
  unsigned Line = 0;
  unsigned Column = 0;
};

struct ExternalFunction {
  std::string Name; // qualified, for messages
  struct Collective {
    std::string Name; // "MPI_Barrier"
    SourcePoint Site;
    std::string Communicator;                  // as written in the function
    std::optional<unsigned> CommunicatorParam; // the parameter that receives it, if one does
  };
  std::vector<Collective> Collectives; // the sequence it performs on every path
  bool SeveralSequences = false;       // paths differ: it counts as one opaque event
  // A field (by record) or a global, not a function: some file writes it
  // with a per-rank value (returnsRank), so a read of it is per-rank.
  bool Storage = false;
  bool ReturnsRank = false;
  std::string RankSource; // what the rank comes from, for the note
  SourcePoint RankSite;
  // ReturnsRank: the part of the job the rank counts in, when it is a rank in
  // a sub-communicator (MPI_Comm_rank(node, &local)): a name shared by the
  // summaries that refer to the same part.
  std::string RankPart;
  // ReturnsRank: the value is a communicator handle a split by a per-rank
  // colour made (each part has its own), not a value that must agree.
  bool ReturnsSplit = false;
  // An accessor of a communicator split by the rank in part SplitByPart
  // (MPI_Comm_split(world, local, ...)): its members share that rank.
  std::string SplitByPart;

  bool performsCollectives() const { return !Collectives.empty(); }
  bool worthKeeping() const { return performsCollectives() || ReturnsRank || !SplitByPart.empty(); }
};

/// By USR (clang::index), which names the same function, field or global in
/// every file.
using ExternalSummaries = std::map<std::string, ExternalFunction>;

} // namespace lockstep::analysis
