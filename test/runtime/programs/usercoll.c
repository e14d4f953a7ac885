/* Sum to rank 0, then back to everyone: MPI_Send and MPI_Recv only. */
#include "usercoll.h"

#include <stdlib.h>

void usercoll_allreduce(double *buf, int count, MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  double *part = malloc(sizeof(double) * (size_t)count);
  if (rank == 0) {
    for (int peer = 1; peer < size; ++peer) {
      MPI_Recv(part, count, MPI_DOUBLE, peer, 7, comm, MPI_STATUS_IGNORE);
      for (int i = 0; i < count; ++i)
        buf[i] += part[i];
    }
    for (int peer = 1; peer < size; ++peer)
      MPI_Send(buf, count, MPI_DOUBLE, peer, 8, comm);
  } else {
    MPI_Send(buf, count, MPI_DOUBLE, 0, 7, comm);
    MPI_Recv(buf, count, MPI_DOUBLE, 0, 8, comm, MPI_STATUS_IGNORE);
  }
  free(part);
}

void usercoll_barrier(MPI_Comm comm) {
  double token = 0;
  usercoll_allreduce(&token, 1, comm);
}
