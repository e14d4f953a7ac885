// The wire format: round trips, and every malformed input refused with a
// reason instead of a crash.
#include "Wire.h"
#include "../../unit/ErrorText.h"

#include <gtest/gtest.h>

using namespace lockstep::wire;

namespace {

template <class M>
std::string decodeFrame(const std::vector<uint8_t> &Frame, Type Expected, M &Out) {
  FrameSplitter S;
  S.feed(Frame.data(), Frame.size());
  Type T;
  std::vector<uint8_t> Payload;
  if (!S.next(T, Payload))
    return "no frame: " + errorText(S.takeError());
  EXPECT_EQ(T, Expected);
  Reader R(Payload.data(), Payload.size());
  return errorText(decode(R, Out));
}

TEST(Wire, EventRoundTrip) {
  Event E;
  E.comm = 7;
  E.seq = 42;
  E.func = 3;
  E.count = 1024;
  E.root = 2;
  E.flags = kInGroup;
  Event Back;
  ASSERT_EQ(decodeFrame(frame(E), Type::Event, Back), "");
  EXPECT_EQ(Back.seq, 42u);
  EXPECT_EQ(Back.count, 1024);
  EXPECT_EQ(Back.root, 2);
  EXPECT_EQ(Back.flags, kInGroup);
}

TEST(Wire, RefusesBadFields) {
  Event E;
  E.seq = 0;
  Event Back;
  EXPECT_NE(decodeFrame(frame(E), Type::Event, Back).find("sequence number 0"), std::string::npos);
  Comm C;
  C.id = 1;
  C.size = 2;
  C.rankInComm = 2;
  C.api = 1;
  Comm CB;
  EXPECT_NE(decodeFrame(frame(C), Type::Comm, CB).find("rank 2 in a communicator of size 2"),
            std::string::npos);
  Def D;
  D.first = "bad\x01name";
  Def DB;
  EXPECT_NE(decodeFrame(frame(D), Type::Def, DB).find("control character"), std::string::npos);
}

TEST(Wire, RefusesTruncatedAndTrailing) {
  std::vector<uint8_t> F = frame(Bye{5});
  uint8_t Extra = 0;
  std::vector<uint8_t> Payload(F.begin() + 5, F.end());
  Payload.push_back(Extra);
  Reader Long(Payload.data(), Payload.size());
  Bye B;
  EXPECT_NE(errorText(decode(Long, B)).find("trailing"), std::string::npos);
  Reader Short(Payload.data(), 3);
  EXPECT_NE(errorText(decode(Short, B)).find("truncated field 'dropped'"), std::string::npos);
}

TEST(Wire, HeartbeatRoundTrip) {
  Beat B;
  B.dropped = 7;
  B.lanes = {{1, 10, 9}, {42, 3, 3}};
  Beat Back;
  ASSERT_EQ(decodeFrame(frame(B), Type::Beat, Back), "");
  EXPECT_EQ(Back.dropped, 7u);
  ASSERT_EQ(Back.lanes.size(), 2u);
  EXPECT_EQ(Back.lanes[1].comm, 42u);
  EXPECT_EQ(Back.lanes[0].returned, 9u);
  B.lanes = {{1, 2, 3}};
  EXPECT_NE(decodeFrame(frame(B), Type::Beat, Back).find("more calls returned"), std::string::npos);
}

TEST(Wire, SplitterRefusesOversizedFrames) {
  FrameSplitter S;
  const uint8_t Huge[] = {0xff, 0xff, 0xff, 0x7f, 1};
  S.feed(Huge, sizeof Huge);
  Type T;
  std::vector<uint8_t> P;
  EXPECT_FALSE(S.next(T, P));
  EXPECT_NE(errorText(S.takeError()).find("frame length"), std::string::npos);
}

TEST(Wire, SplitterReassemblesBytes) {
  std::vector<uint8_t> Stream = frame(Bye{1});
  std::vector<uint8_t> Second = frame(Bye{2});
  Stream.insert(Stream.end(), Second.begin(), Second.end());
  FrameSplitter S;
  int Frames = 0;
  for (uint8_t Byte : Stream) { // one byte at a time, as TCP may deliver it
    S.feed(&Byte, 1);
    Type T;
    std::vector<uint8_t> P;
    while (S.next(T, P))
      ++Frames;
  }
  EXPECT_EQ(Frames, 2);
}

TEST(Wire, Tokens) {
  uint8_t A[kTokenBytes], B[kTokenBytes];
  for (size_t I = 0; I < kTokenBytes; ++I)
    A[I] = uint8_t(I * 7);
  ASSERT_TRUE(tokenFromHex(tokenToHex(A), B));
  EXPECT_TRUE(tokensEqual(A, B));
  B[31] ^= 1;
  EXPECT_FALSE(tokensEqual(A, B));
  EXPECT_FALSE(tokenFromHex("abc", B));
  EXPECT_FALSE(tokenFromHex(std::string(64, 'G'), B));
}

} // namespace
