#include "NcclApi.h"

#include "Names.h"

#include <dlfcn.h>

namespace lockstep::rt {

namespace {

std::string datatypeNameOf(uint32_t Value) {
  static const char *const Names[] = {"ncclInt8",     "ncclUint8",      "ncclInt32",
                                      "ncclUint32",   "ncclInt64",      "ncclUint64",
                                      "ncclFloat16",  "ncclFloat32",    "ncclFloat64",
                                      "ncclBfloat16", "ncclFloat8e4m3", "ncclFloat8e5m2"};
  return Value < std::size(Names) ? Names[Value] : "NCCL datatype " + std::to_string(Value);
}
std::string opNameOf(uint32_t Value) {
  static const char *const Names[] = {"ncclSum", "ncclProd", "ncclMax", "ncclMin", "ncclAvg"};
  return Value < std::size(Names) ? Names[Value] : "custom operator " + std::to_string(Value);
}
const bool Registered = (registerNamers(Api::Nccl, datatypeNameOf, opNameOf), true);

uintptr_t key(ncclComm_t C) { return reinterpret_cast<uintptr_t>(C); }

} // namespace

void *ncclSymbol(const char *Name) {
  void *P = dlsym(RTLD_NEXT, Name);
  if (!P) // NCCL opened with dlopen(RTLD_LOCAL) is not in the global scope
    if (void *Lib = dlopen("libnccl.so.2", RTLD_NOLOAD | RTLD_LAZY))
      P = dlsym(Lib, Name);
  if (!P) {
    std::fprintf(stderr, "lockstep: error: cannot find the real '%s' (is libnccl.so.2 loaded?)\n",
                 Name);
    std::exit(127);
  }
  return P;
}

CommSlot *NcclTraits::comm(ncclComm_t C) {
  if (CommSlot *S = findComm(Api::Nccl, key(C)))
    return S;
  warnOnce("a collective on an NCCL communicator created by a function the rules do not list; "
           "its collectives are not verified");
  wire::Comm Info;
  Info.Api = uint8_t(Api::Nccl);
  Info.Size = 1;
  return bindComm(key(C), Info, false);
}

void NcclTraits::bindCreated(CommSlot *Parent, uint64_t Seq, uint64_t Id, ncclComm_t C) {
  static const auto Count = ncclReal<decltype(&ncclCommCount)>("ncclCommCount");
  static const auto UserRank = ncclReal<decltype(&ncclCommUserRank)>("ncclCommUserRank");
  int Size = 0, Rank = 0;
  wire::Comm Info;
  Info.Api = uint8_t(Api::Nccl);
  if (!C || Count(C, &Size) != ncclSuccess || UserRank(C, &Rank) != ncclSuccess || Size <= 1) {
    Info.Size = 1;
    bindComm(key(C), Info, false);
    return;
  }
  Info.Id = Id ? Id : 2; // 0 means "no communicator" on the wire
  Info.Size = uint32_t(Size);
  Info.RankInComm = uint32_t(Rank);
  if (Parent) {
    Info.Parent = Parent->Id.load();
    Info.ParentSeq = Seq;
  }
  bindComm(key(C), Info, true);
}

} // namespace lockstep::rt
