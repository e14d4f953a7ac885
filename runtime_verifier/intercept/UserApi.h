// The wrappers of collectives that a user's rules file names (a library's
// own allreduce built on point-to-point calls, exported from a shared
// library): the real function is the next definition after the interposer,
// and the communicator argument is read with the traits of its type.
#pragma once

#include "Intercept.h"

namespace lockstep::rt {

/// The next definition of \p Name after the interposer; exits with a
/// message when there is none (a wrapper only runs when the program calls it).
void *nextSymbol(const char *Name);

template <class F> F userReal(const char *Name) { return reinterpret_cast<F>(nextSymbol(Name)); }

} // namespace lockstep::rt
