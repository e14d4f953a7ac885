// The communicators of the job: one per node, and one across the nodes for
// each local rank (issue 14, pattern 6, across files).
#include "comms.h"

static MPI_Comm g_cross = MPI_COMM_NULL;
static int g_local_rank = 0;

void init_comms(MPI_Comm world) {
  int rank;
  MPI_Comm_rank(world, &rank);
  MPI_Comm node;
  MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &g_local_rank);
  MPI_Comm_split(world, g_local_rank, rank, &g_cross);
}

MPI_Comm cross_node_comm() { return g_cross; }
int local_rank() { return g_local_rank; }
