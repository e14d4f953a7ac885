// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Communicator membership (lockstep-rank-branch): a communicator split with a
// rank-dependent colour is only used by its members, so collectives on it
// under the condition that decides membership are fine.
#include <mpi.h>

void leaders_only(MPI_Comm world, double *v) {
  int rank, local_rank;
  MPI_Comm_rank(world, &rank);
  MPI_Comm node;
  MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local_rank);
  MPI_Comm leaders;
  int color = local_rank == 0 ? 0 : MPI_UNDEFINED;
  MPI_Comm_split(world, color, rank, &leaders);
  // Negative: the cross-node communicator of local-rank-0 processes.
  if (local_rank == 0)
    MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_DOUBLE, MPI_SUM, leaders);
  // Negative: the idiomatic null test.
  if (leaders != MPI_COMM_NULL)
    MPI_Barrier(leaders);
  // A different condition is not membership: rank 3 may not be a leader.
  if (rank == 3)
    MPI_Barrier(leaders);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank == 3'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 3' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-18]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  // CHECK-MESSAGES: :[[@LINE-5]]:17: warning: 'MPI_Barrier' is called on 'leaders' by ranks that are not its members; there 'leaders' is MPI_COMM_NULL and the call fails [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-15]]:3: note: 'MPI_Comm_split' gives 'leaders' no communicator on the ranks whose colour 'color' is MPI_UNDEFINED
  // CHECK-MESSAGES: :[[@LINE-19]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-8]]:17: note: call 'MPI_Barrier' only where 'leaders != MPI_COMM_NULL', or give every rank a colour
  // A collective on the parent communicator under the membership test hangs.
  if (local_rank == 0)
    MPI_Barrier(world);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'local_rank == 0'
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'local_rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-26]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: halves by parity; each half runs its own sequence.
void halves(MPI_Comm world) {
  int rank, x = 0;
  MPI_Comm_rank(world, &rank);
  MPI_Comm half;
  MPI_Comm_split(world, rank % 2, rank, &half);
  if (rank % 2 == 0)
    MPI_Bcast(&x, 1, MPI_INT, 0, half);
  else
    MPI_Barrier(half);
}

// Negatives: the colour reaches the split through a parameter; each part
// still has its own communicator, in the helper, in its caller and in the
// object that keeps it.
static MPI_Comm make_rows(MPI_Comm world, int color) {
  MPI_Comm rows;
  MPI_Comm_split(world, color, 0, &rows);
  return rows;
}

static double row_sum(MPI_Comm world, int color, double x) {
  MPI_Comm rows;
  MPI_Comm_split(world, color, 0, &rows);
  double s = 0;
  MPI_Allreduce(&x, &s, 1, MPI_DOUBLE, MPI_SUM, rows);
  MPI_Comm_free(&rows);
  return s;
}

struct Grid {
  MPI_Comm row;
  Grid(MPI_Comm world, int r) { MPI_Comm_split(world, r / 4, r, &row); }
  void sync() { MPI_Barrier(row); }
};

double split_through_parameters(MPI_Comm world) {
  int rank;
  MPI_Comm_rank(world, &rank);
  double t = row_sum(world, rank / 2, 1.0);
  Grid g(world, rank);
  g.sync();
  MPI_Comm rows = make_rows(world, rank % 3);
  MPI_Barrier(rows);
  // Still a rank branch: rank 0 is not every member of its part.
  if (rank == 0)
    MPI_Barrier(rows);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: for example, in a job of 4 ranks, rank 0 calls 'MPI_Barrier' and rank 3 does not
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  return t;
}

// Negative: a colour every caller passes the same splits nothing, so the
// null test below is the same on every rank.
static MPI_Comm split_by(MPI_Comm world, int color) {
  MPI_Comm part;
  MPI_Comm_split(world, color, 0, &part);
  if (part != MPI_COMM_NULL)
    MPI_Barrier(world);
  return part;
}

void same_colour_everywhere(MPI_Comm world) {
  MPI_Comm all = split_by(world, 0);
  MPI_Comm_free(&all);
}

// The size of a communicator split by rank is the size of each rank's part:
// the same on its members only.
void sub_sizes(MPI_Comm world) {
  int rank, half_size;
  MPI_Comm_rank(world, &rank);
  MPI_Comm half;
  MPI_Comm_split(world, rank < 3, rank, &half);
  MPI_Comm_size(half, &half_size);
  // Negative: only the members of 'half' meet in these.
  for (int i = 0; i < half_size; ++i)
    MPI_Barrier(half);
  if (half_size > 2)
    MPI_Barrier(half);
  // The whole job does not agree on it.
  for (int i = 0; i < half_size; ++i)
    MPI_Barrier(world);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < half_size' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: 'half_size' is the size of 'half' from 'MPI_Comm_size'; only the ranks that share one 'half' agree on it
  // CHECK-MESSAGES: :[[@LINE-13]]:3: note: each part of the split by 'MPI_Comm_split' here gets its own communicator
  // CHECK-MESSAGES: :[[@LINE-16]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-6]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// Negative: a split that every rank makes with the same colour has the
// job's size.
void whole_split_size(MPI_Comm world) {
  int rank, n;
  MPI_Comm_rank(world, &rank);
  MPI_Comm all;
  MPI_Comm_split(world, 0, rank, &all);
  MPI_Comm_size(all, &n);
  for (int i = 0; i < n; ++i)
    MPI_Barrier(world);
}

// Negative: a loop as long as the colour of the row, on the row only
// (a triangular solve over a process grid).
void triangular_rows(double *piece, int n, int pcol) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int myrow = rank / pcol;
  MPI_Comm row;
  MPI_Comm_split(MPI_COMM_WORLD, myrow, rank, &row);
  for (int k = 0; k <= myrow; ++k)
    MPI_Bcast(piece, n, MPI_DOUBLE, 0, row);
  // The same loop on the job is not.
  for (int k = 0; k <= myrow; ++k)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'k <= myrow' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

// Negative: each rank takes the communicator of its own parity.
void own_parity(double *x) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm evens, odds;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2 == 0 ? 0 : MPI_UNDEFINED, rank, &evens);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2 == 1 ? 0 : MPI_UNDEFINED, rank, &odds);
  MPI_Comm mine = rank % 2 == 0 ? evens : odds;
  MPI_Allreduce(MPI_IN_PLACE, x, 4, MPI_DOUBLE, MPI_SUM, mine);
}

// Negative: the rows of a process grid are all one size (the job is a
// multiple of a row's), so a count computed from it agrees across rows.
void grid_rows(MPI_Comm world, int tp, float *g) {
  int rank, row_size;
  MPI_Comm_rank(world, &rank);
  MPI_Comm row, column;
  MPI_Comm_split(world, rank / tp, rank, &row);
  MPI_Comm_split(world, rank % tp, rank, &column);
  MPI_Comm_size(row, &row_size);
  MPI_Allreduce(MPI_IN_PLACE, g, 1024 / row_size, MPI_FLOAT, MPI_SUM, column);
}

// Negative: each half bisects itself until one rank is left; two ranks that
// share a half shared the communicator it was split from.
static double bisect(MPI_Comm comm, double value) {
  int r, s;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &s);
  if (s == 1)
    return value;
  double sum = 0;
  MPI_Allreduce(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, comm);
  MPI_Comm half;
  MPI_Comm_split(comm, r < s / 2, r, &half);
  double result = bisect(half, value + sum / s);
  MPI_Comm_free(&half);
  return result;
}
double bisect_world(double v) { return bisect(MPI_COMM_WORLD, v); }

// A row's size is not the job's: ranks past the first row's size skip this.
void first_rows_only(MPI_Comm world, int tp) {
  int rank, row_size;
  MPI_Comm_rank(world, &rank);
  MPI_Comm row;
  MPI_Comm_split(world, rank / tp, rank, &row);
  MPI_Comm_size(row, &row_size);
  if (rank < row_size)
    MPI_Barrier(world);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'rank < row_size'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'rank < row_size' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// A rank's own part, chosen by a value the parts differ in, against a
// communicator every rank shares: singletons of an uneven split reduce on
// the world while the others reduce on their part.
void part_or_world(MPI_Comm world, double v) {
  int rank, n;
  MPI_Comm_rank(world, &rank);
  MPI_Comm sub;
  MPI_Comm_split(world, rank < 3 ? 0 : rank, rank, &sub);
  MPI_Comm_size(sub, &n);
  double out;
  MPI_Comm c = n > 1 ? sub : world;
  MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_SUM, c);
  // CHECK-MESSAGES: :[[@LINE-1]]:51: warning: the communicator of 'MPI_Allreduce' differs between ranks; every rank must pass the same communicator or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:51: note: 'c' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-4]]:16: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: 'n' is the size of 'sub' from 'MPI_Comm_size'; only the ranks that share one 'sub' agree on it
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: each part of the split by 'MPI_Comm_split' here gets its own communicator
  // CHECK-MESSAGES: :[[@LINE-12]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-7]]:51: note: pick the communicator by a value that is the same on every rank, or call 'MPI_Allreduce' on each communicator in a branch that all of its members take
  MPI_Comm d;
  if (n > 1)
    d = sub;
  else
    d = world;
  MPI_Barrier(d);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: the communicator of 'MPI_Barrier' differs between ranks; every rank must pass the same communicator or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:15: note: 'd' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:7: note: the value is assigned under this rank-dependent condition
  // CHECK-MESSAGES: :[[@LINE-20]]:3: note: 'n' is the size of 'sub' from 'MPI_Comm_size'; only the ranks that share one 'sub' agree on it
  // CHECK-MESSAGES: :[[@LINE-22]]:3: note: each part of the split by 'MPI_Comm_split' here gets its own communicator
  // CHECK-MESSAGES: :[[@LINE-25]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-7]]:15: note: pick the communicator by a value that is the same on every rank, or call 'MPI_Barrier' on each communicator in a branch that all of its members take
}

// Negative: each rank's own part either way, a split's or its own alone.
void part_or_self(MPI_Comm world, double v) {
  int rank, n;
  MPI_Comm_rank(world, &rank);
  MPI_Comm sub, odds, evens;
  MPI_Comm_split(world, rank < 3 ? 0 : rank, rank, &sub);
  MPI_Comm_size(sub, &n);
  double out;
  MPI_Comm c = n > 1 ? sub : MPI_COMM_SELF;
  MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_SUM, c);
  MPI_Comm d;
  if (n > 1)
    d = sub;
  else
    d = MPI_COMM_SELF;
  MPI_Barrier(d);
  MPI_Comm_split(world, rank % 2, rank, &odds);
  MPI_Comm_split(world, rank % 2, rank, &evens);
  MPI_Barrier(rank % 2 ? odds : evens);
}

// A communicator kept in a struct beside its colour (set 8 f04): a function
// handed the struct that branches on the colour field runs each arm on
// whole groups, so the arms' orders and roots are compared within a group
// only.
struct Decomp {
  MPI_Comm group;
  int wrank, grank, gsize, color;
};

static void distribute(const Decomp &d, double *dt, int *n) {
  // Negative: every member of a group takes the same arm.
  if (d.color == 0) {
    MPI_Bcast(dt, 1, MPI_DOUBLE, 0, d.group);
    MPI_Bcast(n, 1, MPI_INT, 0, d.group);
  } else {
    MPI_Bcast(n, 1, MPI_INT, d.gsize - 1, d.group);
    MPI_Bcast(dt, 1, MPI_DOUBLE, d.gsize - 1, d.group);
  }
  // Positive beside it: the rank in the group splits the group's members.
  if (d.grank == 0)
    MPI_Barrier(d.group);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'd.grank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'd.grank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-14]]:38: note: parameter 'd.grank' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE+9]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

void split_in_struct(MPI_Comm world, double *dt, int *n) {
  Decomp d;
  MPI_Comm_rank(world, &d.wrank);
  d.color = d.wrank % 2;
  MPI_Comm_split(world, d.color, d.wrank, &d.group);
  MPI_Comm_rank(d.group, &d.grank);
  MPI_Comm_size(d.group, &d.gsize);
  distribute(d, dt, n);
}

// Process-group objects: a class whose constructor splits its one
// communicator field gives each object its own communicator, shared by the
// ranks its construction's colour says (`loss` only by the last stage).
class Group {
public:
  Group(MPI_Comm parent, int color, int key) { MPI_Comm_split(parent, color, key, &comm_); }
  bool member() const { return comm_ != MPI_COMM_NULL; }
  void sum(double *v) const { MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_DOUBLE, MPI_SUM, comm_); }

private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

class Stage {
public:
  Stage(int stage, int stages) : stage_(stage), stages_(stages) {}
  bool last() const { return stage_ == stages_ - 1; }
  void step() { ++steps_; }

private:
  int stage_, stages_, steps_ = 0;
};

class RotatingStage {
public:
  RotatingStage(int stage, int stages) : stage_(stage), stages_(stages) {}
  bool last() const { return stage_ == stages_ - 1; }
  void advance() { stage_ = (stage_ + 1) % stages_; }

private:
  int stage_, stages_;
};

// Negative: only the members of 'loss' reduce on it; 'stage' runs the
// reduction of the ranks of one stage, under a test of that stage
// ('step' changes no field 'last' reads).
void pipeline_groups(MPI_Comm world, double *v) {
  int rank, size;
  MPI_Comm_rank(world, &rank);
  MPI_Comm_size(world, &size);
  const int stages = size >= 2 ? 2 : 1;
  const int s = rank % stages;
  Group stage_group(world, s, rank);
  Group loss(world, s == stages - 1 ? 0 : MPI_UNDEFINED, rank);
  Stage st(s, stages);
  st.step();
  stage_group.sum(v);
  if (loss.member())
    loss.sum(v);
  if (st.last())
    stage_group.sum(v);
}

// Positive: the members of 'loss' are not all the ranks of a stage group.
void wrong_group(MPI_Comm world, double *v) {
  int rank, size;
  MPI_Comm_rank(world, &rank);
  MPI_Comm_size(world, &size);
  const int s = rank % 2;
  Group stage_group(world, s, rank);
  Group loss(world, s == 1 && rank < 4 ? 0 : MPI_UNDEFINED, rank);
  if (loss.member())
    stage_group.sum(v);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'Group::sum' (which calls 'MPI_Allreduce') runs only on ranks where 'loss.member()'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-57]]:31: note: 'MPI_Allreduce' is called here, inside 'Group::sum'
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'loss.member()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-61]]:48: note: each part of the split by 'MPI_Comm_split' here gets its own communicator
  // CHECK-MESSAGES: :[[@LINE-29]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-7]]:7: note: for example, in a job of 6 ranks, rank 1 calls 'MPI_Allreduce' and rank 5 does not
  // CHECK-MESSAGES: :[[@LINE-7]]:5: note: call 'Group::sum' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: 'advance' moves the object to another stage, so 'last' is no
// longer the stage the group was split by.
void moved_stage(MPI_Comm world, double *v) {
  int rank;
  MPI_Comm_rank(world, &rank);
  const int s = rank % 2;
  Group stage_group(world, s, rank);
  RotatingStage st(s, 2);
  st.advance();
  if (st.last())
    stage_group.sum(v);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'Group::sum' (which calls 'MPI_Allreduce') runs only on ranks where 'st.last()'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-77]]:31: note: 'MPI_Allreduce' is called here, inside 'Group::sum'
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'st.last()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'Group::sum' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

class ExternStage {
public:
  explicit ExternStage(int stage) : stage_(stage) {}
  bool last() const { return stage_ == 1; }
  void advance(); // defined elsewhere: it may move the stage

private:
  int stage_;
};

// Positive: 'advance' is not visible here, so 'last' may test another stage.
void moved_elsewhere(MPI_Comm world, double *v) {
  int rank;
  MPI_Comm_rank(world, &rank);
  const int s = rank % 2;
  Group stage_group(world, s, rank);
  ExternStage st(s);
  st.advance();
  if (st.last())
    stage_group.sum(v);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'Group::sum' (which calls 'MPI_Allreduce') runs only on ranks where 'st.last()'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-104]]:31: note: 'MPI_Allreduce' is called here, inside 'Group::sum'
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'st.last()' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'Group::sum' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// The size of a communicator a caller splits is the same on all its members,
// and so are the loop counters it bounds: the early return is taken by all
// of them or by none (MPICH's allgatherv4).
int sized_by_members(MPI_Comm comm, long bytes) {
  int np;
  MPI_Comm_size(comm, &np);
  for (int i = 0; i < np; i++)
    for (int j = 0; j < i; j++) {
      if (i + j >= np)
        continue;
      if (bytes > 100)
        return 1;
    }
  MPI_Barrier(comm);
  return 0;
}

// Positive: the loop also stops on the rank, so some members return.
int sized_and_ranked(MPI_Comm comm, long bytes) {
  int np, r;
  MPI_Comm_size(comm, &np);
  MPI_Comm_rank(comm, &r);
  for (int i = 0; i < np && r < 2; i++) {
    if (i + 1 >= np)
      continue;
    if (bytes > 100)
      return 1;
  }
  MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'i < np && r < 2', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: ranks where 'i < np && r < 2' return here
  // CHECK-MESSAGES: :[[@LINE-9]]:19: note: 'i < np && r < 2' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
  return 0;
}

void split_callers(MPI_Comm world) {
  int rank, size;
  MPI_Comm half;
  MPI_Comm_rank(world, &rank);
  MPI_Comm_size(world, &size);
  MPI_Comm_split(world, rank == size - 1 ? 0 : 1, 0, &half);
  if (rank < size - 1) {
    sized_by_members(half, 5);
    sized_and_ranked(half, 5);
  }
}

// An I/O aggregator helper that the members of `io` call: its reduce on
// `io` is theirs alone, its barrier on the whole job is not, and the warning
// names the barrier.
static void aggregate(MPI_Comm io, MPI_Comm world, double *buf) {
  MPI_Reduce(MPI_IN_PLACE, buf, 4, MPI_DOUBLE, MPI_SUM, 0, io);
  MPI_Barrier(world);
}

static void aggregate_members(MPI_Comm io, double *buf) {
  MPI_Reduce(MPI_IN_PLACE, buf, 4, MPI_DOUBLE, MPI_SUM, 0, io);
  MPI_Barrier(io);
}

void write_checkpoint(double *buf) {
  int rank;
  MPI_Comm io;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 4 == 0 ? 1 : MPI_UNDEFINED, rank, &io);
  // Negative: every collective of the helper is on `io`.
  if (io != MPI_COMM_NULL)
    aggregate_members(io, buf);
  // Positive beside it.
  if (io != MPI_COMM_NULL)
    aggregate(io, MPI_COMM_WORLD, buf);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'aggregate' (which calls 'MPI_Barrier') runs only on ranks where 'io != MPI_COMM_NULL'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-20]]:3: note: 'MPI_Barrier' is called here, inside 'aggregate'
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'io != MPI_COMM_NULL' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-10]]:3: note: each part of the split by 'MPI_Comm_split' here gets its own communicator
  // CHECK-MESSAGES: :[[@LINE-12]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-6]]:5: note: call 'aggregate' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the root is computed from the row, the split's colour: every
// member of a row passes the same one.
void row_broadcast(double *x, int q) {
  int rank;
  MPI_Comm row;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int my_row = rank / q;
  MPI_Comm_split(MPI_COMM_WORLD, my_row, rank, &row);
  MPI_Bcast(x, 8, MPI_DOUBLE, my_row % q, row);
}

// Positive: the same root taken from the rank differs inside a row.
void column_root_in_row(double *x, int q) {
  int rank;
  MPI_Comm row;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int my_row = rank / q;
  MPI_Comm_split(MPI_COMM_WORLD, my_row, rank, &row);
  MPI_Bcast(x, 8, MPI_DOUBLE, rank % q, row);
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: the root of 'MPI_Bcast' differs between ranks; every rank must pass the same root or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:31: note: 'rank % q' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:31: note: compute the root from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// Negative: a loop counter as the root. Every member of a row runs the loop
// as often as the others (the bound is the colour) from the same start, so
// they count alike.
void row_rounds(double *x, int q) {
  int rank;
  MPI_Comm row;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int my_row = rank / q;
  MPI_Comm_split(MPI_COMM_WORLD, my_row, rank, &row);
  for (int k = 0; k <= my_row; ++k)
    MPI_Bcast(x, 8, MPI_DOUBLE, k, row);
}

// Positive: the same trip count on every member, but counted from the
// column: the members pass different roots in each round.
void column_rounds(double *x, int q) {
  int rank;
  MPI_Comm row;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int my_row = rank / q, my_col = rank % q;
  MPI_Comm_split(MPI_COMM_WORLD, my_row, rank, &row);
  for (int k = my_col; k < my_col + 2; ++k)
    MPI_Bcast(x, 8, MPI_DOUBLE, k, row);
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: the root of 'MPI_Bcast' differs between ranks; every rank must pass the same root or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:33: note: 'k' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:33: note: compute the root from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// Positive: the same counter, but a helper may move it on some members.
static void skip_ahead(int &k, int by) {
  if (k == 0)
    k += by;
}

void row_rounds_skipped(double *x, int q) {
  int rank;
  MPI_Comm row;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int my_row = rank / q;
  MPI_Comm_split(MPI_COMM_WORLD, my_row, rank, &row);
  for (int k = 0; k <= my_row; ++k) {
    skip_ahead(k, rank % q);
    MPI_Bcast(x, 8, MPI_DOUBLE, k, row);
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: the root of 'MPI_Bcast' differs between ranks; every rank must pass the same root or the job hangs or computes garbage [lockstep-rank-argument]
    // CHECK-MESSAGES: :[[@LINE-2]]:33: note: 'k' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:33: note: compute the root from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
  }
}

// A helper that only this file calls, handed the node communicator or the
// node rank and the leaders' communicator: its own test of the node rank is
// the membership of 'leaders' its caller made.
static void allreduce_leaders_by_rank(float *b, int n, int node_rank, MPI_Comm leaders) {
  if (node_rank == 0)
    MPI_Allreduce(MPI_IN_PLACE, b, n, MPI_FLOAT, MPI_SUM, leaders);
}

static void allreduce_leaders_by_node(float *b, int n, MPI_Comm node, MPI_Comm leaders) {
  int node_rank;
  MPI_Comm_rank(node, &node_rank);
  if (node_rank == 0)
    MPI_Allreduce(MPI_IN_PLACE, b, n, MPI_FLOAT, MPI_SUM, leaders);
}

// Positive: the same test before a collective on the world.
static void allreduce_world_by_rank(float *b, int n, int node_rank, MPI_Comm world) {
  if (node_rank == 0)
    MPI_Allreduce(MPI_IN_PLACE, b, n, MPI_FLOAT, MPI_SUM, world);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs only on ranks where 'node_rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'node_rank == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:58: note: parameter 'node_rank' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE+10]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative (the first two helpers): they run only on the leaders.
void hierarchical_allreduce(float *b, int n) {
  int rank, node_rank;
  MPI_Comm node, leaders;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_split(MPI_COMM_WORLD, node_rank == 0 ? 0 : MPI_UNDEFINED, rank, &leaders);
  allreduce_leaders_by_rank(b, n, node_rank, leaders);
  allreduce_leaders_by_node(b, n, node, leaders);
  allreduce_world_by_rank(b, n, node_rank, MPI_COMM_WORLD);
}

// A communicator kept in a struct by aggregate initialization: the field
// holds the split's handle, so its members are the split's.
struct TiedWeights {
  MPI_Comm comm;
  float grad = 0;
  void sync() { MPI_Allreduce(MPI_IN_PLACE, &grad, 1, MPI_FLOAT, MPI_SUM, comm); }
};

// Negative: the first and the last rank are the members, and they sync.
void tied_members(int rank, int size) {
  bool first = rank == 0, last = rank == size - 1;
  MPI_Comm ends;
  MPI_Comm_split(MPI_COMM_WORLD, (first || last) ? 0 : MPI_UNDEFINED, rank, &ends);
  TiedWeights tied{ends};
  if (first || last)
    tied.sync();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'TiedWeights::sync' (which calls 'MPI_Allreduce') runs only on ranks where 'first || last'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-12]]:17: note: 'MPI_Allreduce' is called here, inside 'TiedWeights::sync'
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'first || last' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-10]]:23: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'TiedWeights::sync' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: only the first of the two members syncs.
void tied_first_only(int rank, int size) {
  bool first = rank == 0, last = rank == size - 1;
  MPI_Comm ends;
  MPI_Comm_split(MPI_COMM_WORLD, (first || last) ? 0 : MPI_UNDEFINED, rank, &ends);
  TiedWeights tied{ends};
  if (first)
    tied.sync();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'TiedWeights::sync' (which calls 'MPI_Allreduce') runs only on ranks where 'first'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-27]]:17: note: 'MPI_Allreduce' is called here, inside 'TiedWeights::sync'
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'first' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-10]]:26: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'TiedWeights::sync' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// A value-initialized object (`TiedWeights{}`) binds no communicator: the
// one above still holds only the split's handle.
static TiedWeights unbound_weights() { return TiedWeights{}; }
#include <vector>

// A communicator a constructor keeps in a field (`: comm_(comm)`): the
// field holds the split's handle the construction passes.
class TiedEmbedding {
public:
  TiedEmbedding(MPI_Comm comm, int n) : comm_(comm), grad_(n) {}
  void sync() {
    MPI_Allreduce(MPI_IN_PLACE, grad_.data(), (int)grad_.size(), MPI_FLOAT, MPI_SUM, comm_);
  }

private:
  MPI_Comm comm_;
  std::vector<float> grad_;
};

void embedding_sync(int rank, int stages) {
  bool first = rank == 0, last = rank == stages - 1;
  MPI_Comm ends;
  MPI_Comm_split(MPI_COMM_WORLD, (first || last) ? 0 : MPI_UNDEFINED, rank, &ends);
  TiedEmbedding tied(ends, 64);
  // Negative: the first and the last stage are the members, and they sync.
  if (first || last)
    tied.sync();
  // Positive: only the last stage syncs.
  if (last)
    tied.sync();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'TiedEmbedding::sync' (which calls 'MPI_Allreduce') runs only on ranks where 'last'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-20]]:5: note: 'MPI_Allreduce' is called here, inside 'TiedEmbedding::sync'
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'last' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-14]]:25: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'TiedEmbedding::sync' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// A handle that only ever copies another (a local, or the field of a small
// wrapper given it by braces) is that communicator: the members of a group
// that made it in their own branch make its collectives too.
struct GroupComm {
  MPI_Comm c;
  int sum(int v) const {
    int out = 0;
    MPI_Allreduce(&v, &out, 1, MPI_INT, MPI_SUM, c);
    return out;
  }
};

void first_half_sums(int rank, int size) {
  const int half = size / 2 > 0 ? size / 2 : 1;
  if (rank < half) {
    MPI_Group world, first;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int range[1][3] = {{0, half - 1, 1}};
    MPI_Group_range_incl(world, 1, range, &first);
    MPI_Comm sub;
    MPI_Comm_create_group(MPI_COMM_WORLD, first, 0, &sub);
    // Negative: only the members made 'sub', and they use its copies.
    GroupComm{sub}.sum(1);
    MPI_Comm alias = sub;
    MPI_Barrier(alias);
    // Positive: a copy used by some members only.
    if (rank == 0)
      MPI_Barrier(alias);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Barrier' runs only on ranks where 'rank == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
      // CHECK-MESSAGES: :[[@LINE-3]]:9: note: 'rank == 0' differs between ranks
      // CHECK-MESSAGES: :[[@LINE-18]]:26: note: 'rank' is taken to hold the rank because of its name (rank_pattern in the lockstep rules)
      // CHECK-MESSAGES: :[[@LINE-4]]:7: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
    MPI_Comm_free(&sub);
  }
}

// Negative: a communicator each rank makes on MPI_COMM_SELF is its own,
// even where every rank made it by the same call.
void self_barriers(int rank) {
  MPI_Comm mine;
  MPI_Comm_dup(MPI_COMM_SELF, &mine);
  if (rank == 0)
    MPI_Barrier(mine);
  MPI_Comm_free(&mine);
}

// A colour field as a root (probe50): every member of a part holds the same
// colour, so it agrees among them (negative); written again after the split
// it is the rank's own value, which does not (positive).
struct Panel {
  MPI_Comm col;
  int mycol;
};
struct RowPanel {
  MPI_Comm row;
  int myrow;
};

void diagonal_broadcast(MPI_Comm world, double *diag, int nb, int q) {
  int rank;
  MPI_Comm_rank(world, &rank);
  Panel p;
  p.mycol = rank % q;
  MPI_Comm_split(world, p.mycol, rank, &p.col);
  MPI_Bcast(diag, nb, MPI_DOUBLE, p.mycol, p.col);
  RowPanel r;
  r.myrow = rank / q;
  MPI_Comm_split(world, r.myrow, rank, &r.row);
  r.myrow = rank;
  MPI_Bcast(diag, nb, MPI_DOUBLE, r.myrow, r.row);
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: the root of 'MPI_Bcast' differs between ranks; every rank must pass the same root or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:35: note: 'r.myrow' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-12]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:35: note: compute the root from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// A colour set by a setter that runs again after the split, or given by a
// braced list and then assigned, is no longer the colour (positive, both).
struct SetterPanel {
  MPI_Comm col;
  int mycol;
};
static void set_column(SetterPanel *p, int c) { p->mycol = c; }
struct ListedPanel {
  MPI_Comm col;
  int mycol;
};

void reused_colour(MPI_Comm world, double *diag, int nb, int q) {
  int rank;
  MPI_Comm_rank(world, &rank);
  SetterPanel p;
  set_column(&p, rank % q);
  MPI_Comm_split(world, p.mycol, rank, &p.col);
  set_column(&p, rank);
  MPI_Bcast(diag, nb, MPI_DOUBLE, p.mycol, p.col);
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: the root of 'MPI_Bcast' differs between ranks; every rank must pass the same root or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:35: note: 'p.mycol' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:35: note: compute the root from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
  ListedPanel l = {MPI_COMM_NULL, rank % q};
  MPI_Comm_split(world, l.mycol, rank, &l.col);
  l.mycol = rank;
  MPI_Bcast(diag, nb, MPI_DOUBLE, l.mycol, l.col);
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: the root of 'MPI_Bcast' differs between ranks; every rank must pass the same root or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:35: note: 'l.mycol' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-16]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:35: note: compute the root from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}
