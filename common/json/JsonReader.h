// Strict reading of JSON objects: a closed set of keys, typed fields, and the
// first error with its full context ("file: section[2] ('name'): key 'k':
// msg"). Shared by the rules loader, the summary file and the findings JSON;
// no Clang here.
#pragma once

#include "Result.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace lockstep::json_reader {

using nlohmann::json;

inline const char *typeName(const json &Value) {
  switch (Value.type()) {
  case json::value_t::null:
    return "null";
  case json::value_t::object:
    return "an object";
  case json::value_t::array:
    return "an array";
  case json::value_t::string:
    return "a string";
  case json::value_t::boolean:
    return "a boolean";
  case json::value_t::number_integer:
  case json::value_t::number_unsigned:
    return "an integer";
  case json::value_t::number_float:
    return "a number";
  default:
    return "an unsupported value";
  }
}

/// What was found, for an error: the value itself when it is a scalar.
inline std::string found(const json &Value) {
  if (Value.is_number() || Value.is_boolean() || Value.is_null())
    return Value.dump();
  return typeName(Value);
}

/// Validates one JSON object against a closed set of keys and converts its
/// fields: each reading method returns false on failure, and the first
/// failure, with the full context, is kept for takeError().
class Reader {
public:
  Reader(const json &Object, std::string Context) : Object(Object), Context(std::move(Context)) {}

  /// Rejects keys outside \p Allowed. Must be called before reading fields.
  bool onlyKeys(std::initializer_list<const char *> Allowed) {
    if (!Object.is_object())
      return fail("", std::string("expected an object, found ") + typeName(Object));
    std::set<std::string> Known(Allowed.begin(), Allowed.end());
    for (const auto &Item : Object.items())
      if (!Known.count(Item.key()))
        return fail(Item.key(), "unknown key");
    return true;
  }

  bool has(const char *Key) const { return Object.contains(Key); }

  bool string(const char *Key, std::string &Out, bool Required = true) {
    if (!present(Key, Required))
      return ok();
    const json &V = Object.at(Key);
    if (!V.is_string())
      return fail(Key, std::string("expected a string, found ") + typeName(V));
    Out = V.get<std::string>();
    if (Out.empty())
      return fail(Key, "expected a non-empty string");
    return true;
  }

  bool boolean(const char *Key, bool &Out) {
    if (!present(Key, false))
      return ok();
    const json &V = Object.at(Key);
    if (!V.is_boolean())
      return fail(Key, std::string("expected true or false, found ") + typeName(V));
    Out = V.get<bool>();
    return true;
  }

  bool index(const char *Key, std::optional<unsigned> &Out) {
    if (!present(Key, false))
      return ok();
    const json &V = Object.at(Key);
    if (!V.is_number_unsigned() || V.get<unsigned long long>() > 64)
      return fail(Key, std::string("expected an argument index from 0 to 64, found ") +
                           (V.is_number() ? V.dump() : typeName(V)));
    Out = V.get<unsigned>();
    return true;
  }

  bool indexList(const char *Key, std::vector<unsigned> &Out) {
    if (!present(Key, false))
      return ok();
    const json &V = Object.at(Key);
    if (!V.is_array())
      return fail(Key, std::string("expected an array of argument indices, found ") + typeName(V));
    for (const json &Item : V) {
      if (!Item.is_number_unsigned() || Item.get<unsigned long long>() > 64)
        return fail(Key, "expected argument indices from 0 to 64, found " + Item.dump());
      Out.push_back(Item.get<unsigned>());
    }
    return true;
  }

  bool stringList(const char *Key, std::vector<std::string> &Out) {
    if (!present(Key, false))
      return ok();
    const json &V = Object.at(Key);
    if (!V.is_array())
      return fail(Key, std::string("expected an array of strings, found ") + typeName(V));
    for (const json &Item : V) {
      if (!Item.is_string() || Item.get<std::string>().empty())
        return fail(Key, "expected non-empty strings, found " + Item.dump());
      Out.push_back(Item.get<std::string>());
    }
    return true;
  }

  /// A required string that may be empty (a finding's function, unknown).
  bool text(const char *Key, std::string &Out) {
    const json *V = require(Key);
    if (!V)
      return false;
    if (!V->is_string())
      return fail(Key, "expected a string, found " + found(*V));
    Out = V->get<std::string>();
    return true;
  }

  /// An integer from \p Minimum that fits an unsigned (a line, a column).
  bool count(const char *Key, unsigned &Out, unsigned Minimum = 0) {
    const json *V = require(Key);
    if (!V)
      return false;
    if (!V->is_number_unsigned() || V->get<unsigned long long>() < Minimum ||
        V->get<unsigned long long>() > ~0u)
      return fail(Key, "expected an integer from " + std::to_string(Minimum) + " to " +
                           std::to_string(~0u) + ", found " + found(*V));
    Out = V->get<unsigned>();
    return true;
  }

  /// The value of a required key of any type, or null (and the error).
  const json *require(const char *Key) { return present(Key, true) ? &Object.at(Key) : nullptr; }

  /// A required array, or null (and the error).
  const json *array(const char *Key) {
    return typed(Key, require(Key), &json::is_array, "an array");
  }

  /// A required object, or null (and the error).
  const json *object(const char *Key) {
    return typed(Key, require(Key), &json::is_object, "an object");
  }

  /// The raw value of a present key, for readers of their own formats.
  const json &at(const char *Key) const { return Object.at(Key); }

  /// Records \p Message about \p Key (the object itself when empty), unless
  /// a failure came first; false, for the reading methods.
  bool fail(const std::string &Key, const std::string &Message) {
    if (!Failure)
      Failure = Error(Context + (Key.empty() ? "" : ": key '" + Key + "'") + ": " + Message);
    return false;
  }

  /// fail(), for a function that returns the failure.
  Error failure(const std::string &Key, const std::string &Message) {
    fail(Key, Message);
    return Failure;
  }

  /// The first failure, or success.
  Error takeError() const { return Failure; }

private:
  const json *typed(const char *Key, const json *V, bool (json::*Is)() const noexcept,
                    const char *What) {
    if (V && !(V->*Is)()) {
      fail(Key, std::string("expected ") + What + ", found " + found(*V));
      return nullptr;
    }
    return V;
  }
  bool present(const char *Key, bool Required) {
    if (Object.contains(Key))
      return true;
    if (Required)
      fail(Key, "missing required field");
    return false;
  }
  bool ok() const { return !Failure; }

  const json &Object;
  std::string Context;
  Error Failure = Error::success();
};

} // namespace lockstep::json_reader
