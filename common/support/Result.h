// How lockstep reports failure: a function that can fail returns an Error
// (success, or a message ready for the user), or an Expected<T> when it also
// produces a value. In the spirit of llvm::Error and llvm::Expected, without
// their must-check runtime machinery: [[nodiscard]] catches a dropped result,
// and the runtime verifier, which builds without LLVM, uses the same types.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace lockstep {

/// Success, or a failure with its message. Converts to true on failure, so
/// that `if (Error E = f()) return E;` passes the failure on.
class [[nodiscard]] Error {
public:
  /// A failure worded \p Message (lowercase, no final period).
  explicit Error(std::string Message) : Message(std::move(Message)) {}

  static Error success() { return Error(); }

  explicit operator bool() const { return Message.has_value(); }

  /// The failure's message; only for a failure.
  const std::string &message() const {
    assert(Message && "the message of a success");
    return *Message;
  }

private:
  Error() = default;

  std::optional<std::string> Message;
};

/// A value, or the Error that prevented it. Converts to true when it holds
/// the value.
template <class T> class [[nodiscard]] Expected {
public:
  Expected(T Value) : Storage(std::in_place_index<0>, std::move(Value)) {}
  Expected(Error E) : Storage(std::in_place_index<1>, std::move(E)) {
    assert(std::get<1>(Storage) && "an Expected made from a success");
  }

  explicit operator bool() const { return Storage.index() == 0; }

  T &operator*() { return std::get<0>(Storage); }
  const T &operator*() const { return std::get<0>(Storage); }
  T *operator->() { return &std::get<0>(Storage); }
  const T *operator->() const { return &std::get<0>(Storage); }

  /// The failure, or success when this holds the value.
  Error takeError() const { return *this ? Error::success() : std::get<1>(Storage); }

private:
  std::variant<T, Error> Storage;
};

} // namespace lockstep
