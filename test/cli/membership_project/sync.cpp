// Uses the communicators of comms.cpp through their accessors.
#include "comms.h"

// Quiet: only the members of one cross-node communicator meet in it, and
// they share the local rank the condition tests.
void sync_across_nodes(bool homogeneous, float *v, int n) {
  if (homogeneous || local_rank() == 0)
    MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_FLOAT, MPI_SUM, cross_node_comm());
}

// Reported: every rank of the job takes part in MPI_COMM_WORLD.
void sync_world(bool homogeneous, float *v, int n) {
  if (homogeneous || local_rank() == 0)
    MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}
