// The wire protocol between the interposer (one connection per rank) and
// the coordinator: length-prefixed binary frames, fixed-width little-endian
// fields, every field bounds-checked on read. docs/runtime.md documents it.
#pragma once

#include "Result.h"
#include <cstddef>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace lockstep::wire {

constexpr uint16_t ProtocolVersion = 2;
constexpr size_t TokenBytes = 32;      // raw; 64 hex characters in the environment
constexpr size_t MaxFrame = 64 * 1024; // payload bytes, type byte included
constexpr size_t MaxString = 4096;     // any string field
constexpr size_t MaxKvValue = 4096;    // a shared value (an NCCL unique id is 128 bytes)

/// Frame types. Rank to coordinator unless noted.
enum class Type : uint8_t {
  Hello = 1,   // first frame of every connection: the job token and who speaks
  Comm = 2,    // a communicator this rank belongs to
  Def = 3,     // names an id used by later events (function, datatype, op, site)
  Event = 4,   // one collective call
  Bye = 5,     // orderly exit: nothing follows
  KvPut = 6,   // harness: publish a value under a key
  KvGet = 7,   // harness: ask for a key's value (answered when it exists)
  KvValue = 8, // coordinator to harness: the value
  Stop = 9,    // coordinator to rank: the job diverged; exit now
  Beat = 10,   // heartbeat: what the rank has done, whatever its records' fate
};

enum class Role : uint8_t { Rank = 0, Harness = 1 };
enum class DefKind : uint8_t { Function = 1, Datatype = 2, Op = 3, Site = 4 };

/// The API a communicator belongs to (Comm::api).
enum class Api : uint8_t { Mpi = 1, Nccl = 2 };
/// The identity the interposer gives MPI_COMM_WORLD when it spans the job.
constexpr uint64_t MpiWorldId = 1;

/// Function flags (Def.aux of a Function).
constexpr uint64_t HostBlocking = 1;    // returns only when the collective completed
constexpr uint64_t NonblockingCall = 2; // an MPI_I* call: matches only its own kind

/// Event flags.
constexpr uint32_t InGroup = 1; // issued between ncclGroupStart and ncclGroupEnd

constexpr uint32_t None = 0xFFFFFFFFu; // absent datatype, op
constexpr int32_t NoRoot = -1;
constexpr int64_t NoCount = -1;

struct Hello {
  uint8_t Token[TokenBytes];
  uint16_t Version = ProtocolVersion;
  wire::Role Role = wire::Role::Rank;
  int32_t Rank = -1, WorldSize = 0;
  int32_t Pid = 0;
  uint64_t ClockNs = 0; // sender's CLOCK_MONOTONIC at hello
  std::string Host;
};

struct Comm {
  uint64_t Id = 0;
  uint32_t Size = 0, RankInComm = 0;
  uint64_t Parent = 0, ParentSeq = 0; // 0: created from no tracked parent
  uint8_t Api = 0;                    // an Api
};

struct Def {
  DefKind K = DefKind::Function;
  uint32_t Id = 0;
  uint64_t Aux = 0;          // function: flags; site: offset in the module
  std::string First, Second; // function: name, operation; site: module, symbol; else: name
};

struct Event {
  uint64_t Comm = 0, Seq = 0;
  uint32_t Func = 0, Datatype = None, Op = None;
  int32_t Root = NoRoot;
  int64_t Count = NoCount;
  uint32_t Site = 0, Flags = 0;
  uint64_t TimeNs = 0;
};

/// Bye flags.
constexpr uint8_t LeftMpiOpen = 1;   // MPI was initialized and not finalized
constexpr uint8_t MpiUnverified = 2; // MPI_COMM_WORLD did not span the job (no --mpi)

struct Bye {
  uint64_t Dropped = 0; // events lost because the ring was full
  uint8_t Flags = 0;
};

/// A heartbeat: the rank's own counts, sent every 100 ms and before a bye,
/// so that the coordinator sees where a rank is even when its records were
/// dropped.
struct Beat {
  uint64_t Dropped = 0; // records lost so far
  struct Lane {
    uint64_t Comm = 0;
    uint64_t Calls = 0;    // collectives called on it (the last sequence number)
    uint64_t Returned = 0; // of those, the ones that returned
  };
  std::vector<Lane> Lanes;
  static constexpr size_t MaxLanes = 2048; // fits a frame
};

struct Kv {
  std::string Key;
  std::vector<uint8_t> Value; // empty for KvGet
};

struct Stop {
  std::string Reason;
};

/// Appends one frame's fields to a buffer; finish() patches the length
/// prefix. Frames are appended in place: the sender encodes thousands per
/// millisecond.
class Writer {
public:
  Writer(std::vector<uint8_t> &Out, Type T);
  Writer &u8(uint8_t V) { return raw(&V, 1); }
  Writer &u16(uint16_t V) { return raw(&V, 2); }
  Writer &u32(uint32_t V) { return raw(&V, 4); }
  Writer &u64(uint64_t V) { return raw(&V, 8); }
  Writer &i32(int32_t V) { return raw(&V, 4); }
  Writer &i64(int64_t V) { return raw(&V, 8); }
  Writer &str(const std::string &S);         // u16 length + bytes
  Writer &bytes(const uint8_t *P, size_t N); // u16 length + bytes
  Writer &raw(const void *P, size_t N);
  /// Completes the frame: u32 length, type, payload.
  void finish();

private:
  std::vector<uint8_t> &Buf;
  size_t Start;
};

/// Reads fields from one frame's payload; any overrun or bad value sets
/// an error that names the field, and later reads return zero.
class Reader {
public:
  Reader(const uint8_t *P, size_t N) : Cur(P), End(P + N) {}
  uint8_t u8(const char *Field);
  uint16_t u16(const char *Field);
  uint32_t u32(const char *Field);
  uint64_t u64(const char *Field);
  int32_t i32(const char *Field);
  int64_t i64(const char *Field);
  std::string str(const char *Field, size_t Max = MaxString);
  std::vector<uint8_t> bytes(const char *Field, size_t Max);
  void raw(void *Out, size_t N, const char *Field);
  /// Fails unless every byte was consumed.
  void end();
  /// The first failure, or success.
  Error takeError() const { return Failure; }
  bool ok() const { return !Failure; }
  void fail(std::string Message);

private:
  bool take(size_t N, const char *Field);
  const uint8_t *Cur, *End;
  Error Failure = Error::success();
};

/// Encoders append one frame to \p Out.
void encode(const Hello &M, std::vector<uint8_t> &Out);
void encode(const Comm &M, std::vector<uint8_t> &Out);
void encode(const Def &M, std::vector<uint8_t> &Out);
void encode(const Event &M, std::vector<uint8_t> &Out);
void encode(const Bye &M, std::vector<uint8_t> &Out);
void encode(const Beat &M, std::vector<uint8_t> &Out);
void encode(Type T, const Kv &M, std::vector<uint8_t> &Out); // KvPut, KvGet or KvValue
void encode(const Stop &M, std::vector<uint8_t> &Out);

/// One message as a frame of its own.
template <class... M> std::vector<uint8_t> frame(const M &...Message) {
  std::vector<uint8_t> Out;
  encode(Message..., Out);
  return Out;
}

/// Decoders: a failure says what is wrong.
Error decode(Reader &R, Hello &M);
Error decode(Reader &R, Comm &M);
Error decode(Reader &R, Def &M);
Error decode(Reader &R, Event &M);
Error decode(Reader &R, Bye &M);
Error decode(Reader &R, Beat &M);
Error decode(Reader &R, Kv &M);
Error decode(Reader &R, Stop &M);

/// Splits a byte stream into frames. feed() appends received bytes; next()
/// returns true with a frame's type and payload while complete frames are
/// buffered. A length of zero or above MaxFrame is an error (the stream
/// cannot be resynchronised, so the connection must be dropped).
class FrameSplitter {
public:
  void feed(const uint8_t *P, size_t N) { Buf.insert(Buf.end(), P, P + N); }
  bool next(Type &T, std::vector<uint8_t> &Payload);
  /// The stream's failure, or success.
  Error takeError() const { return Failure; }
  bool pending() const { return !Buf.empty(); }

private:
  std::vector<uint8_t> Buf;
  size_t Pos = 0;
  Error Failure = Error::success();
};

/// Token helpers: 64 lowercase hex characters <-> 32 bytes.
std::string tokenToHex(const uint8_t (&Token)[TokenBytes]);
bool tokenFromHex(const std::string &Hex, uint8_t (&Token)[TokenBytes]);
/// Constant-time comparison, so a peer cannot learn the token byte by byte.
bool tokensEqual(const uint8_t (&A)[TokenBytes], const uint8_t (&B)[TokenBytes]);

} // namespace lockstep::wire
