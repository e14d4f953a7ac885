// Small TCP helpers shared by the coordinator and the interposer, and the
// LOCKSTEP_COORDINATOR address format (TOKEN@HOST:PORT).
#pragma once

#include "Wire.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lockstep::net {

/// The variable that tells a rank where its coordinator is.
constexpr const char *CoordinatorVar = "LOCKSTEP_COORDINATOR";

struct Endpoint {
  std::string Host;
  uint16_t Port = 0;
};

/// Parses HOST:PORT (PORT may be 0 when \p AllowAnyPort).
Error parseEndpoint(const std::string &Text, Endpoint &Out, bool AllowAnyPort);

/// Parses TOKEN@HOST:PORT.
Error parseCoordinator(const std::string &Text, uint8_t (&Token)[wire::TokenBytes], Endpoint &Out);
std::string formatCoordinator(const uint8_t (&Token)[wire::TokenBytes], const Endpoint &At);

/// A listening socket (close-on-exec, non-blocking) on \p At; port 0 picks a
/// free one, written back into \p At.
Expected<int> listenOn(Endpoint &At);

/// A connected socket (close-on-exec, blocking).
Expected<int> connectTo(const Endpoint &At);

/// Writes all of \p Data, waiting up to \p TimeoutMs for the socket to
/// accept more (-1: no limit). False on error or timeout.
bool writeAll(int Fd, const uint8_t *Data, size_t Size, int TimeoutMs);

void setNonBlocking(int Fd);

/// CLOCK_MONOTONIC in nanoseconds.
uint64_t monotonicNs();

} // namespace lockstep::net
