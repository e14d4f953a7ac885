// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// A field that one method sets per rank and another agrees with a
// collective is the same on every rank after the agreeing call, also read
// through an accessor; a method that changes it on some paths afterwards
// makes it per-rank again.
#include <mpi.h>

class Counter {
public:
  explicit Counter(MPI_Comm c) : comm_(c) {}
  void set(int v) { n_ = v; }
  void raise(int v) {
    if (v > n_)
      n_ = v;
  }
  void agree() { MPI_Allreduce(MPI_IN_PLACE, &n_, 1, MPI_INT, MPI_MAX, comm_); }
  int n() const { return n_; }

private:
  MPI_Comm comm_;
  int n_ = 0;
};

// Negative: every rank runs the agreed count of barriers.
void agreed_count() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Counter c(MPI_COMM_WORLD);
  c.set(rank + 3);
  c.agree();
  for (int i = 0; i < c.n(); ++i)
    MPI_Barrier(MPI_COMM_WORLD);
}

// Positive: raised on some ranks after the agreement.
void raised_after_agreement() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Counter c(MPI_COMM_WORLD);
  c.set(3);
  c.agree();
  c.raise(rank);
  for (int i = 0; i < c.n(); ++i)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < c.n()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

class Stopper {
public:
  explicit Stopper(MPI_Comm c) : comm_(c) {}
  void observe(double loss) {
    if (loss > 1e3)
      diverged_ = 1;
  }
  void sync() { MPI_Allreduce(MPI_IN_PLACE, &diverged_, 1, MPI_INT, MPI_MAX, comm_); }
  bool should_stop() const { return diverged_ != 0; }

private:
  MPI_Comm comm_;
  int diverged_ = 0;
};

// Negative: the ranks stop together on the agreed flag.
void stop_on_agreed_flag() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Stopper s(MPI_COMM_WORLD);
  for (int epoch = 0; epoch < 100; ++epoch) {
    MPI_Barrier(MPI_COMM_WORLD);
    s.observe(rank * 1.5 * epoch);
    s.sync();
    if (s.should_stop())
      break;
  }
}

// Positive: the flag is tested before it is agreed.
void stop_on_local_flag() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Stopper s(MPI_COMM_WORLD);
  for (int epoch = 0; epoch < 100; ++epoch) {
    MPI_Barrier(MPI_COMM_WORLD);
    s.observe(rank * 1.5 * epoch);
    if (s.should_stop())
      break;
    s.sync();
  }
  // CHECK-MESSAGES: :[[@LINE-6]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-5]]:9: note: 's.should_stop()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-9]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  // CHECK-MESSAGES: :[[@LINE-6]]:5: warning: 'Stopper::sync' (which calls 'MPI_Allreduce') is never reached on ranks where 's.should_stop()', which break out of the loop before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-8]]:7: note: ranks where 's.should_stop()' break out of the loop here
  // CHECK-MESSAGES: :[[@LINE-40]]:17: note: 'MPI_Allreduce' is called here, inside 'Stopper::sync'
  // CHECK-MESSAGES: :[[@LINE-11]]:9: note: 's.should_stop()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-17]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-11]]:5: note: let every rank reach 'Stopper::sync' before leaving, or make the decision to leave the same on every rank
}

// Positive: agreed, then set per rank through a pointer to the object; the
// accessor reads what the pointer left, not the agreed value. (Through the
// pointer the field is judged as in any object of the class: the note names
// the first rank the file writes into it.)
void set_through_pointer_after_agreement() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Counter c(MPI_COMM_WORLD);
  Counter *p = &c;
  c.set(3);
  c.agree();
  p->set(rank);
  for (int i = 0; i < c.n(); ++i)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < c.n()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-93]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

class Tally {
public:
  explicit Tally(MPI_Comm c) : comm_(c) {}
  void set(int v) { n_ = v; }
  void agree() { MPI_Allreduce(MPI_IN_PLACE, &n_, 1, MPI_INT, MPI_MAX, comm_); }
  Tally &self() { return *this; }
  int n() const { return n_; }

private:
  MPI_Comm comm_;
  int n_ = 0;
};

// Positive: a copy of an object set per rank holds the same per-rank count.
void copied_count() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Tally t(MPI_COMM_WORLD);
  t.set(rank);
  Tally u = t;
  for (int i = 0; i < u.n(); ++i)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < u.n()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// Positive: agreed, then set per rank through the reference a method hands
// out. (As through a pointer, the note names the first rank the file writes
// into the field.)
void set_through_self_after_agreement() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Tally t(MPI_COMM_WORLD);
  t.set(3);
  t.agree();
  t.self().set(rank);
  for (int i = 0; i < t.n(); ++i)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < t.n()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-26]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// Negative: set per rank, agreed, then only read.
void tally_agreed() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Tally t(MPI_COMM_WORLD);
  t.set(rank);
  t.agree();
  for (int i = 0; i < t.n(); ++i)
    MPI_Barrier(MPI_COMM_WORLD);
}
