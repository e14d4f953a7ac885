#include "Net.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

namespace lockstep::net {

Error parseEndpoint(const std::string &Text, Endpoint &Out, bool AllowAnyPort) {
  size_t Colon = Text.rfind(':');
  if (Colon == std::string::npos || Colon == 0)
    return Error("expected HOST:PORT, got '" + Text + "'");
  std::string Port = Text.substr(Colon + 1);
  if (Port.empty() || Port.size() > 5 || Port.find_first_not_of("0123456789") != std::string::npos)
    return Error("invalid port '" + Port + "' in '" + Text + "'");
  unsigned long Value = std::stoul(Port);
  if (Value > 65535 || (Value == 0 && !AllowAnyPort))
    return Error("port " + Port + " out of range in '" + Text + "'");
  Out.Host = Text.substr(0, Colon);
  Out.Port = static_cast<uint16_t>(Value);
  return Error::success();
}

Error parseCoordinator(const std::string &Text, uint8_t (&Token)[wire::TokenBytes], Endpoint &Out) {
  size_t At = Text.find('@');
  if (At == std::string::npos)
    return Error(std::string(CoordinatorVar) + " must be TOKEN@HOST:PORT");
  if (!wire::tokenFromHex(Text.substr(0, At), Token))
    return Error(std::string("the token in ") + CoordinatorVar +
                 " must be 64 lowercase hex digits");
  return parseEndpoint(Text.substr(At + 1), Out, false);
}

std::string formatCoordinator(const uint8_t (&Token)[wire::TokenBytes], const Endpoint &At) {
  return wire::tokenToHex(Token) + "@" + At.Host + ":" + std::to_string(At.Port);
}

static Error resolve(const Endpoint &At, sockaddr_storage &Addr, socklen_t &Len, bool Passive) {
  addrinfo Hints{};
  Hints.ai_family = AF_UNSPEC;
  Hints.ai_socktype = SOCK_STREAM;
  Hints.ai_flags = Passive ? AI_PASSIVE : 0;
  addrinfo *List = nullptr;
  int Rc = getaddrinfo(At.Host.c_str(), std::to_string(At.Port).c_str(), &Hints, &List);
  if (Rc != 0 || !List)
    return Error("cannot resolve '" + At.Host + "': " + gai_strerror(Rc));
  std::memcpy(&Addr, List->ai_addr, List->ai_addrlen);
  Len = List->ai_addrlen;
  freeaddrinfo(List);
  return Error::success();
}

Expected<int> listenOn(Endpoint &At) {
  sockaddr_storage Addr{};
  socklen_t Len = 0;
  if (Error E = resolve(At, Addr, Len, true))
    return E;
  int Fd = socket(Addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (Fd < 0)
    return Error(std::string("socket: ") + std::strerror(errno));
  int One = 1;
  setsockopt(Fd, SOL_SOCKET, SO_REUSEADDR, &One, sizeof One);
  if (bind(Fd, reinterpret_cast<sockaddr *>(&Addr), Len) != 0 || listen(Fd, 128) != 0) {
    Error Failure("cannot listen on " + At.Host + ":" + std::to_string(At.Port) + ": " +
                  std::strerror(errno));
    close(Fd);
    return Failure;
  }
  Len = sizeof Addr;
  getsockname(Fd, reinterpret_cast<sockaddr *>(&Addr), &Len);
  At.Port = ntohs(Addr.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6 *>(&Addr)->sin6_port
                                             : reinterpret_cast<sockaddr_in *>(&Addr)->sin_port);
  return Fd;
}

Expected<int> connectTo(const Endpoint &At) {
  sockaddr_storage Addr{};
  socklen_t Len = 0;
  if (Error E = resolve(At, Addr, Len, false))
    return E;
  int Fd = socket(Addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (Fd < 0)
    return Error(std::string("socket: ") + std::strerror(errno));
  if (connect(Fd, reinterpret_cast<sockaddr *>(&Addr), Len) != 0) {
    Error Failure("cannot connect to " + At.Host + ":" + std::to_string(At.Port) + ": " +
                  std::strerror(errno));
    close(Fd);
    return Failure;
  }
  int One = 1; // events are small; latency matters more than packet count
  setsockopt(Fd, IPPROTO_TCP, TCP_NODELAY, &One, sizeof One);
  return Fd;
}

bool writeAll(int Fd, const uint8_t *Data, size_t Size, int TimeoutMs) {
  while (Size > 0) {
    ssize_t N = send(Fd, Data, Size, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (N > 0) {
      Data += N;
      Size -= static_cast<size_t>(N);
      continue;
    }
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd P{Fd, POLLOUT, 0};
      int Rc = poll(&P, 1, TimeoutMs);
      if (Rc == 0)
        return false;
      if (Rc < 0 && errno != EINTR)
        return false;
      continue;
    }
    return false;
  }
  return true;
}

void setNonBlocking(int Fd) { fcntl(Fd, F_SETFL, fcntl(Fd, F_GETFL) | O_NONBLOCK); }

uint64_t monotonicNs() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return uint64_t(T.tv_sec) * 1000000000u + uint64_t(T.tv_nsec);
}

} // namespace lockstep::net
