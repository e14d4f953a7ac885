// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// A lambda that captures a variable by reference writes its caller's
// storage: after a call that runs it (directly, through a std::function a
// helper calls, or inside a library algorithm), the variable holds what the
// lambda wrote. A per-rank flag set there decides per rank; one agreed by a
// collective afterwards, one set to the same value everywhere, or a copy
// captured by value does not.
#include <mpi.h>
#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

double local_loss(int rank, int step);

// Positive: the check sets `stop` from this rank's own loss.
void train_until_diverged(MPI_Comm comm, int steps) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  bool stop = false;
  auto check = [&](double loss) { stop = std::isnan(loss) || loss > 1e3; };
  for (int s = 0; s < steps; ++s) {
    double loss = local_loss(rank, s);
    check(loss);
    if (stop)
      break;
    MPI_Allreduce(MPI_IN_PLACE, &loss, 1, MPI_DOUBLE, MPI_SUM, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' is never reached on ranks where 'stop', which break out of the loop before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where 'stop' break out of the loop here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: 'stop' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-10]]:27: note: parameter 'loss' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE-9]]:19: note: 'local_loss' is given a value that differs between ranks; its body is not visible, so its result is taken to differ as well
    // CHECK-MESSAGES: :[[@LINE-14]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-7]]:5: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
  }
}

// Negative: the same check runs on the reduced loss, the same on every rank.
void train_until_diverged_agreed(MPI_Comm comm, int steps) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  bool stop = false;
  auto check = [&](double loss) { stop = std::isnan(loss) || loss > 1e3; };
  for (int s = 0; s < steps; ++s) {
    double loss = local_loss(rank, s);
    MPI_Allreduce(MPI_IN_PLACE, &loss, 1, MPI_DOUBLE, MPI_SUM, comm);
    check(loss);
    if (stop)
      break;
  }
}

static void run_callback(const std::function<void(int)> &callback, int value) { callback(value); }

// Positive: a helper runs the lambda through a std::function with the rank.
void rounds_from_callback(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int rounds = 0;
  run_callback([&](int v) { rounds = v; }, rank);
  for (int i = 0; i < rounds; ++i)
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < rounds' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-5]]:24: note: parameter 'v' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// Negative: the same helper hands it the size, the same on every rank.
void rounds_from_callback_size(MPI_Comm comm) {
  int size;
  MPI_Comm_size(comm, &size);
  int rounds = 0;
  run_callback([&](int v) { rounds = v; }, size);
  for (int i = 0; i < rounds; ++i)
    MPI_Barrier(comm);
}

// Positive: a library algorithm runs the lambda on this rank's shard.
void skip_bad_shard(MPI_Comm comm, const std::vector<double> &shard) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  bool bad = false;
  std::for_each(shard.begin(), shard.end(), [&](double x) { bad = bad || x > rank; });
  if (bad)
    return;
  MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'bad', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'bad' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'bad' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
}

// Negative: the lambda sets the flag to one value on every rank, whichever
// arm calls it.
void flag_set_alike(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  bool ready = false;
  auto mark = [&] { ready = true; };
  if (rank == 0)
    mark();
  else
    mark();
  if (!ready)
    return;
  MPI_Barrier(comm);
}

// Negative: a copy captured by value changes only the lambda's own copy.
void copy_captured(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int rounds = 2;
  auto local = [rounds, rank]() mutable { rounds = rank; return rounds; };
  local();
  for (int i = 0; i < rounds; ++i)
    MPI_Barrier(comm);
}

struct Deferred {
  std::vector<std::function<void()>> pending;
  void defer(std::function<void()> f) { pending.push_back(std::move(f)); }
};

// Negative: the lambda is only kept to run later; nothing has set the flag
// when the function tests it.
void deferred_not_run(MPI_Comm comm, Deferred &later) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  bool stop = false;
  later.defer([&] { stop = rank > 0; });
  if (stop)
    return;
  MPI_Barrier(comm);
}

// Negative: the outer lambda holds a copy; the inner one writes that copy.
void nested_copy(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int rounds = 2;
  auto outer = [=]() mutable {
    auto inner = [&] { rounds = rank; };
    inner();
    return rounds;
  };
  outer();
  for (int i = 0; i < rounds; ++i)
    MPI_Barrier(comm);
}

// Positive: a by-reference init-capture names `rounds`; the lambda writes it.
void init_capture_reference(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int rounds = 2;
  auto set_rounds = [&r = rounds, rank] { r = rank + 1; };
  set_rounds();
  for (int i = 0; i < rounds; ++i)
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < rounds' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-9]]:7: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// Negative: a by-value init-capture is the lambda's own copy.
void init_capture_copy(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int rounds = 2;
  auto set_rounds = [r = rounds, rank]() mutable { r = rank + 1; return r; };
  set_rounds();
  for (int i = 0; i < rounds; ++i)
    MPI_Barrier(comm);
}

// Negative: the init-capture reference is given the same value everywhere.
void init_capture_uniform(MPI_Comm comm) {
  int size;
  MPI_Comm_size(comm, &size);
  int rounds = 2;
  auto set_rounds = [&r = rounds, size] { r = size / 2 + 1; };
  set_rounds();
  for (int i = 0; i < rounds; ++i)
    MPI_Barrier(comm);
}

// Positive: a plain reference names `rounds` as well.
void reference_alias(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int rounds = 2;
  int &r = rounds;
  r = rank + 1;
  for (int i = 0; i < rounds; ++i)
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < rounds' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// Negative: the reference is only read through.
void const_reference_alias(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int rounds = 2;
  const int &r = rounds;
  int last = r + rank;
  for (int i = 0; i < rounds; ++i)
    MPI_Barrier(comm);
  (void)last;
}

// A lambda that reads the elements of a container it captures reads what
// the function filled it with (probe53): a per-rank sum decides a barrier
// only some ranks reach (positive); elements the same everywhere, or only
// the container's size, do not (negatives).
void captured_elements(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<double> mine(10, 1.0 * rank), shared(10, 1.0);
  auto sum_of = [&](const std::vector<double> &v) {
    double s = 0;
    for (double x : v)
      s += x;
    return s;
  };
  auto local_sum = [&]() {
    double s = 0;
    for (double x : mine)
      s += x;
    return s;
  };
  auto shared_sum = [&]() {
    double s = 0;
    for (double x : shared)
      s += x;
    return s;
  };
  auto count = [&]() { return mine.size(); };
  if (shared_sum() > 5.0)
    MPI_Barrier(comm);
  if (count() > 5)
    MPI_Barrier(comm);
  if (sum_of(shared) > 5.0)
    MPI_Barrier(comm);
  if (local_sum() > 5.0)
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'local_sum() > 5.0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'local_sum() > 5.0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-31]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// A lambda called here reads the locals it captures by reference as they
// are at the call. Positive: the count grew on some ranks only.
void flush_dirty(MPI_File fh) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long dirty = 0;
  auto flush = [&]() {
    if (dirty > 0) {
      MPI_File_sync(fh);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_File_sync' runs only on ranks where 'dirty > 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
      // CHECK-MESSAGES: :[[@LINE-3]]:9: note: 'dirty > 0' differs between ranks
      // CHECK-MESSAGES: :[[@LINE+6]]:7: note: the value is assigned under this rank-dependent condition
      // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
      // CHECK-MESSAGES: :[[@LINE-5]]:7: note: call 'MPI_File_sync' on every rank: move it out of the branch and keep only the rank-specific work under the condition
      dirty = 0;
    }
  };
  if (rank % 3 == 0)
    dirty += 64;
  flush();
}

// Negative: every rank agrees on the largest count before the lambda runs.
void flush_agreed(MPI_File fh) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long pending = 0;
  auto flush = [&]() {
    if (pending > 0) {
      MPI_File_sync(fh);
      pending = 0;
    }
  };
  if (rank % 3 == 0)
    pending += 64;
  MPI_Allreduce(MPI_IN_PLACE, &pending, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  flush();
}
