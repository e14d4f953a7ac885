#include "Coordinator.h"

#include <arpa/inet.h>
#include <cerrno>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace lockstep::run {

namespace {
// A rank says hello as soon as it connects; anything slower is a stranger.
constexpr uint64_t HelloDeadlineNs = 3'000'000'000ull;
constexpr size_t ShedWarnings = 5;         // then only counted, and summed up at the end
constexpr size_t MaxDefinitions = 1 << 20; // per connection
constexpr size_t MaxValues = 1024;         // harness keys per job
} // namespace

struct Coordinator::Connection {
  int Fd = -1;
  std::string Peer;
  enum class Role { AwaitHello, Rank, Harness } K = Role::AwaitHello;
  int Rank = -1;
  uint64_t OpenedNs = 0;
  int64_t ClockOffsetNs = 0; // the coordinator's clock minus the rank's
  bool SaidBye = false;
  wire::FrameSplitter In;
  std::unordered_map<uint32_t, uint32_t> Functions, Sites;
  std::unordered_map<uint64_t, uint32_t> Texts; // kind << 32 | id
  std::vector<std::string> WaitingFor;          // harness: keys asked for
};

Coordinator::Coordinator(Matcher &M, const uint8_t (&T)[wire::TokenBytes])
    : Jobs(M), RankFds(size_t(M.worldSize()), -1) {
  std::copy(std::begin(T), std::end(T), Token);
}

Coordinator::~Coordinator() {
  for (auto &[Fd, C] : Connections)
    ::close(Fd);
  if (ListenFd >= 0)
    ::close(ListenFd);
}

Error Coordinator::listen(net::Endpoint &At) {
  Expected<int> Fd = net::listenOn(At);
  if (!Fd)
    return Fd.takeError();
  ListenFd = *Fd;
  return Error::success();
}

void Coordinator::pollSet(std::vector<pollfd> &Fds,
                          std::vector<std::function<void(short)>> &Handlers) {
  Fds.push_back({ListenFd, POLLIN, 0});
  Handlers.push_back([this](short) { accept(); });
  for (auto &[Fd, C] : Connections) {
    Fds.push_back({Fd, POLLIN, 0});
    Connection *Conn = C.get();
    Handlers.push_back([this, Conn](short) { read(*Conn); });
  }
}

void Coordinator::accept() {
  for (;;) {
    sockaddr_storage Addr{};
    socklen_t Len = sizeof Addr;
    int Fd =
        accept4(ListenFd, reinterpret_cast<sockaddr *>(&Addr), &Len, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (Fd < 0)
      return;
    char Host[INET6_ADDRSTRLEN] = "?";
    uint16_t Port = 0;
    if (Addr.ss_family == AF_INET) {
      auto *In = reinterpret_cast<sockaddr_in *>(&Addr);
      inet_ntop(AF_INET, &In->sin_addr, Host, sizeof Host);
      Port = ntohs(In->sin_port);
    } else if (Addr.ss_family == AF_INET6) {
      auto *In = reinterpret_cast<sockaddr_in6 *>(&Addr);
      inet_ntop(AF_INET6, &In->sin6_addr, Host, sizeof Host);
      Port = ntohs(In->sin6_port);
    }
    if (Connections.size() >= size_t(4 * Jobs.worldSize() + 64) && !shedStranger()) {
      Warn(std::string("refused a connection from ") + Host + ": too many open connections");
      ::close(Fd);
      continue;
    }
    auto C = std::make_unique<Connection>();
    C->Fd = Fd;
    C->Peer = std::string(Host) + ":" + std::to_string(Port);
    C->OpenedNs = net::monotonicNs();
    Connection &Fresh = *C;
    Connections[Fd] = std::move(C);
    // A rank's hello follows its connect at once: reading it now makes it a
    // rank before a burst of newer strangers could shed it.
    read(Fresh);
  }
}

bool Coordinator::shedStranger() {
  // Full: the oldest connection that has not said who it is makes room, so
  // that strangers can never keep the job's ranks out.
  Connection *Oldest = nullptr;
  for (auto &[Fd, C] : Connections)
    if (C->K == Connection::Role::AwaitHello && (!Oldest || C->OpenedNs < Oldest->OpenedNs))
      Oldest = C.get();
  if (!Oldest)
    return false;
  shed(*Oldest, "over the limit of open connections");
  return true;
}

void Coordinator::shed(Connection &C, const std::string &Why) {
  ++Shed;
  close(C, Shed <= ShedWarnings ? "refused the connection from " + C.Peer + ": " + Why : "");
}

void Coordinator::expire(uint64_t NowNs) {
  std::vector<Connection *> Late;
  for (auto &[Fd, C] : Connections)
    if (C->K == Connection::Role::AwaitHello && NowNs - C->OpenedNs > HelloDeadlineNs)
      Late.push_back(C.get());
  for (Connection *C : Late)
    shed(*C, "no hello within 3 s");
}

void Coordinator::read(Connection &C) {
  // A bounded share per round: one busy rank must not keep the others'
  // reports waiting (their sockets and rings would fill and drop records).
  uint8_t Buf[65536];
  for (int Share = 0; Share < 4; ++Share) {
    ssize_t N = recv(C.Fd, Buf, sizeof Buf, 0);
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
      return;
    if (N <= 0) {
      std::string Why;
      if (C.K == Connection::Role::AwaitHello)
        Why = "refused the connection from " + C.Peer + ": closed before a hello";
      else if (C.In.pending())
        Why = "the connection of rank " + std::to_string(C.Rank) + " ended inside a message";
      return close(C, Why);
    }
    C.In.feed(Buf, size_t(N));
    wire::Type T;
    std::vector<uint8_t> Payload;
    while (C.In.next(T, Payload))
      if (Error E = handle(C, T, Payload))
        return close(C, E.message(), true);
    if (Error E = C.In.takeError()) {
      std::string Who = C.K == Connection::Role::AwaitHello ? "from " + C.Peer
                                                            : "of rank " + std::to_string(C.Rank);
      return close(C, "closed the connection " + Who + ": " + E.message(), true);
    }
  }
}

Error Coordinator::handle(Connection &C, wire::Type T, const std::vector<uint8_t> &Payload) {
  wire::Reader R(Payload.data(), Payload.size());
  if (C.K == Connection::Role::AwaitHello) {
    if (T != wire::Type::Hello)
      return Error("refused the connection from " + C.Peer + ": the first message is not a hello");
    return hello(C, R);
  }
  std::string Who =
      (C.K == Connection::Role::Rank ? "rank " : "the harness of rank ") + std::to_string(C.Rank);
  auto Malformed = [&](const std::string &Why) {
    return Error("closed the connection of " + Who + ": malformed message: " + Why);
  };
  if (C.K == Connection::Role::Harness) {
    wire::Kv Request;
    if (T != wire::Type::KvPut && T != wire::Type::KvGet)
      return Malformed("a harness connection may only put and get values");
    if (Error E = wire::decode(R, Request))
      return Malformed(E.message());
    if (T == wire::Type::KvGet) {
      C.WaitingFor.push_back(Request.Key);
    } else if (!Values.count(Request.Key)) {
      if (Values.size() >= MaxValues)
        return Malformed("too many keys");
      Values[Request.Key] = Request.Value;
    }
    answer(Request.Key);
    return Error::success();
  }
  uint64_t Now = net::monotonicNs();
  Error Violation = Error::success();
  switch (T) {
  case wire::Type::Comm: {
    wire::Comm M;
    if (Error E = wire::decode(R, M))
      return Malformed(E.message());
    Violation = Jobs.addComm(C.Rank, M, Now);
    break;
  }
  case wire::Type::Def:
    Violation = define(C, R);
    break;
  case wire::Type::Event:
    Violation = event(C, R);
    break;
  case wire::Type::Bye: {
    wire::Bye M;
    if (Error E = wire::decode(R, M))
      return Malformed(E.message());
    C.SaidBye = true;
    Jobs.bye(C.Rank, M);
    break;
  }
  case wire::Type::Beat: {
    wire::Beat M;
    if (Error E = wire::decode(R, M))
      return Malformed(E.message());
    Jobs.heartbeat(C.Rank, M, Now);
    break;
  }
  default:
    return Malformed("unexpected message type " + std::to_string(int(T)));
  }
  if (Violation)
    return Malformed(Violation.message());
  return Error::success();
}

Error Coordinator::hello(Connection &C, wire::Reader &R) {
  wire::Hello H;
  Error Decoded = wire::decode(R, H);
  std::string Refused = "refused the connection from " + C.Peer + ": ";
  if (Decoded)
    return Error(Refused + "malformed hello: " + Decoded.message());
  if (!wire::tokensEqual(H.Token, Token))
    return Error(Refused + "wrong job token");
  if (H.WorldSize != Jobs.worldSize() || H.Rank < 0 || H.Rank >= H.WorldSize)
    return Error(Refused + "rank " + std::to_string(H.Rank) + " of " + std::to_string(H.WorldSize) +
                 " does not fit this job of " + std::to_string(Jobs.worldSize()) + " ranks");
  C.Rank = H.Rank;
  C.ClockOffsetNs = int64_t(net::monotonicNs()) - int64_t(H.ClockNs);
  if (H.Role == wire::Role::Harness) {
    C.K = Connection::Role::Harness;
    return Error::success();
  }
  if (Jobs.ranks()[size_t(H.Rank)].Connected)
    return Error(Refused + "rank " + std::to_string(H.Rank) + " has already connected");
  C.K = Connection::Role::Rank;
  RankFds[size_t(H.Rank)] = C.Fd;
  Jobs.connected(H.Rank);
  ++Seen;
  return Error::success();
}

Error Coordinator::define(Connection &C, wire::Reader &R) {
  wire::Def D;
  if (Error E = wire::decode(R, D))
    return E;
  if (C.Functions.size() + C.Sites.size() + C.Texts.size() >= MaxDefinitions)
    return Error("too many definitions");
  switch (D.K) {
  case wire::DefKind::Function:
    if (D.Second.empty() || (D.Aux & ~(wire::HostBlocking | wire::NonblockingCall)))
      return Error("function definition without an operation or with unknown flags");
    C.Functions[D.Id] = Jobs.names().function({D.First, D.Second, D.Aux});
    return Error::success();
  case wire::DefKind::Site:
    C.Sites[D.Id] = Jobs.names().site({D.First, D.Second, D.Aux});
    return Error::success();
  case wire::DefKind::Datatype:
  case wire::DefKind::Op:
    C.Texts[uint64_t(D.K) << 32 | D.Id] = Jobs.names().text(D.First);
    return Error::success();
  }
  return Error("unknown definition");
}

Error Coordinator::event(Connection &C, wire::Reader &R) {
  wire::Event E;
  if (Error Decoded = wire::decode(R, E))
    return Decoded;
  auto Function = C.Functions.find(E.Func);
  auto Site = C.Sites.find(E.Site);
  if (Function == C.Functions.end() || Site == C.Sites.end())
    return Error("an event names an undefined function or call site");
  Call Out;
  Out.Seq = E.Seq;
  Out.Func = Function->second;
  Out.Site = Site->second;
  Out.Root = E.Root;
  Out.Count = E.Count;
  Out.Flags = E.Flags;
  for (auto [Id, Into, Kind] : {std::tuple{E.Datatype, &Out.Datatype, wire::DefKind::Datatype},
                                std::tuple{E.Op, &Out.Op, wire::DefKind::Op}}) {
    if (Id == wire::None)
      continue;
    auto It = C.Texts.find(uint64_t(Kind) << 32 | Id);
    if (It == C.Texts.end())
      return Error("an event names an undefined datatype or operator");
    *Into = It->second;
  }
  uint64_t Now = net::monotonicNs();
  Out.TimeNs = std::min<uint64_t>(Now, uint64_t(int64_t(E.TimeNs) + C.ClockOffsetNs));
  return Jobs.addCall(C.Rank, E.Comm, Out, Now);
}

void Coordinator::answer(const std::string &Key) {
  auto Value = Values.find(Key);
  if (Value == Values.end())
    return;
  // A failed write shows up as the connection's end on the next read.
  auto Frame = wire::frame(wire::Type::KvValue, wire::Kv{Key, Value->second});
  for (auto &[Fd, C] : Connections) {
    auto &W = C->WaitingFor;
    for (auto It = W.begin(); It != W.end();)
      if (*It == Key) {
        net::writeAll(Fd, Frame.data(), Frame.size(), 1000);
        It = W.erase(It);
      } else {
        ++It;
      }
  }
}

void Coordinator::close(Connection &C, const std::string &Why, bool Violation) {
  if (!Why.empty() && Warn && (Violation || !Stopped))
    Warn(Why);
  if (C.K == Connection::Role::Rank) {
    RankFds[size_t(C.Rank)] = -1;
    // A protocol violation makes the rank's reports worthless; a plain
    // close is the rank leaving.
    if (Violation)
      Jobs.untrack(C.Rank);
    else
      Jobs.departed(C.Rank, C.SaidBye, net::monotonicNs());
  }
  int Fd = C.Fd;
  ::close(Fd);
  Connections.erase(Fd);
}

void Coordinator::stopRanks(const std::string &Reason) {
  Stopped = true;
  auto Frame = wire::frame(wire::Stop{Reason});
  for (int Fd : RankFds)
    if (Fd >= 0)
      net::writeAll(Fd, Frame.data(), Frame.size(), 100);
}

int Coordinator::openRanks() const {
  int N = 0;
  for (int Fd : RankFds)
    N += Fd >= 0;
  return N;
}

} // namespace lockstep::run
