// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// A communicator kept in a field that the class's one constructor sets from
// its parameter (`comm_(comm)`) is what every construction passes: a worker
// built on the split of the non-root ranks, and run by exactly those ranks,
// makes its collectives with its members. Run by a subset of them, or built
// on two different communicators, it is reported.
#include <mpi.h>

class Worker {
public:
  explicit Worker(MPI_Comm comm) : comm_(comm) {}
  void run() { MPI_Barrier(comm_); }

private:
  MPI_Comm comm_;
};

// Negative: every member of `workers`, and only they, run the worker.
void workers_only() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm workers;
  MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : 1, rank, &workers);
  if (rank != 0) {
    Worker w(workers);
    w.run();
  }
}

class Team {
public:
  explicit Team(MPI_Comm comm) : comm_(comm) {}
  void run() { MPI_Barrier(comm_); }

private:
  MPI_Comm comm_;
};

// Positive: one member of the team runs it; the others never do.
void one_of_the_team() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm team;
  MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : 1, rank, &team);
  if (rank == 1) {
    Team t(team);
    t.run();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'Team::run' (which calls 'MPI_Barrier') runs only on ranks where 'rank == 1'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-16]]:16: note: 'MPI_Barrier' is called here, inside 'Team::run'
    // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'rank == 1' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'Team::run' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  }
}

class Crew {
public:
  explicit Crew(MPI_Comm comm) : comm_(comm) {}
  void run() { MPI_Barrier(comm_); }

private:
  MPI_Comm comm_;
};

// Positive: a crew is also built on the world, so `comm_` may be either: the
// world's run on the non-root ranks hangs, and the members' run is reported
// too, not knowing which communicator that object holds.
void crews_on_two_communicators() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm crew;
  MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : 1, rank, &crew);
  if (rank != 0) {
    Crew members(crew);
    members.run();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'Crew::run' (which calls 'MPI_Barrier') runs only on ranks where 'rank != 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-18]]:16: note: 'MPI_Barrier' is called here, inside 'Crew::run'
    // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'rank != 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'Crew::run' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  }
  Crew everyone(MPI_COMM_WORLD);
  if (rank != 0)
    everyone.run();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'Crew::run' (which calls 'MPI_Barrier') runs only on ranks where 'rank != 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-27]]:16: note: 'MPI_Barrier' is called here, inside 'Crew::run'
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'rank != 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-18]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'Crew::run' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}
