#pragma once
#include <mpi.h>

inline void vendor_flush(MPI_Comm comm) { MPI_Barrier(comm); }
