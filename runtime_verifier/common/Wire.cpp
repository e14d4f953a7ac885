#include "Wire.h"

#include <algorithm>
#include <cstdio>

namespace lockstep::wire {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the wire format is little-endian and copies integers as they are");

Writer::Writer(std::vector<uint8_t> &Out, Type T) : Buf(Out), Start(Out.size()) {
  Buf.resize(Start + 4);
  Buf.push_back(static_cast<uint8_t>(T));
}

Writer &Writer::raw(const void *P, size_t N) {
  const auto *B = static_cast<const uint8_t *>(P);
  Buf.insert(Buf.end(), B, B + N);
  return *this;
}

Writer &Writer::str(const std::string &S) {
  return bytes(reinterpret_cast<const uint8_t *>(S.data()), S.size());
}

Writer &Writer::bytes(const uint8_t *P, size_t N) {
  if (N > 0xFFFF)
    N = 0xFFFF; // callers bound their strings well below this
  u16(static_cast<uint16_t>(N));
  return raw(P, N);
}

void Writer::finish() {
  uint32_t Length = static_cast<uint32_t>(Buf.size() - Start - 4);
  std::memcpy(Buf.data() + Start, &Length, 4);
}

void Reader::fail(std::string Message) {
  if (!Failure)
    Failure = Error(std::move(Message));
  Cur = End;
}

bool Reader::take(size_t N, const char *Field) {
  if (Failure)
    return false;
  if (static_cast<size_t>(End - Cur) < N) {
    fail(std::string("truncated field '") + Field + "'");
    return false;
  }
  return true;
}

void Reader::raw(void *Out, size_t N, const char *Field) {
  if (!take(N, Field)) {
    std::memset(Out, 0, N);
    return;
  }
  std::memcpy(Out, Cur, N);
  Cur += N;
}

#define LOCKSTEP_READ(NAME, TYPE)                                                                  \
  TYPE Reader::NAME(const char *Field) {                                                           \
    TYPE V;                                                                                        \
    raw(&V, sizeof V, Field);                                                                      \
    return V;                                                                                      \
  }
LOCKSTEP_READ(u8, uint8_t)
LOCKSTEP_READ(u16, uint16_t)
LOCKSTEP_READ(u32, uint32_t)
LOCKSTEP_READ(u64, uint64_t)
LOCKSTEP_READ(i32, int32_t)
LOCKSTEP_READ(i64, int64_t)
#undef LOCKSTEP_READ

std::vector<uint8_t> Reader::bytes(const char *Field, size_t Max) {
  uint16_t N = u16(Field);
  if (N > Max) {
    fail(std::string("field '") + Field + "' is " + std::to_string(N) + " bytes long; at most " +
         std::to_string(Max) + " allowed");
    return {};
  }
  if (!take(N, Field))
    return {};
  std::vector<uint8_t> V(Cur, Cur + N);
  Cur += N;
  return V;
}

std::string Reader::str(const char *Field, size_t Max) {
  std::vector<uint8_t> B = bytes(Field, Max);
  for (uint8_t C : B)
    if (C < 0x20 || C == 0x7F) { // printable only: these strings reach terminals
      fail(std::string("field '") + Field + "' holds a control character");
      return {};
    }
  return std::string(B.begin(), B.end());
}

void Reader::end() {
  if (!Failure && Cur != End)
    fail(std::to_string(End - Cur) + " unexpected trailing bytes");
}

void encode(const Hello &M, std::vector<uint8_t> &Out) {
  Writer W(Out, Type::Hello);
  W.raw(M.token, kTokenBytes).u16(M.version).u8(static_cast<uint8_t>(M.role));
  W.i32(M.rank).i32(M.worldSize).i32(M.pid).u64(M.clockNs).str(M.host);
  W.finish();
}

Error decode(Reader &R, Hello &M) {
  R.raw(M.token, kTokenBytes, "token");
  M.version = R.u16("version");
  uint8_t Role = R.u8("role");
  M.rank = R.i32("rank");
  M.worldSize = R.i32("world_size");
  M.pid = R.i32("pid");
  M.clockNs = R.u64("clock");
  M.host = R.str("host", 255);
  R.end();
  if (R.ok() && M.version != kVersion)
    R.fail("protocol version " + std::to_string(M.version) + ", expected " +
           std::to_string(kVersion));
  if (R.ok() && Role > static_cast<uint8_t>(Role::Harness))
    R.fail("unknown role " + std::to_string(Role));
  M.role = static_cast<wire::Role>(Role);
  return R.takeError();
}

void encode(const Comm &M, std::vector<uint8_t> &Out) {
  Writer W(Out, Type::Comm);
  W.u64(M.id).u32(M.size).u32(M.rankInComm).u64(M.parent).u64(M.parentSeq).u8(M.api);
  W.finish();
}

Error decode(Reader &R, Comm &M) {
  M.id = R.u64("id");
  M.size = R.u32("size");
  M.rankInComm = R.u32("rank_in_comm");
  M.parent = R.u64("parent");
  M.parentSeq = R.u64("parent_seq");
  M.api = R.u8("api");
  R.end();
  if (R.ok() && (M.size == 0 || M.rankInComm >= M.size))
    R.fail("rank " + std::to_string(M.rankInComm) + " in a communicator of size " +
           std::to_string(M.size));
  if (R.ok() && (M.api < 1 || M.api > 2))
    R.fail("unknown api " + std::to_string(M.api));
  return R.takeError();
}

void encode(const Def &M, std::vector<uint8_t> &Out) {
  Writer W(Out, Type::Def);
  W.u8(static_cast<uint8_t>(M.kind)).u32(M.id).u64(M.aux).str(M.first).str(M.second);
  W.finish();
}

Error decode(Reader &R, Def &M) {
  uint8_t Kind = R.u8("kind");
  M.id = R.u32("id");
  M.aux = R.u64("aux");
  M.first = R.str("first");
  M.second = R.str("second");
  R.end();
  if (R.ok() && (Kind < 1 || Kind > 4))
    R.fail("unknown definition kind " + std::to_string(Kind));
  M.kind = static_cast<DefKind>(Kind);
  if (R.ok() && M.first.empty())
    R.fail("empty name in a definition");
  return R.takeError();
}

void encode(const Event &M, std::vector<uint8_t> &Out) {
  Writer W(Out, Type::Event);
  W.u64(M.comm).u64(M.seq).u32(M.func).u32(M.datatype).u32(M.op).i32(M.root);
  W.i64(M.count).u32(M.site).u32(M.flags).u64(M.timeNs);
  W.finish();
}

Error decode(Reader &R, Event &M) {
  M.comm = R.u64("comm");
  M.seq = R.u64("seq");
  M.func = R.u32("func");
  M.datatype = R.u32("datatype");
  M.op = R.u32("op");
  M.root = R.i32("root");
  M.count = R.i64("count");
  M.site = R.u32("site");
  M.flags = R.u32("flags");
  M.timeNs = R.u64("time");
  R.end();
  if (R.ok() && M.seq == 0)
    R.fail("sequence number 0 (they start at 1)");
  if (R.ok() && M.root < kNoRoot)
    R.fail("negative root " + std::to_string(M.root));
  if (R.ok() && M.count < kNoCount)
    R.fail("negative count " + std::to_string(M.count));
  if (R.ok() && (M.flags & ~kInGroup))
    R.fail("unknown event flags");
  return R.takeError();
}

void encode(const Bye &M, std::vector<uint8_t> &Out) {
  Writer W(Out, Type::Bye);
  W.u64(M.dropped).u8(M.flags);
  W.finish();
}

Error decode(Reader &R, Bye &M) {
  M.dropped = R.u64("dropped");
  M.flags = R.u8("flags");
  R.end();
  if (R.ok() && (M.flags & ~(kLeftMpiOpen | kMpiUnverified)))
    R.fail("unknown bye flags");
  return R.takeError();
}

void encode(const Beat &M, std::vector<uint8_t> &Out) {
  Writer W(Out, Type::Beat);
  size_t N = std::min(M.lanes.size(), Beat::kMaxLanes);
  W.u64(M.dropped).u32(uint32_t(N));
  for (size_t I = 0; I < N; ++I)
    W.u64(M.lanes[I].comm).u64(M.lanes[I].calls).u64(M.lanes[I].returned);
  W.finish();
}

Error decode(Reader &R, Beat &M) {
  M.dropped = R.u64("dropped");
  uint32_t N = R.u32("lanes");
  M.lanes.clear();
  if (R.ok() && N > Beat::kMaxLanes)
    R.fail(std::to_string(N) + " lanes in a heartbeat (at most " + std::to_string(Beat::kMaxLanes) +
           ")");
  for (uint32_t I = 0; R.ok() && I < N; ++I) {
    Beat::Lane L;
    L.comm = R.u64("comm");
    L.calls = R.u64("calls");
    L.returned = R.u64("returned");
    if (R.ok() && L.returned > L.calls)
      R.fail("more calls returned than made");
    M.lanes.push_back(L);
  }
  R.end();
  return R.takeError();
}

void encode(Type T, const Kv &M, std::vector<uint8_t> &Out) {
  Writer W(Out, T);
  W.str(M.key).bytes(M.value.data(), M.value.size());
  W.finish();
}

Error decode(Reader &R, Kv &M) {
  M.key = R.str("key", 255);
  M.value = R.bytes("value", kMaxKvValue);
  R.end();
  if (R.ok() && M.key.empty())
    R.fail("empty key");
  return R.takeError();
}

void encode(const Stop &M, std::vector<uint8_t> &Out) {
  Writer W(Out, Type::Stop);
  W.str(M.reason.substr(0, kMaxString));
  W.finish();
}

Error decode(Reader &R, Stop &M) {
  M.reason = R.str("reason");
  R.end();
  return R.takeError();
}

bool FrameSplitter::next(Type &T, std::vector<uint8_t> &Payload) {
  if (Failure)
    return false;
  size_t Avail = Buf.size() - Pos;
  if (Avail < 4)
    return false;
  uint32_t Length;
  std::memcpy(&Length, Buf.data() + Pos, 4);
  if (Length == 0 || Length > kMaxFrame) {
    Failure = Error("frame length " + std::to_string(Length) + " outside 1.." +
                    std::to_string(kMaxFrame));
    return false;
  }
  if (Avail < 4 + size_t(Length))
    return false;
  T = static_cast<Type>(Buf[Pos + 4]);
  Payload.assign(Buf.begin() + Pos + 5, Buf.begin() + Pos + 4 + Length);
  Pos += 4 + Length;
  if (Pos == Buf.size()) {
    Buf.clear();
    Pos = 0;
  } else if (Pos > 64 << 10) { // compact now and then, not on every frame; bounded per connection
    Buf.erase(Buf.begin(), Buf.begin() + Pos);
    Pos = 0;
  }
  return true;
}

std::string tokenToHex(const uint8_t (&Token)[kTokenBytes]) {
  std::string S;
  char Hex[3];
  for (uint8_t B : Token) {
    std::snprintf(Hex, sizeof Hex, "%02x", B);
    S += Hex;
  }
  return S;
}

bool tokenFromHex(const std::string &Hex, uint8_t (&Token)[kTokenBytes]) {
  if (Hex.size() != 2 * kTokenBytes)
    return false;
  auto Nibble = [](char C) -> int {
    if (C >= '0' && C <= '9')
      return C - '0';
    if (C >= 'a' && C <= 'f')
      return C - 'a' + 10;
    return -1;
  };
  for (size_t I = 0; I < kTokenBytes; ++I) {
    int Hi = Nibble(Hex[2 * I]), Lo = Nibble(Hex[2 * I + 1]);
    if (Hi < 0 || Lo < 0)
      return false;
    Token[I] = static_cast<uint8_t>(Hi << 4 | Lo);
  }
  return true;
}

bool tokensEqual(const uint8_t (&A)[kTokenBytes], const uint8_t (&B)[kTokenBytes]) {
  uint8_t Diff = 0;
  for (size_t I = 0; I < kTokenBytes; ++I)
    Diff |= A[I] ^ B[I];
  return Diff == 0;
}

} // namespace lockstep::wire
