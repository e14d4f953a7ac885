// The coordinator's network side: accepts connections, admits only those
// whose first message carries the job token, validates every frame,
// translates each rank's ids into job-wide names and feeds the Matcher. It
// also serves the harness's key-value requests (the NCCL unique id).
#pragma once

#include "Matcher.h"

#include "../common/Net.h"

#include <functional>
#include <map>
#include <memory>
#include <poll.h>
#include <string>
#include <unordered_map>
#include <vector>

namespace lockstep::run {

class Coordinator {
public:
  Coordinator(Matcher &M, const uint8_t (&Token)[wire::TokenBytes]);
  ~Coordinator();

  /// Listens on \p At (port 0: any free port, written back).
  Error listen(net::Endpoint &At);

  /// The sockets to poll, and what to do when one is ready.
  void pollSet(std::vector<pollfd> &Fds, std::vector<std::function<void(short)>> &Handlers);
  /// Closes connections that never said hello in time.
  void expire(uint64_t NowNs);

  /// Orders every connected rank to exit (best effort, never blocks long).
  /// Connections that end after it, mid-message or not, are not reported.
  void stopRanks(const std::string &Reason);

  /// Ranks whose connection is still open.
  int openRanks() const;
  /// Ranks that connected at least once.
  int ranksSeen() const { return Seen; }
  /// Connections closed before their hello: too slow, or over the limit.
  size_t shedConnections() const { return Shed; }

  /// Where rejections and protocol violations are reported.
  std::function<void(const std::string &)> Warn;

private:
  struct Connection;
  void accept();
  void read(Connection &C);
  /// Each fails with why the connection is closed.
  Error handle(Connection &C, wire::Type T, const std::vector<uint8_t> &Payload);
  Error hello(Connection &C, wire::Reader &R);
  Error define(Connection &C, wire::Reader &R);
  Error event(Connection &C, wire::Reader &R);
  void close(Connection &C, const std::string &Why, bool Violation = false);
  bool shedStranger();
  void shed(Connection &C, const std::string &Why);
  void answer(const std::string &Key);

  Matcher &Jobs;
  uint8_t Token[wire::TokenBytes];
  int ListenFd = -1;
  std::map<int, std::unique_ptr<Connection>> Connections; // by socket
  std::vector<int> RankFds;                               // by rank: open socket or -1
  std::map<std::string, std::vector<uint8_t>> Values;     // harness key-value store
  int Seen = 0;
  size_t Shed = 0;
  bool Stopped = false;
};

} // namespace lockstep::run
