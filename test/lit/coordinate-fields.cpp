// RUN: %clang_tidy --checks='-*,lockstep-rank-branch,lockstep-rank-argument' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// A process grid's coordinates copied into scalar fields (`g.i =
// coords[0]; g.j = coords[1];`) beside the row and column communicators the
// same function splits off: each field is that coordinate wherever it is
// read, so the members of a column agree on the column index they dropped
// (a root or a test of it lines up with the column), not on the other one.
// A field written again anywhere in the file is no longer the coordinate.
#include <mpi.h>

struct Grid {
  MPI_Comm cart = MPI_COMM_NULL, row = MPI_COMM_NULL, col = MPI_COMM_NULL;
  int i = 0, j = 0; // my coordinates
  int first = 0;    // the row coordinate, until 'transpose' swaps it
};

static void make_grid(Grid &g, int q) {
  int rank, dims[2] = {q, q}, periods[2] = {0, 0}, coords[2];
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &g.cart);
  MPI_Comm_rank(g.cart, &rank);
  MPI_Cart_coords(g.cart, rank, 2, coords);
  g.i = coords[0];
  g.j = coords[1];
  g.first = coords[0];
  int keep_row[2] = {0, 1}, keep_col[2] = {1, 0};
  MPI_Cart_sub(g.cart, keep_row, &g.row); // fixed i, varying j
  MPI_Cart_sub(g.cart, keep_col, &g.col); // fixed j, varying i
}

static void transpose(Grid &g) { g.first = g.j; }

// Negative: the diagonal process of each column broadcasts down it; the
// first row and the first column reduce along themselves.
void diagonal_sweep(Grid &g, double *x) {
  MPI_Bcast(x, 4, MPI_DOUBLE, g.j, g.col);
  if (g.i == 0)
    MPI_Allreduce(MPI_IN_PLACE, x, 4, MPI_DOUBLE, MPI_SUM, g.row);
  if (g.j == 0)
    MPI_Allreduce(MPI_IN_PLACE, x, 4, MPI_DOUBLE, MPI_SUM, g.col);
}

// Positive: the row index differs down a column, and the column index along
// a row.
void crossed_sweep(Grid &g, double *x) {
  MPI_Bcast(x, 4, MPI_DOUBLE, g.i, g.col);
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: the root of 'MPI_Bcast' differs between ranks; every rank must pass the same root or the job hangs or computes garbage [lockstep-rank-argument]
  // CHECK-MESSAGES: :[[@LINE-2]]:31: note: 'g.i' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-4]]:26: note: parameter 'g.i' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE-28]]:3: note: 'coords' is a position in the process grid from 'MPI_Cart_coords'; each rank reads its own
  // CHECK-MESSAGES: :[[@LINE-5]]:31: note: compute the root from values that are the same on every rank: a constant, the world size, or a value broadcast from one rank
  if (g.j == 0)
    MPI_Allreduce(MPI_IN_PLACE, x, 4, MPI_DOUBLE, MPI_SUM, g.row);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs only on ranks where 'g.j == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'g.j == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-11]]:26: note: parameter 'g.j' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE-35]]:3: note: 'coords' is a position in the process grid from 'MPI_Cart_coords'; each rank reads its own
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: 'first' is written again in 'transpose', so it is not the row
// coordinate wherever it is read (here it is the column's).
void transposed_sweep(Grid &g, double *x) {
  if (g.first == 0)
    MPI_Allreduce(MPI_IN_PLACE, x, 4, MPI_DOUBLE, MPI_SUM, g.row);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' runs only on ranks where 'g.first == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'g.first == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-5]]:29: note: parameter 'g.first' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE-47]]:3: note: 'coords' is a position in the process grid from 'MPI_Cart_coords'; each rank reads its own
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: call 'MPI_Allreduce' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  Grid g;
  make_grid(g, 2);
  double x[4] = {};
  diagonal_sweep(g, x);
  crossed_sweep(g, x);
  transpose(g);
  transposed_sweep(g, x);
  MPI_Finalize();
}

// A grid class whose accessor returns a coordinate (`x()` of `coords_[0]`):
// the column keeps dimension 1, so its members share `x()` and the test
// lines up with the column (negative); the row keeps dimension 0, whose
// members differ in `x()` (positive).
class ProcessGrid {
public:
  ProcessGrid() {
    int dims[2] = {0, 0}, periods[2] = {1, 0}, size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart_);
    MPI_Comm_rank(cart_, &rank_);
    MPI_Cart_coords(cart_, rank_, 2, coords_);
    int keep_x[2] = {1, 0}, keep_y[2] = {0, 1};
    MPI_Cart_sub(cart_, keep_x, &row_);
    MPI_Cart_sub(cart_, keep_y, &col_);
  }
  int x() const { return coords_[0]; }
  MPI_Comm row() const { return row_; }
  MPI_Comm col() const { return col_; }

private:
  int coords_[2] = {0, 0}, rank_ = 0;
  MPI_Comm cart_, row_, col_;
};

void column_profile(double *z, int n) {
  ProcessGrid pg;
  if (pg.x() == 0)
    MPI_Gather(z, n, MPI_DOUBLE, z, n, MPI_DOUBLE, 0, pg.col());
}

void row_profile(double *z, int n) {
  ProcessGrid pg;
  if (pg.x() == 0)
    MPI_Gather(z, n, MPI_DOUBLE, z, n, MPI_DOUBLE, 0, pg.row());
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Gather' runs only on ranks where 'pg.x() == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'pg.x() == 0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-26]]:5: note: 'coords_' is a position in the process grid from 'MPI_Cart_coords'; each rank reads its own
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Gather' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}
