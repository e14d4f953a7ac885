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
  E.Comm = 7;
  E.Seq = 42;
  E.Func = 3;
  E.Count = 1024;
  E.Root = 2;
  E.Flags = InGroup;
  Event Back;
  ASSERT_EQ(decodeFrame(frame(E), Type::Event, Back), "");
  EXPECT_EQ(Back.Seq, 42u);
  EXPECT_EQ(Back.Count, 1024);
  EXPECT_EQ(Back.Root, 2);
  EXPECT_EQ(Back.Flags, InGroup);
}

TEST(Wire, RefusesBadFields) {
  Event E;
  E.Seq = 0;
  Event Back;
  EXPECT_NE(decodeFrame(frame(E), Type::Event, Back).find("sequence number 0"), std::string::npos);
  Comm C;
  C.Id = 1;
  C.Size = 2;
  C.RankInComm = 2;
  C.Api = 1;
  Comm CB;
  EXPECT_NE(decodeFrame(frame(C), Type::Comm, CB).find("rank 2 in a communicator of size 2"),
            std::string::npos);
  Def D;
  D.First = "bad\x01name";
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
  B.Dropped = 7;
  B.Lanes = {{1, 10, 9}, {42, 3, 3}};
  Beat Back;
  ASSERT_EQ(decodeFrame(frame(B), Type::Beat, Back), "");
  EXPECT_EQ(Back.Dropped, 7u);
  ASSERT_EQ(Back.Lanes.size(), 2u);
  EXPECT_EQ(Back.Lanes[1].Comm, 42u);
  EXPECT_EQ(Back.Lanes[0].Returned, 9u);
  B.Lanes = {{1, 2, 3}};
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
  uint8_t A[TokenBytes], B[TokenBytes];
  for (size_t I = 0; I < TokenBytes; ++I)
    A[I] = uint8_t(I * 7);
  ASSERT_TRUE(tokenFromHex(tokenToHex(A), B));
  EXPECT_TRUE(tokensEqual(A, B));
  B[31] ^= 1;
  EXPECT_FALSE(tokensEqual(A, B));
  EXPECT_FALSE(tokenFromHex("abc", B));
  EXPECT_FALSE(tokenFromHex(std::string(64, 'G'), B));
}

} // namespace
