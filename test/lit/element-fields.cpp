// RUN: %clang_tidy --checks='-*,lockstep-*' %s -- %cxx_flags 2>&1 \
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES
//
// A field of a container's element is a part of that element, apart from
// its other fields. Which element a rank writes or reads counts as much as
// the value: `buckets[owner].touched = true` with a per-rank `owner` leaves
// that field different between ranks, although every rank writes `true`. A
// constant or agreed index does not, and neither do the other fields.
#include <mpi.h>
#include <array>
#include <map>
#include <random>
#include <vector>

struct Bucket {
  int count = 0;
  bool touched = false;
};

static void reduce_touched(std::vector<Bucket> &buckets, MPI_Comm comm) {
  for (Bucket &b : buckets) {
    if (!b.touched)
      continue;
    MPI_Allreduce(MPI_IN_PLACE, &b.count, 1, MPI_INT, MPI_SUM, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' is never reached on ranks where '!b.touched', which continue with the next iteration before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where '!b.touched' continue with the next iteration here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: '!b.touched' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-8]]:49: note: parameter 'buckets' receives a rank-dependent value from a caller
    // CHECK-MESSAGES: :[[@LINE+8]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
  }
}

// Positive: each rank marks the bucket its own sample falls in.
void mark_sampled(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<Bucket> buckets(8);
  std::mt19937 gen(17 + rank);
  for (int t = 0; t < 6; ++t)
    buckets[gen() % 8].touched = true;
  reduce_touched(buckets, comm);
}

// Negative: every rank marks the same buckets.
void mark_every_other(MPI_Comm comm) {
  std::vector<Bucket> buckets(8);
  for (size_t i = 0; i < buckets.size(); i += 2)
    buckets[i].touched = true;
  buckets[1].touched = true;
  reduce_touched(buckets, comm);
}

// Positive: a read at a per-rank index.
void owner_decides(MPI_Comm comm, const std::vector<Bucket> &buckets) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (buckets[rank % 8].touched)
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'buckets[rank % 8].touched'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'buckets[rank % 8].touched' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Negative: the index is agreed first.
void root_decides(MPI_Comm comm, const std::vector<Bucket> &buckets) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int owner = rank % 8;
  MPI_Bcast(&owner, 1, MPI_INT, 0, comm);
  if (buckets[owner].touched)
    MPI_Barrier(comm);
}

struct Slot {
  int used = 0;
  int capacity = 64;
};

// Negative: each rank marks its own slot, and every rank agrees on the
// capacities, which nobody changed.
void capacities_agree(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  Slot slots[8];
  slots[rank % 8].used = 1;
  Slot &mine = slots[(rank + 1) % 8];
  mine.used = 2;
  for (int i = 0; i < slots[3].capacity; ++i)
    MPI_Barrier(comm);
  for (int i = 0; i < 8; ++i)
    if (slots[i].capacity > 0)
      MPI_Barrier(comm);
}

// Positive: the marked field decides.
void used_decides(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  Slot slots[8];
  slots[rank % 8].used = 1;
  if (slots[2].used)
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'slots[2].used'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'slots[2].used' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive and negative: a field at a constant index is replaced on its
// own, the element's other field keeps its per-rank value.
void constant_slot(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<Slot> slots(4);
  slots[0].used = rank;
  slots[0].capacity = rank;
  slots[0].used = 0;
  if (slots[0].used)
    MPI_Barrier(comm);
  if (slots[0].capacity)
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'slots[0].capacity'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'slots[0].capacity' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: on one path the whole element is per-rank, on the other only
// its field is agreed; after the merge the field may hold either.
void refill(MPI_Comm comm, bool reset, int k) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<Slot> slots(8);
  if (reset)
    slots[k].used = 0;
  else
    slots[k] = Slot{rank, 64};
  if (slots[1].used)
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'slots[1].used'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'slots[1].used' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

// Positive: one path writes the element at 3, the other an element a
// parameter picks, per rank; after the merge the element at 3 may hold the
// rank.
void one_or_any(MPI_Comm comm, bool reset, int k) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int marks[8];
  if (reset)
    marks[3] = 0;
  else
    marks[k] = rank;
  if (marks[3])
    MPI_Barrier(comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' runs only on ranks where 'marks[3]'; the other ranks never call it and the job hangs [lockstep-rank-branch]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'marks[3]' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-10]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
}

struct Layer {
  bool trainable = true;
  double local_norm = 0;
  std::vector<float> grad;
};

// Each rank's own norms, field by field: the caller's layers keep their
// other fields.
static void local_norms(std::vector<Layer> &layers, int rank) {
  for (Layer &l : layers)
    l.local_norm = rank * 0.5;
}

// Negative: `trainable` is the same on every rank after local_norms;
// positive: `local_norm` is not.
void train_layers(MPI_Comm comm, std::vector<Layer> &layers) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  local_norms(layers, rank);
  for (Layer &l : layers) {
    if (!l.trainable)
      continue;
    MPI_Allreduce(MPI_IN_PLACE, l.grad.data(), int(l.grad.size()), MPI_FLOAT, MPI_SUM, comm);
  }
  for (Layer &l : layers) {
    if (l.local_norm > 1.0)
      continue;
    MPI_Allreduce(MPI_IN_PLACE, l.grad.data(), int(l.grad.size()), MPI_FLOAT, MPI_SUM, comm);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' is never reached on ranks where 'l.local_norm > 1.0', which continue with the next iteration before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: ranks where 'l.local_norm > 1.0' continue with the next iteration here
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: 'l.local_norm > 1.0' differs between ranks
    // CHECK-MESSAGES: :[[@LINE-14]]:3: note: the rank comes from 'MPI_Comm_rank' here
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: let every rank reach 'MPI_Allreduce' before leaving, or make the decision to leave the same on every rank
  }
}

struct Corner {
  std::array<double, 2> at;
};

// A container inside an element of a container parameter holds what the
// callers' elements hold there.
static void check_corners(const std::vector<Corner> &corners, MPI_Comm comm) {
  if (corners[0].at[1] <= 0.0)
    return;
  MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'corners[0].at[1] <= 0.0', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'corners[0].at[1] <= 0.0' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'corners[0].at[1] <= 0.0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-7]]:54: note: parameter 'corners' receives a rank-dependent value from a caller
  // CHECK-MESSAGES: :[[@LINE+7]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
}

// Positive: each rank's corner lies at its own height.
void own_corners(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<Corner> corners;
  corners.push_back({{0.0, 1.0 * rank}});
  check_corners(corners, comm);
}

struct Panel {
  std::array<double, 2> lo, hi;
  int used = 0;
  int capacity = 64;
  double width() const { return hi[0] - lo[0]; }
  int room() const { return capacity; }
};

// Positive: the panels are made from the rank; a method of one reads them.
void panel_width(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<Panel> panels;
  panels.push_back({{0.0, 0.0}, {1.0 * rank, 1.0}});
  if (panels[0].width() <= 0.0)
    return;
  MPI_Barrier(comm);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is never reached on ranks where 'panels[0].width() <= 0.0', which return before it; the other ranks wait in it and the job hangs [lockstep-rank-exit]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: ranks where 'panels[0].width() <= 0.0' return here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: 'panels[0].width() <= 0.0' differs between ranks
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the rank comes from 'MPI_Comm_rank' here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: let every rank reach 'MPI_Barrier' before leaving, or make the decision to leave the same on every rank
}

// Negative: one field of a panel is marked per rank; the method reads
// another, which every rank agrees on.
void panel_room(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  std::vector<Panel> panels(4);
  panels[rank % 4].used = 1;
  if (panels[0].room() <= 0)
    return;
  MPI_Barrier(comm);
}

// A record put into a container whole (`push_back({rank, 4})`, a braced
// list, `items[0] = Task{...}`) fills the elements field by field: the
// rank's own `owner` differs between ranks, `bytes` does not. A structured
// binding of an element (`auto &[owner, bytes]`, a map's `[name, steps]`)
// is that part of the element.
struct Task {
  int owner;
  int bytes;
};

void records_into_elements() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<Task> pushed;
  pushed.push_back({rank, 4});
  std::vector<Task> listed{{rank, 8}};
  std::vector<Task> assigned(2);
  assigned[0] = Task{rank, 16};
  for (const Task &t : pushed) {
    // Negative: every rank pushed 4 bytes.
    if (t.bytes == 4)
      MPI_Barrier(MPI_COMM_WORLD);
    // Positive beside it: the owner is the rank.
    if (t.owner == 0)
      MPI_Barrier(MPI_COMM_WORLD);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Barrier' runs only on ranks where 't.owner == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
      // CHECK-MESSAGES: :[[@LINE-3]]:9: note: 't.owner == 0' differs between ranks
      // CHECK-MESSAGES: :[[@LINE-15]]:3: note: the rank comes from 'MPI_Comm_rank' here
      // CHECK-MESSAGES: :[[@LINE-4]]:7: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  }
  for (const auto &[owner, bytes] : listed) {
    // Negative: the binding names the element's `bytes`.
    if (bytes == 8)
      MPI_Barrier(MPI_COMM_WORLD);
    // Positive beside it.
    if (owner == 0)
      MPI_Barrier(MPI_COMM_WORLD);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Barrier' runs only on ranks where 'owner == 0'; the other ranks never call it and the job hangs [lockstep-rank-branch]
      // CHECK-MESSAGES: :[[@LINE-3]]:9: note: 'owner == 0' differs between ranks
      // CHECK-MESSAGES: :[[@LINE-27]]:3: note: the rank comes from 'MPI_Comm_rank' here
      // CHECK-MESSAGES: :[[@LINE-4]]:7: note: call 'MPI_Barrier' on every rank: move it out of the branch and keep only the rank-specific work under the condition
  }
  // Negative: the field assigned at a constant index.
  if (assigned[0].bytes == 16)
    MPI_Barrier(MPI_COMM_WORLD);
}

void map_bindings() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::map<int, int> steps_of;
  steps_of[0] = rank;
  std::map<int, int> shared{{0, 3}};
  // Negative: the steps every rank stored.
  for (const auto &[key, steps] : shared)
    for (int s = 0; s < steps; ++s)
      MPI_Barrier(MPI_COMM_WORLD);
  // Positive beside it: the steps this rank stored.
  for (const auto &[key, steps] : steps_of)
    for (int s = 0; s < steps; ++s)
      MPI_Barrier(MPI_COMM_WORLD);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'MPI_Barrier' runs in a loop whose trip count differs between ranks; the ranks that finish first stop calling it and the others hang in it [lockstep-rank-loop]
      // CHECK-MESSAGES: :[[@LINE-3]]:21: note: 's < steps' differs between ranks
      // CHECK-MESSAGES: :[[@LINE-14]]:3: note: the rank comes from 'MPI_Comm_rank' here
      // CHECK-MESSAGES: :[[@LINE-4]]:7: note: agree on the trip count first (an allreduce with MAX or MIN makes it the same on every rank; ranks without data then contribute neutral values)
}
