// Includes a vendored header (through a relative -I) whose inline function
// has a finding: --header-filter and --exclude decide whether it is reported.
#include "vendor/flush.h"
#include "vendor/vendor.h"

void step(MPI_Comm comm) { vendor_sync(comm); }
