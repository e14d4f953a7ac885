// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// Only part of a value is per-rank (issue 14, pattern 4): a returned struct
// whose `offset` alone depends on the rank keeps its `size` the same on
// every rank, whether the function fills a local or returns an initializer
// list, and whether the caller stores the struct or reads the field at once;
// a returned struct's container field keeps its elements apart from its size.
#include <cstddef>
#include <mpi.h>
#include <tuple>
#include <vector>

struct Span {
  std::ptrdiff_t offset;
  std::size_t size;
};

Span partition(int rank, std::size_t total, int parts) {
  Span s;
  s.size = total / parts;
  s.offset = rank * s.size;
  return s;
}

Span slice(int rank, std::size_t total, int parts) {
  return {static_cast<std::ptrdiff_t>(rank * (total / parts)), total / parts};
}

// Negative: the size as a count and as a loop bound.
void by_size(MPI_Comm comm, float *buf, std::size_t total) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  Span mine = partition(rank, total, size);
  MPI_Allreduce(MPI_IN_PLACE, buf, int(mine.size), MPI_FLOAT, MPI_SUM, comm);
  for (std::size_t i = 0; i < mine.size; ++i)
    MPI_Barrier(comm);
  Span other = slice(rank, total, size);
  MPI_Allreduce(MPI_IN_PLACE, buf, int(other.size), MPI_FLOAT, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, buf, int(slice(rank, total, size).size), MPI_FLOAT, MPI_SUM, comm);
}

// Positive: the offset as a count and as a loop bound.
void by_offset(MPI_Comm comm, float *buf, std::size_t total) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  Span mine = partition(rank, total, size);
  MPI_Allreduce(MPI_IN_PLACE, buf, int(mine.offset), MPI_FLOAT, MPI_SUM, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: the count of 'MPI_Allreduce' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:36: note: 'int(mine.offset)' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:36: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
  for (std::ptrdiff_t i = 0; i < mine.offset; ++i)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:30: note: 'i < mine.offset' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-12]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
  MPI_Allreduce(MPI_IN_PLACE, buf, int(slice(rank, total, size).offset), MPI_FLOAT, MPI_SUM, comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: the count of 'MPI_Allreduce' differs between ranks; every rank must pass the same count or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:36: note: 'int(slice(rank, total, size).offset)' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-17]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:36: note: compute the count from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
}

// A context object handed to a function, by reference or by value: each
// field keeps its own dependence when every call passes the struct (here
// made by a function that returns it field by field).
struct Ctx {
  int id;
  int n;
  MPI_Comm comm;
};

static Ctx make_ctx(MPI_Comm comm) {
  Ctx c;
  c.comm = comm;
  MPI_Comm_rank(comm, &c.id);
  MPI_Comm_size(comm, &c.n);
  return c;
}

// Negative: the size and the communicator are the same on every rank.
void sync_by_ref(Ctx &d) {
  if (d.n > 1)
    MPI_Barrier(d.comm);
}
void sync_by_value(Ctx d) {
  if (d.n > 1)
    MPI_Barrier(d.comm);
}

// Positive beside them: the rank field decides.
void root_only(Ctx d) {
  if (d.id == 0)
    MPI_Barrier(d.comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'd.id == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'd.id == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:20: note: parameter 'd.id' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE-22]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

void step(MPI_Comm comm) {
  Ctx c = make_ctx(comm);
  sync_by_ref(c);
  sync_by_value(c);
  root_only(c);
}

// A struct inside a struct (set 7 d02): the communicator of the inner
// `Grid` stays the same on every rank although its `rank` differs, whether
// the caller builds the outer struct with a braced list or the callee reaches
// the inner one through a reference.
struct Grid {
  MPI_Comm comm;
  int rank, size, rows;
};
struct Solver {
  Grid grid;
  double shift;
};

Grid make_grid(MPI_Comm comm) {
  Grid g;
  g.comm = comm;
  MPI_Comm_rank(comm, &g.rank);
  MPI_Comm_size(comm, &g.size);
  g.rows = 8 + g.rank;
  return g;
}

// Negative: the inner communicator and size, directly and through an alias.
void reduce_rows(const Solver &s, double *v) {
  const Grid &g = s.grid;
  MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_DOUBLE, MPI_SUM, s.grid.comm);
  for (int i = 0; i < g.size; ++i)
    MPI_Barrier(g.comm);
}

// Positive beside it: the inner per-rank row count bounds the loop.
void sweep_rows(const Solver &s) {
  for (int i = 0; i < s.grid.rows; ++i)
    MPI_Barrier(s.grid.comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'i < s.grid.rows' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:31: note: parameter 's.grid.rows' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE-21]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}

void solve(MPI_Comm comm, double *v) {
  Solver s{make_grid(comm), 0.5};
  MPI_Barrier(s.grid.comm);
  reduce_rows(s, v);
  sweep_rows(s);
}

// A returned struct's container field keeps its elements apart from its
// size: the shard's samples differ between ranks, its length does not.
struct Shard {
  int n = 0;
  std::vector<double> x;
};

static Shard make_shard(int rank, int n) {
  Shard s;
  s.n = n;
  s.x.resize(n);
  for (double &v : s.x)
    v = rank * 1.5;
  return s;
}

// Positive: a sample decides.
void first_sample(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  Shard s = make_shard(rank, 4);
  if (s.x[0] > 1.0)
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 's.x[0] > 1.0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 's.x[0] > 1.0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the length decides, and every rank's shard is as long.
void shard_length(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  Shard s = make_shard(rank, 4);
  for (size_t i = 0; i < s.x.size(); ++i)
    MPI_Barrier(comm);
}

// A returned struct's array fields too: the tile's corner differs between
// ranks, its extent does not.
struct Tile {
  int lo[2];
  int extent[2];
};

static Tile make_tile(int rank, int n) {
  Tile t;
  for (int d = 0; d < 2; ++d) {
    t.lo[d] = rank * n;
    t.extent[d] = n;
  }
  return t;
}

// Positive: the corner decides.
void corner_tile(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  Tile t = make_tile(rank, 4);
  if (t.lo[0] == 0)
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 't.lo[0] == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 't.lo[0] == 0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the extent decides, and every rank's tile is as wide.
void tile_extent(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  Tile t = make_tile(rank, 4);
  for (int i = 0; i < t.extent[0]; ++i)
    MPI_Barrier(comm);
}

// The coordinates a helper's MPI_Cart_coords left in the returned grid.
struct CartGrid {
  MPI_Comm comm;
  int dims[2];
  int coords[2];
};

static CartGrid make_cart(MPI_Comm world) {
  CartGrid g{};
  int size, rank, periods[2] = {0, 0};
  MPI_Comm_size(world, &size);
  MPI_Dims_create(size, 2, g.dims);
  MPI_Cart_create(world, 2, g.dims, periods, 1, &g.comm);
  MPI_Comm_rank(g.comm, &rank);
  MPI_Cart_coords(g.comm, rank, 2, g.coords);
  return g;
}

// Positive: the first row alone broadcasts over the whole grid.
void first_row(double *v) {
  CartGrid g = make_cart(MPI_COMM_WORLD);
  if (g.coords[0] == 0)
    MPI_Bcast(v, 1, MPI_DOUBLE, 0, g.comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Bcast' runs only on ranks where 'g.coords[0] == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'g.coords[0] == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: 'g.coords' is a position in the process grid from 'MPI_Cart_coords'; each rank reads its own
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Bcast' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the grid's extent, the same on every rank, bounds the loop.
void each_row(double *v) {
  CartGrid g = make_cart(MPI_COMM_WORLD);
  for (int r = 0; r < g.dims[0]; ++r)
    MPI_Bcast(v, 1, MPI_DOUBLE, r, g.comm);
}

// The bindings of a tuple a function returns, element by element, and of a
// copied array, per-rank where any element is (its elements are not told
// apart).
static std::tuple<int, int, bool> rank_info(MPI_Comm comm) {
  int r, s;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &s);
  return std::make_tuple(r, s, r == 0);
}

// Positive: the root flag of the tuple decides.
void tuple_root(MPI_Comm comm) {
  auto [rank, size, root] = rank_info(comm);
  if (root)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'root'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'root' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-12]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the size the same tuple holds.
void tuple_size(MPI_Comm comm) {
  auto [rank, size, root] = rank_info(comm);
  for (int i = 0; i < size; ++i)
    MPI_Barrier(comm);
}

// Negative: a tuple of values the same on every rank.
void tuple_uniform(MPI_Comm comm, int n) {
  auto [steps, every] = std::make_tuple(n, 10);
  for (int i = 0; i < steps; i += every)
    MPI_Barrier(comm);
}

// Positive: the first element of a copied array holds the rank; negative:
// an array of the same values everywhere.
void array_binding(MPI_Comm comm, int n) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int mine[2] = {rank, n};
  auto [first, count] = mine;
  if (first == 0)
    MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'first == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'first == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  int shared[2] = {n, 2 * n};
  auto [lo, hi] = shared;
  for (int i = lo; i < hi; ++i)
    MPI_Barrier(comm);
}
