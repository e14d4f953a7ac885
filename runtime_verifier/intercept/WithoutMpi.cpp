// The MPI hooks of the sender when the interposer is built without MPI (a GPU
// node with NCCL alone): no MPI job can be left open or ended from inside.
#include "State.h"

namespace lockstep::rt {

bool mpiLeftOpen() { return false; }

void mpiAbortJob(int /*Code*/) {}

} // namespace lockstep::rt
