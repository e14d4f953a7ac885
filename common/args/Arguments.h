// How every `lockstep` subcommand reads its arguments: an option that takes
// a value accepts "--name VALUE" and "--name=VALUE", and the same problem is
// worded the same whichever subcommand meets it. No LLVM: `lockstep run`
// builds without it.
#pragma once

#include "Result.h"

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace lockstep::args {

/// The value of an option that takes one ("--jobs 4" or "--jobs=4"): true
/// when Args[I] is \p Name (advancing \p I past a separate value); fails
/// when the value is missing.
Expected<bool> optionValue(const std::vector<std::string> &Args, size_t &I, const std::string &Name,
                           std::string &Value);

/// optionValue() for each (name, value) of \p Options in turn: true when
/// Args[I] is one of them.
Expected<bool>
anyOptionValue(const std::vector<std::string> &Args, size_t &I,
               std::initializer_list<std::pair<const char *, std::string *>> Options);

/// The error for an argument that looks like an option but is none.
Error unknownOption(const std::string &Arg);

/// What reading a command line gave: go on, show the help, or stop with the
/// first error.
class ParseResult {
public:
  static ParseResult ok() { return ParseResult(Kind::Ok, ""); }
  static ParseResult help() { return ParseResult(Kind::Help, ""); }
  static ParseResult error(std::string Message) {
    return ParseResult(Kind::Error, std::move(Message));
  }

  bool isOk() const { return K == Kind::Ok; }
  bool isHelp() const { return K == Kind::Help; }
  const std::string &message() const { return Message; }

private:
  enum class Kind { Ok, Help, Error };
  ParseResult(Kind K, std::string Message) : K(K), Message(std::move(Message)) {}

  Kind K;
  std::string Message;
};

} // namespace lockstep::args
