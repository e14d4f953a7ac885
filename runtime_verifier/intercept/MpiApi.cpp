#include "MpiApi.h"

#include "Names.h"
#include "State.h"

#include <mutex>
#include <vector>

namespace lockstep::rt {

namespace {

template <class H> uintptr_t key(H Handle) {
  if constexpr (std::is_pointer_v<H>)
    return reinterpret_cast<uintptr_t>(Handle); // Open MPI
  else
    return static_cast<uintptr_t>(Handle); // MPICH: integers
}

template <class H> struct Named {
  H Handle;
  const char *Name;
};
#define LOCKSTEP_NAMED(X) {X, #X}
// Predefined handles are the same on every rank by name, not by value
// (Open MPI's are addresses): they travel as an index into these tables.
const Named<MPI_Datatype> Datatypes[] = {
    LOCKSTEP_NAMED(MPI_CHAR),
    LOCKSTEP_NAMED(MPI_SIGNED_CHAR),
    LOCKSTEP_NAMED(MPI_UNSIGNED_CHAR),
    LOCKSTEP_NAMED(MPI_BYTE),
    LOCKSTEP_NAMED(MPI_SHORT),
    LOCKSTEP_NAMED(MPI_UNSIGNED_SHORT),
    LOCKSTEP_NAMED(MPI_INT),
    LOCKSTEP_NAMED(MPI_UNSIGNED),
    LOCKSTEP_NAMED(MPI_LONG),
    LOCKSTEP_NAMED(MPI_UNSIGNED_LONG),
    LOCKSTEP_NAMED(MPI_LONG_LONG),
    LOCKSTEP_NAMED(MPI_UNSIGNED_LONG_LONG),
    LOCKSTEP_NAMED(MPI_FLOAT),
    LOCKSTEP_NAMED(MPI_DOUBLE),
    LOCKSTEP_NAMED(MPI_LONG_DOUBLE),
    LOCKSTEP_NAMED(MPI_WCHAR),
    LOCKSTEP_NAMED(MPI_C_BOOL),
    LOCKSTEP_NAMED(MPI_INT8_T),
    LOCKSTEP_NAMED(MPI_INT16_T),
    LOCKSTEP_NAMED(MPI_INT32_T),
    LOCKSTEP_NAMED(MPI_INT64_T),
    LOCKSTEP_NAMED(MPI_UINT8_T),
    LOCKSTEP_NAMED(MPI_UINT16_T),
    LOCKSTEP_NAMED(MPI_UINT32_T),
    LOCKSTEP_NAMED(MPI_UINT64_T),
    LOCKSTEP_NAMED(MPI_C_FLOAT_COMPLEX),
    LOCKSTEP_NAMED(MPI_C_DOUBLE_COMPLEX),
    LOCKSTEP_NAMED(MPI_AINT),
    LOCKSTEP_NAMED(MPI_OFFSET),
    LOCKSTEP_NAMED(MPI_COUNT),
    LOCKSTEP_NAMED(MPI_PACKED),
    LOCKSTEP_NAMED(MPI_FLOAT_INT),
    LOCKSTEP_NAMED(MPI_DOUBLE_INT),
    LOCKSTEP_NAMED(MPI_LONG_INT),
    LOCKSTEP_NAMED(MPI_2INT),
    LOCKSTEP_NAMED(MPI_SHORT_INT),
    LOCKSTEP_NAMED(MPI_LONG_DOUBLE_INT),
};
const Named<MPI_Op> Ops[] = {
    LOCKSTEP_NAMED(MPI_MAX),     LOCKSTEP_NAMED(MPI_MIN),    LOCKSTEP_NAMED(MPI_SUM),
    LOCKSTEP_NAMED(MPI_PROD),    LOCKSTEP_NAMED(MPI_LAND),   LOCKSTEP_NAMED(MPI_BAND),
    LOCKSTEP_NAMED(MPI_LOR),     LOCKSTEP_NAMED(MPI_BOR),    LOCKSTEP_NAMED(MPI_LXOR),
    LOCKSTEP_NAMED(MPI_BXOR),    LOCKSTEP_NAMED(MPI_MAXLOC), LOCKSTEP_NAMED(MPI_MINLOC),
    LOCKSTEP_NAMED(MPI_REPLACE), LOCKSTEP_NAMED(MPI_NO_OP),
};
#undef LOCKSTEP_NAMED
constexpr uint32_t UserOp = 0xFFFF; // user-defined operators cannot be told apart

std::string datatypeNameOf(uint32_t Value) {
  return Value < std::size(Datatypes) ? Datatypes[Value].Name
                                      : "MPI datatype " + std::to_string(Value);
}
std::string opNameOf(uint32_t Value) {
  return Value < std::size(Ops) ? Ops[Value].Name : "user-defined operator";
}
const bool Registered = (registerNamers(Api::Mpi, datatypeNameOf, opNameOf), true);

/// Binds a communicator without reporting its events.
CommSlot *untracked(MPI_Comm C) {
  wire::Comm Info;
  Info.Api = uint8_t(Api::Mpi);
  Info.Size = 1;
  return bindComm(key(C), Info, false);
}

} // namespace

CommSlot *MpiTraits::world() {
  static std::once_flag Once;
  static CommSlot *Slot = nullptr;
  std::call_once(Once, [] {
    int Size = 0, Rank = 0;
    PMPI_Comm_size(MPI_COMM_WORLD, &Size);
    PMPI_Comm_rank(MPI_COMM_WORLD, &Rank);
    if (Size != jobWorldSize() || Rank != jobRank()) {
      warnOnce("MPI_COMM_WORLD has " + std::to_string(Size) + " rank(s) but the job has " +
               std::to_string(jobWorldSize()) +
               "; MPI collectives are not verified (start MPI programs with 'lockstep run --mpi')");
      if (State *S = state())
        S->MpiUnverified.store(true);
      Slot = untracked(MPI_COMM_WORLD);
      return;
    }
    wire::Comm Info;
    Info.Id = wire::MpiWorldId;
    Info.Size = uint32_t(Size);
    Info.RankInComm = uint32_t(Rank);
    Info.Api = uint8_t(Api::Mpi);
    Slot = bindComm(key(MPI_COMM_WORLD), Info, true);
  });
  return Slot;
}

CommSlot *MpiTraits::comm(MPI_Comm C) {
  if (CommSlot *S = findComm(Api::Mpi, key(C)))
    return S;
  if (C == MPI_COMM_WORLD)
    return world();
  int Size = 0;
  if (C == MPI_COMM_NULL || PMPI_Comm_size(C, &Size) != MPI_SUCCESS)
    return nullptr; // MPI reports the invalid communicator itself
  if (Size > 1)
    warnOnce("a collective on a communicator created by a function the rules do not list; "
             "its collectives are not verified");
  return untracked(C);
}

void MpiTraits::bindCreated(CommSlot *Parent, uint64_t Seq, MPI_Comm C) {
  if (C == MPI_COMM_NULL)
    return;
  int Inter = 0, Size = 0, Rank = 0;
  PMPI_Comm_test_inter(C, &Inter);
  PMPI_Comm_size(C, &Size);
  PMPI_Comm_rank(C, &Rank);
  if (Inter || Size <= 1 || !Parent || !Parent->Tracked.load()) {
    if (Inter)
      warnOnce("collectives on intercommunicators are not verified");
    untracked(C);
    return;
  }
  // Members by world rank: ranks that pass the same colour to the same
  // split get the same set, the others a different one.
  MPI_Group Group, WorldGroup;
  PMPI_Comm_group(C, &Group);
  PMPI_Comm_group(MPI_COMM_WORLD, &WorldGroup);
  std::vector<int> Local(static_cast<size_t>(Size)), World(static_cast<size_t>(Size));
  for (int I = 0; I < Size; ++I)
    Local[size_t(I)] = I;
  PMPI_Group_translate_ranks(Group, Size, Local.data(), WorldGroup, World.data());
  PMPI_Group_free(&Group);
  PMPI_Group_free(&WorldGroup);
  wire::Comm Info;
  Info.Parent = Parent->Id.load();
  Info.ParentSeq = Seq;
  Info.Id =
      hashBytes(hashBytes(Info.Parent, &Seq, sizeof Seq), World.data(), World.size() * sizeof(int));
  Info.Size = uint32_t(Size);
  Info.RankInComm = uint32_t(Rank);
  Info.Api = uint8_t(Api::Mpi);
  bindComm(key(C), Info, true);
}

uint32_t MpiTraits::datatype(MPI_Datatype D) {
  for (uint32_t I = 0; I < std::size(Datatypes); ++I)
    if (Datatypes[I].Handle == D)
      return makeId(Api::Mpi, I);
  int Size = 0;
  if (D == MPI_DATATYPE_NULL || PMPI_Type_size(D, &Size) != MPI_SUCCESS)
    return wire::None;
  return makeId(Api::Mpi, Derived | std::min<uint32_t>(uint32_t(Size), Derived - 1));
}

uint32_t MpiTraits::op(MPI_Op O) {
  for (uint32_t I = 0; I < std::size(Ops); ++I)
    if (Ops[I].Handle == O)
      return makeId(Api::Mpi, I);
  return O == MPI_OP_NULL ? wire::None : makeId(Api::Mpi, UserOp);
}

bool mpiLeftOpen() {
  int Initialized = 0, Finalized = 0; // both callable at any time
  PMPI_Initialized(&Initialized);
  PMPI_Finalized(&Finalized);
  return Initialized && !Finalized;
}

void mpiAbortJob(int Code) {
  if (mpiLeftOpen())
    PMPI_Abort(MPI_COMM_WORLD, Code);
}

} // namespace lockstep::rt
