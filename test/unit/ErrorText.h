// Tests compare a lockstep::Error by its text, "" for success, so that a
// failing expectation shows the message.
#pragma once

#include "Result.h"

#include <string>

inline std::string errorText(const lockstep::Error &E) { return E ? E.message() : ""; }
