// How the generated NCCL wrappers read NCCL arguments and reach the real
// library (dlsym(RTLD_NEXT), so the interposer does not link NCCL). A
// communicator's job-wide identity comes from its unique id (init) or from
// its parent, the split's sequence number on the parent and the colour.
#pragma once

#include "Intercept.h"

#include <nccl.h>

#include <cstdio>
#include <cstdlib>

namespace lockstep::rt {

/// The real NCCL entry point \p Name; exits with a message when NCCL is
/// not loaded (a wrapper only runs when the program calls NCCL).
void *ncclSymbol(const char *Name);

template <class F> F ncclReal(const char *Name) { return reinterpret_cast<F>(ncclSymbol(Name)); }

struct NcclTraits;
template <> struct TraitsFor<ncclComm_t> {
  using Type = NcclTraits;
};

struct NcclTraits {
  using Comm = ncclComm_t;
  static constexpr bool HostBlocking = false; // a call returns once the work is enqueued

  static CommSlot *comm(ncclComm_t C);
  static uint32_t datatype(ncclDataType_t D) { return makeId(Api::Nccl, uint32_t(D)); }
  static uint32_t op(ncclRedOp_t O) { return makeId(Api::Nccl, uint32_t(O)); }
  static bool succeeded(ncclResult_t Rc) { return Rc == ncclSuccess; }

  /// After a creating call: the new communicator's identity mixes its
  /// unique id (init) or its parent and sequence number (split, shrink) with
  /// the first int argument (the split colour; a uniform count otherwise).
  template <class... A> static void created(CommSlot *Parent, uint64_t Seq, A... Args) {
    ncclComm_t *Out = nullptr;
    uint64_t Salt = Parent ? hashBytes(Parent->Id.load(), &Seq, sizeof Seq) : 0;
    bool SawInt = false;
    auto Visit = [&](auto Arg) {
      using T = decltype(Arg);
      if constexpr (std::is_same_v<T, ncclComm_t *>)
        Out = Arg;
      else if constexpr (std::is_same_v<T, ncclUniqueId>)
        Salt = hashBytes(Salt, &Arg, sizeof Arg);
      else if constexpr (std::is_same_v<T, ncclUniqueId *>)
        Salt = Arg ? hashBytes(Salt, Arg, sizeof *Arg) : Salt;
      else if constexpr (std::is_same_v<T, int>)
        if (!SawInt) {
          Salt = hashBytes(Salt, &Arg, sizeof Arg);
          SawInt = true;
        }
    };
    (Visit(Args), ...);
    if (Out)
      bindCreated(Parent, Seq, Salt, *Out);
  }

private:
  static void bindCreated(CommSlot *Parent, uint64_t Seq, uint64_t Id, ncclComm_t C);
};

} // namespace lockstep::rt
