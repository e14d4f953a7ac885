#pragma once
#include <mpi.h>

void init_comms(MPI_Comm world);
MPI_Comm cross_node_comm();
int local_rank();
