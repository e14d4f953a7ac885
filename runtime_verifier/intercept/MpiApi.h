// How the generated MPI wrappers read MPI arguments: communicators get a
// job-wide identity (MPI_COMM_WORLD a fixed one; a created communicator one
// derived from its parent, the creating call's sequence number on the
// parent, and its members' world ranks, so split colours never collide),
// datatypes and operators portable ids.
#pragma once

#include "Intercept.h"

#include <mpi.h>

namespace lockstep::rt {

struct MpiTraits {
  using Comm = MPI_Comm;
  static constexpr bool HostBlocking = true; // a blocking call returns when the collective is done

  static CommSlot *world();
  static CommSlot *comm(MPI_Comm C);
  static uint32_t datatype(MPI_Datatype D);
  static uint32_t op(MPI_Op O);
  static bool succeeded(int Rc) { return Rc == MPI_SUCCESS; }

  /// After a creating call: binds each MPI_Comm out-parameter. A
  /// nonblocking creation (it has a request) is complete only later, so its
  /// communicator is left to be reported as unknown if it is ever used.
  template <class... A> static void created(CommSlot *Parent, uint64_t Seq, A... Args) {
    if constexpr (!(std::is_same_v<A, MPI_Request *> || ...))
      (bindIfComm(Parent, Seq, Args), ...);
  }

private:
  template <class T> static void bindIfComm(CommSlot *Parent, uint64_t Seq, T Arg) {
    if constexpr (std::is_same_v<T, MPI_Comm *>)
      bindCreated(Parent, Seq, *Arg);
  }
  static void bindCreated(CommSlot *Parent, uint64_t Seq, MPI_Comm C);
};

template <> struct TraitsFor<MPI_Comm> {
  using Type = MpiTraits;
};

} // namespace lockstep::rt
