#!/usr/bin/env bash
# Added latency of the interposer per intercepted collective (an 8-byte
# MPI_Allreduce, one call at a time) and memory per rank, with and without
# lockstep. Not a test: figures depend on the machine; run it on an idle one.
#
#   bash bench/runtime/bench.sh [BUILD_DIR] [ITERATIONS] [REPEATS]
set -euo pipefail
# shellcheck source=SCRIPTDIR/../lib.sh
source "$(dirname "$0")/../lib.sh"
iterations=${2:-200000}
repeats=${3:-5}
runtime_setup "${1:-$ROOT/build}" "$ROOT/bench/runtime/allreduce_latency.c"

# One line "median_ns p99_ns peak_kb" per run; the median run is reported.
latency_runs() { # ranks with|without
  local ranks=$1 how=$2
  for _ in $(seq "$repeats"); do
    if [ "$how" = with ]; then
      "$LOCKSTEP" run -q -n "$ranks" --mpi -- "$PROGRAM" "$iterations" | sed 's/^\[rank 0\] //'
    else
      mpirun -np "$ranks" --oversubscribe "$PROGRAM" "$iterations"
    fi
  done | sort -n | awk -v n="$repeats" 'NR == int((n + 1) / 2)'
}

printf '%-34s %12s %12s %14s\n' "8-byte MPI_Allreduce, $iterations calls" "median (ns)" "p99 (ns)" "peak RSS (KiB)"
for ranks in 2 1; do
  read -r m0 p0 k0 < <(latency_runs "$ranks" without)
  read -r m1 p1 k1 < <(latency_runs "$ranks" with)
  printf '%-34s %12s %12s %14s\n' "$ranks rank(s), plain mpirun" "$m0" "$p0" "$k0"
  printf '%-34s %12s %12s %14s\n' "$ranks rank(s), lockstep run --mpi" "$m1" "$p1" "$k1"
  printf '%-34s %12s %12s %14s\n' "$ranks rank(s), added by lockstep" "$((m1 - m0))" "$((p1 - p0))" "$((k1 - k0))"
done
echo "(1 rank: the collective itself costs almost nothing, so the difference is the interposer's own path)"
