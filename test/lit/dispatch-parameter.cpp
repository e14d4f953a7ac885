// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// An object chosen by a branch on a rank the callers pass: the branch is on
// a parameter, yet the choice differs between ranks as when the function
// reads the rank itself. A class that inherits the base's method runs the
// base's collectives; one that overrides it without calling the base runs
// none. The same class on every arm, or one given the rank as data, runs
// the same overrides everywhere.
#include <mpi.h>
#include <memory>

class Role {
public:
  virtual ~Role() = default;
  virtual void shutdown(MPI_Comm comm) { MPI_Barrier(comm); }
};
class Worker : public Role {};
class Spare : public Role {
public:
  void shutdown(MPI_Comm) override {} // a spare holds nothing to publish
};
class Tracer : public Role {
public:
  explicit Tracer(int rank) : rank_(rank) {}

private:
  int rank_;
};

// Positive: the spare ranks skip the base's barrier.
void finish(MPI_Comm comm, int rank, int workers) {
  std::unique_ptr<Role> role;
  if (rank <= workers)
    role = std::make_unique<Worker>();
  else
    role = std::make_unique<Spare>();
  role->shutdown(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'role->shutdown' may run 'Role::shutdown', which calls 'MPI_Barrier', or 'Spare::shutdown', which calls none, and 'role' differs between ranks: ranks that reach different functions run different collectives and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-24]]:42: note: 'MPI_Barrier' is called here, inside 'Role::shutdown', which 'role->shutdown' may run
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: 'role' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-10]]:32: note: parameter 'rank' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE+24]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-23]]:8: note: 'Spare::shutdown' calls no collective
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: make 'role' the same on every rank, or have every function 'role->shutdown' may run call the same collectives
}

// Negative: one class on every arm.
void finish_workers(MPI_Comm comm, int rank) {
  std::unique_ptr<Role> role;
  if (rank == 0)
    role = std::make_unique<Worker>();
  else
    role = std::make_unique<Worker>();
  role->shutdown(comm);
}

// Negative: the rank is only the object's data.
void finish_traced(MPI_Comm comm, int rank) {
  auto role = std::make_unique<Tracer>(rank);
  role->shutdown(comm);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  finish(MPI_COMM_WORLD, rank, 2);
  finish_workers(MPI_COMM_WORLD, rank);
  finish_traced(MPI_COMM_WORLD, rank);
  MPI_Finalize();
}
