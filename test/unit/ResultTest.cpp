// The result types of common/support/Result.h: an Error is true exactly when
// it failed and keeps its message; an Expected holds its value or the Error
// that prevented it, and passes that Error on.
#include "Result.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

using lockstep::Error;
using lockstep::Expected;

namespace {

Error failIf(bool Fail) {
  if (Fail)
    return Error("cannot do it");
  return Error::success();
}

Expected<int> parsePositive(int Value) {
  if (Value <= 0)
    return Error("'" + std::to_string(Value) + "' is not positive");
  return Value;
}

/// Passes the failure of parsePositive on, as callers do.
Error doubled(int Value, int &Out) {
  Expected<int> Parsed = parsePositive(Value);
  if (!Parsed)
    return Parsed.takeError();
  Out = *Parsed * 2;
  return Error::success();
}

TEST(Result, SuccessIsFalse) {
  EXPECT_FALSE(Error::success());
  EXPECT_FALSE(failIf(false));
}

TEST(Result, FailureIsTrueAndKeepsItsMessage) {
  Error E = failIf(true);
  ASSERT_TRUE(E);
  EXPECT_EQ(E.message(), "cannot do it");
  // An empty message is still a failure: only success() is success.
  EXPECT_TRUE(Error(""));
}

TEST(Result, FirstFailureWinsWhenKept) {
  Error First = Error::success();
  for (bool Fail : {false, true, true})
    if (!First)
      First = Fail ? Error(std::string("failure ") + (First ? "again" : "one")) : Error::success();
  ASSERT_TRUE(First);
  EXPECT_EQ(First.message(), "failure one");
}

TEST(Result, ExpectedHoldsTheValue) {
  Expected<int> Value = parsePositive(4);
  ASSERT_TRUE(Value);
  EXPECT_EQ(*Value, 4);
  EXPECT_FALSE(Value.takeError());
}

TEST(Result, ExpectedHoldsTheError) {
  Expected<int> Value = parsePositive(-1);
  ASSERT_FALSE(Value);
  Error E = Value.takeError();
  ASSERT_TRUE(E);
  EXPECT_EQ(E.message(), "'-1' is not positive");
}

TEST(Result, ErrorsPassThrough) {
  int Out = 0;
  EXPECT_FALSE(doubled(3, Out));
  EXPECT_EQ(Out, 6);
  Error E = doubled(0, Out);
  ASSERT_TRUE(E);
  EXPECT_EQ(E.message(), "'0' is not positive");
  EXPECT_EQ(Out, 6) << "a failure leaves the output alone";
}

// Expected<bool> is true when it holds a value, whatever the value: the
// value is read with *.
TEST(Result, ExpectedBoolTestsPresenceNotValue) {
  Expected<bool> No = false;
  ASSERT_TRUE(No);
  EXPECT_FALSE(*No);
}

TEST(Result, ExpectedOfStringIsNotAnError) {
  // A string converts to the value, never to an Error.
  Expected<std::string> Text = std::string("text");
  ASSERT_TRUE(Text);
  EXPECT_EQ(*Text, "text");
  EXPECT_EQ(Text->size(), 4u);
}

TEST(Result, ExpectedMovesItsValue) {
  Expected<std::unique_ptr<int>> Owned = std::make_unique<int>(7);
  ASSERT_TRUE(Owned);
  std::unique_ptr<int> Taken = std::move(*Owned);
  EXPECT_EQ(*Taken, 7);
}

} // namespace
