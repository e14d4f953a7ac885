/* A library's own collectives, built on point-to-point calls and exported
 * from libusercoll.so; test/runtime/rules/usercoll.json names them. */
#ifndef USERCOLL_H
#define USERCOLL_H

#include <mpi.h>

void usercoll_allreduce(double *buf, int count, MPI_Comm comm);
void usercoll_barrier(MPI_Comm comm);

#endif
