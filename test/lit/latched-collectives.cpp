// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Latched collectives: a polling loop that starts a collective behind a
// flag set right after it, and that no rank can leave before the flag is
// set (its exit flag changes, or its breaks are taken, only under the
// latch), makes the collective exactly once on every rank, at whatever
// iteration each rank's own condition allows (the NBX sparse exchange). A
// latch that can be cleared or set elsewhere, an exit flag written outside
// the latch, another way out of the loop (a break taken before the latch is
// set), or a latch that an outer loop does not reset leave some ranks
// without the collective.
#include <mpi.h>
#include <vector>

// Whether this rank has no message left to receive: its own answer.
static bool drained(MPI_Comm comm) {
  int waiting = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, 9, comm, &waiting, MPI_STATUS_IGNORE);
  return !waiting;
}

// Negative: NBX; each rank starts the barrier when its own sends completed.
void nbx(const std::vector<int> &dests, MPI_Comm comm) {
  std::vector<MPI_Request> sends(dests.size());
  int token = 1;
  for (std::size_t i = 0; i < dests.size(); ++i)
    MPI_Issend(&token, 1, MPI_INT, dests[i], 7, comm, &sends[i]);
  MPI_Request barrier = MPI_REQUEST_NULL;
  bool barrier_started = false;
  int done = 0;
  while (!done) {
    int pending = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, 7, comm, &pending, &st);
    if (pending)
      MPI_Recv(&token, 1, MPI_INT, st.MPI_SOURCE, 7, comm, MPI_STATUS_IGNORE);
    if (!barrier_started) {
      int all_sent = 0;
      MPI_Testall(static_cast<int>(sends.size()), sends.data(), &all_sent, MPI_STATUSES_IGNORE);
      if (all_sent) {
        MPI_Ibarrier(comm, &barrier);
        barrier_started = true;
      }
    } else {
      MPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
    }
  }
}

// Negative: the same with the latch tested first and the loop's flag reset
// by its `for`, as PETSc writes it; and a blocking barrier behind a
// conjunction.
void nbx_for(MPI_Request *sends, int n, MPI_Comm comm) {
  MPI_Request barrier;
  int barrier_active = 0, done;
  for (done = 0; !done;) {
    if (barrier_active) {
      MPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
    } else {
      int sent;
      MPI_Testall(n, sends, &sent, MPI_STATUSES_IGNORE);
      if (sent) {
        MPI_Ibarrier(comm, &barrier);
        barrier_active = 1;
      }
    }
  }
}

void drain_then_meet(int rank, MPI_Comm comm) {
  bool met = false;
  int finished = 0;
  while (finished == 0) {
    if (!met && drained(comm)) {
      MPI_Barrier(comm);
      met = true;
    } else if (met) {
      finished = 1;
    }
  }
}

// Positive: a rank may leave as soon as its own sends completed, before it
// started the barrier.
void exit_outside_latch(MPI_Request *sends, int n, MPI_Comm comm) {
  MPI_Request barrier;
  int started = 0, done = 0;
  while (!done) {
    int sent;
    MPI_Testall(n, sends, &sent, MPI_STATUSES_IGNORE);
    if (!started && sent) {
      MPI_Ibarrier(comm, &barrier);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Ibarrier' runs only on ranks where '!started && sent'; the other ranks never call it and the job hangs [lockstep-rank-branch]
      // CHECK-MESSAGES: :[[@LINE-3]]:9: note: '!started && sent' differs between ranks
      // CHECK-MESSAGES: :[[@LINE-5]]:5: note: 'sent' is a completion flag from 'MPI_Testall'; each rank reads its own
      // CHECK-MESSAGES: :[[@LINE-4]]:7: note: call 'MPI_Ibarrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
      started = 1;
    }
    MPI_Testall(n, sends, &done, MPI_STATUSES_IGNORE);
  }
}

// Positive: the latch is cleared again, so a rank may start it twice.
void latch_cleared(int rank, MPI_Comm comm) {
  bool met = false;
  int finished = 0;
  while (!finished) {
    if (!met && drained(comm)) {
      MPI_Barrier(comm);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Barrier' runs only on ranks where '!met && drained(comm)'; the other ranks never call it and the job hangs [lockstep-rank-branch]
      // CHECK-MESSAGES: :[[@LINE-3]]:9: note: '!met && drained(comm)' differs between ranks
      // CHECK-MESSAGES: :[[@LINE-94]]:3: note: 'waiting' is a probed message from 'MPI_Iprobe'; each rank reads its own
      // CHECK-MESSAGES: :[[@LINE-4]]:7: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
      met = true;
    } else if (met) {
      finished = drained(comm);
      met = false;
    }
  }
}

// Positive: a timeout sets the latch without the barrier.
void latch_set_elsewhere(int rank, MPI_Comm comm) {
  bool met = false;
  int finished = 0;
  while (!finished) {
    if (!met && drained(comm)) {
      MPI_Barrier(comm);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Barrier' runs only on ranks where '!met && drained(comm)'; the other ranks never call it and the job hangs [lockstep-rank-branch]
      // CHECK-MESSAGES: :[[@LINE-3]]:9: note: '!met && drained(comm)' differs between ranks
      // CHECK-MESSAGES: :[[@LINE-113]]:3: note: 'waiting' is a probed message from 'MPI_Iprobe'; each rank reads its own
      // CHECK-MESSAGES: :[[@LINE-4]]:7: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
      met = true;
    } else if (met) {
      finished = 1;
    }
    if (rank > 2)
      met = true;
  }
}

// Positive: a rank with nothing to drain breaks out first.
void break_out(int rank, MPI_Comm comm) {
  bool met = false;
  int finished = 0;
  while (!finished) {
    if (rank == 0)
      break;
    if (!met && drained(comm)) {
      MPI_Barrier(comm);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Barrier' runs only on ranks where '!met && drained(comm)'; the other ranks never call it and the job hangs [lockstep-rank-branch]
      // CHECK-MESSAGES: :[[@LINE-3]]:9: note: '!met && drained(comm)' differs between ranks
      // CHECK-MESSAGES: :[[@LINE-135]]:3: note: 'waiting' is a probed message from 'MPI_Iprobe'; each rank reads its own
      // CHECK-MESSAGES: :[[@LINE-4]]:7: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
      met = true;
    } else if (met) {
      finished = 1;
    }
  }
}

// Negative: the latch outlives the outer loop, so every rank meets once in
// the first round and skips the barrier in the later ones.
void rounds(int rank, MPI_Comm comm) {
  bool met = false;
  for (int round = 0; round < 3; ++round) {
    int finished = 0;
    while (!finished) {
      if (!met && drained(comm)) {
        MPI_Barrier(comm);
        met = true;
      } else if (met) {
        finished = 1;
      }
    }
  }
}

// Negative: NBX in a loop that runs forever, left only by a break taken
// once the barrier was started.
void nbx_forever(MPI_Request send, MPI_Comm comm) {
  MPI_Request barrier = MPI_REQUEST_NULL;
  bool started = false;
  for (;;) {
    drained(comm);
    if (started) {
      int done = 0;
      MPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
      if (done)
        break;
    } else {
      int all_sent = 0;
      MPI_Test(&send, &all_sent, MPI_STATUS_IGNORE);
      if (all_sent) {
        MPI_Ibarrier(comm, &barrier);
        started = true;
      }
    }
  }
}

// Positive: the same, but a rank that gives up polling breaks out before it
// started the barrier.
void nbx_forever_gives_up(MPI_Request send, MPI_Comm comm) {
  MPI_Request barrier = MPI_REQUEST_NULL;
  bool started = false;
  for (int polls = 0;; ++polls) {
    if (polls > 1000)
      break;
    if (started) {
      int done = 0;
      MPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
      if (done)
        break;
    } else {
      int all_sent = 0;
      MPI_Test(&send, &all_sent, MPI_STATUS_IGNORE);
      if (all_sent) {
        MPI_Ibarrier(comm, &barrier);
        // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'MPI_Ibarrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
        // CHECK-MESSAGES: :[[@LINE-8]]:11: note: 'done' differs between ranks
        // CHECK-MESSAGES: :[[@LINE-10]]:7: note: 'done' is a completion flag from 'MPI_Test'; each rank reads its own
        // CHECK-MESSAGES: :[[@LINE-4]]:9: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
        started = true;
      }
    }
  }
}
