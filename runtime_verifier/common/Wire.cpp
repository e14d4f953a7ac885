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
  W.raw(M.Token, TokenBytes).u16(M.Version).u8(static_cast<uint8_t>(M.Role));
  W.i32(M.Rank).i32(M.WorldSize).i32(M.Pid).u64(M.ClockNs).str(M.Host);
  W.finish();
}

Error decode(Reader &R, Hello &M) {
  R.raw(M.Token, TokenBytes, "token");
  M.Version = R.u16("version");
  uint8_t Role = R.u8("role");
  M.Rank = R.i32("rank");
  M.WorldSize = R.i32("world_size");
  M.Pid = R.i32("pid");
  M.ClockNs = R.u64("clock");
  M.Host = R.str("host", 255);
  R.end();
  if (R.ok() && M.Version != ProtocolVersion)
    R.fail("protocol version " + std::to_string(M.Version) + ", expected " +
           std::to_string(ProtocolVersion));
  if (R.ok() && Role > static_cast<uint8_t>(Role::Harness))
    R.fail("unknown role " + std::to_string(Role));
  M.Role = static_cast<wire::Role>(Role);
  return R.takeError();
}

void encode(const Comm &M, std::vector<uint8_t> &Out) {
  Writer W(Out, Type::Comm);
  W.u64(M.Id).u32(M.Size).u32(M.RankInComm).u64(M.Parent).u64(M.ParentSeq).u8(M.Api);
  W.finish();
}

Error decode(Reader &R, Comm &M) {
  M.Id = R.u64("id");
  M.Size = R.u32("size");
  M.RankInComm = R.u32("rank_in_comm");
  M.Parent = R.u64("parent");
  M.ParentSeq = R.u64("parent_seq");
  M.Api = R.u8("api");
  R.end();
  if (R.ok() && (M.Size == 0 || M.RankInComm >= M.Size))
    R.fail("rank " + std::to_string(M.RankInComm) + " in a communicator of size " +
           std::to_string(M.Size));
  if (R.ok() && (M.Api < 1 || M.Api > 2))
    R.fail("unknown api " + std::to_string(M.Api));
  return R.takeError();
}

void encode(const Def &M, std::vector<uint8_t> &Out) {
  Writer W(Out, Type::Def);
  W.u8(static_cast<uint8_t>(M.K)).u32(M.Id).u64(M.Aux).str(M.First).str(M.Second);
  W.finish();
}

Error decode(Reader &R, Def &M) {
  uint8_t Kind = R.u8("kind");
  M.Id = R.u32("id");
  M.Aux = R.u64("aux");
  M.First = R.str("first");
  M.Second = R.str("second");
  R.end();
  if (R.ok() && (Kind < 1 || Kind > 4))
    R.fail("unknown definition kind " + std::to_string(Kind));
  M.K = static_cast<DefKind>(Kind);
  if (R.ok() && M.First.empty())
    R.fail("empty name in a definition");
  return R.takeError();
}

void encode(const Event &M, std::vector<uint8_t> &Out) {
  Writer W(Out, Type::Event);
  W.u64(M.Comm).u64(M.Seq).u32(M.Func).u32(M.Datatype).u32(M.Op).i32(M.Root);
  W.i64(M.Count).u32(M.Site).u32(M.Flags).u64(M.TimeNs);
  W.finish();
}

Error decode(Reader &R, Event &M) {
  M.Comm = R.u64("comm");
  M.Seq = R.u64("seq");
  M.Func = R.u32("func");
  M.Datatype = R.u32("datatype");
  M.Op = R.u32("op");
  M.Root = R.i32("root");
  M.Count = R.i64("count");
  M.Site = R.u32("site");
  M.Flags = R.u32("flags");
  M.TimeNs = R.u64("time");
  R.end();
  if (R.ok() && M.Seq == 0)
    R.fail("sequence number 0 (they start at 1)");
  if (R.ok() && M.Root < NoRoot)
    R.fail("negative root " + std::to_string(M.Root));
  if (R.ok() && M.Count < NoCount)
    R.fail("negative count " + std::to_string(M.Count));
  if (R.ok() && (M.Flags & ~InGroup))
    R.fail("unknown event flags");
  return R.takeError();
}

void encode(const Bye &M, std::vector<uint8_t> &Out) {
  Writer W(Out, Type::Bye);
  W.u64(M.Dropped).u8(M.Flags);
  W.finish();
}

Error decode(Reader &R, Bye &M) {
  M.Dropped = R.u64("dropped");
  M.Flags = R.u8("flags");
  R.end();
  if (R.ok() && (M.Flags & ~(LeftMpiOpen | MpiUnverified)))
    R.fail("unknown bye flags");
  return R.takeError();
}

void encode(const Beat &M, std::vector<uint8_t> &Out) {
  Writer W(Out, Type::Beat);
  size_t N = std::min(M.Lanes.size(), Beat::MaxLanes);
  W.u64(M.Dropped).u32(uint32_t(N));
  for (size_t I = 0; I < N; ++I)
    W.u64(M.Lanes[I].Comm).u64(M.Lanes[I].Calls).u64(M.Lanes[I].Returned);
  W.finish();
}

Error decode(Reader &R, Beat &M) {
  M.Dropped = R.u64("dropped");
  uint32_t N = R.u32("lanes");
  M.Lanes.clear();
  if (R.ok() && N > Beat::MaxLanes)
    R.fail(std::to_string(N) + " lanes in a heartbeat (at most " + std::to_string(Beat::MaxLanes) +
           ")");
  for (uint32_t I = 0; R.ok() && I < N; ++I) {
    Beat::Lane L;
    L.Comm = R.u64("comm");
    L.Calls = R.u64("calls");
    L.Returned = R.u64("returned");
    if (R.ok() && L.Returned > L.Calls)
      R.fail("more calls returned than made");
    M.Lanes.push_back(L);
  }
  R.end();
  return R.takeError();
}

void encode(Type T, const Kv &M, std::vector<uint8_t> &Out) {
  Writer W(Out, T);
  W.str(M.Key).bytes(M.Value.data(), M.Value.size());
  W.finish();
}

Error decode(Reader &R, Kv &M) {
  M.Key = R.str("key", 255);
  M.Value = R.bytes("value", MaxKvValue);
  R.end();
  if (R.ok() && M.Key.empty())
    R.fail("empty key");
  return R.takeError();
}

void encode(const Stop &M, std::vector<uint8_t> &Out) {
  Writer W(Out, Type::Stop);
  W.str(M.Reason.substr(0, MaxString));
  W.finish();
}

Error decode(Reader &R, Stop &M) {
  M.Reason = R.str("reason");
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
  if (Length == 0 || Length > MaxFrame) {
    Failure =
        Error("frame length " + std::to_string(Length) + " outside 1.." + std::to_string(MaxFrame));
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

std::string tokenToHex(const uint8_t (&Token)[TokenBytes]) {
  std::string S;
  char Hex[3];
  for (uint8_t B : Token) {
    std::snprintf(Hex, sizeof Hex, "%02x", B);
    S += Hex;
  }
  return S;
}

bool tokenFromHex(const std::string &Hex, uint8_t (&Token)[TokenBytes]) {
  if (Hex.size() != 2 * TokenBytes)
    return false;
  auto Nibble = [](char C) -> int {
    if (C >= '0' && C <= '9')
      return C - '0';
    if (C >= 'a' && C <= 'f')
      return C - 'a' + 10;
    return -1;
  };
  for (size_t I = 0; I < TokenBytes; ++I) {
    int Hi = Nibble(Hex[2 * I]), Lo = Nibble(Hex[2 * I + 1]);
    if (Hi < 0 || Lo < 0)
      return false;
    Token[I] = static_cast<uint8_t>(Hi << 4 | Lo);
  }
  return true;
}

bool tokensEqual(const uint8_t (&A)[TokenBytes], const uint8_t (&B)[TokenBytes]) {
  uint8_t Diff = 0;
  for (size_t I = 0; I < TokenBytes; ++I)
    Diff |= A[I] ^ B[I];
  return Diff == 0;
}

} // namespace lockstep::wire
