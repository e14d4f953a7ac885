// Does not compile: reported, counted, and the other files are still analysed.
#include <mpi.h>
void broken(MPI_Comm comm) { MPI_Barrier(comm) }
