#!/usr/bin/env bash
# Is a divergence late in a long run of tiny collectives always caught, and
# how fast? Runs test/runtime/programs/stress.c (rank 1 calls MPI_Barrier
# instead of MPI_Allreduce at call DIVERGE) under `lockstep run --mpi` RUNS
# times for 2 and 4 ranks, and prints per run the outcome, the time from the
# divergence to the diagnosis, the records dropped, and the calls per second
# each rank made (DIVERGE over the wall time from start to diagnosis).
#
#   bash bench/runtime/late_divergence.sh [BUILD_DIR] [CALLS] [DIVERGE] [RUNS] [TIMEOUT]
#
# Defaults: 1000000 calls, divergence at 900000, 20 runs, --timeout 10. A
# run that lockstep has not ended after 600 s is killed and shown as such.
set -euo pipefail
# shellcheck source=SCRIPTDIR/../lib.sh
source "$(dirname "$0")/../lib.sh"
calls=${2:-1000000}
diverge=${3:-900000}
runs=${4:-20}
timeout=${5:-10}
runtime_setup "${1:-$ROOT/build}" "$ROOT/test/runtime/programs/stress.c"

printf '%-6s %-4s %-16s %-9s %14s %10s %14s\n' ranks run outcome at "diagnosis (ms)" dropped "calls/s/rank"
for ranks in 2 4; do
  caught=0
  for run in $(seq "$runs"); do
    start=$(date +%s.%N)
    # A hang that lockstep misses ends here, not in the next run.
    code=0
    timeout -k 5 600 "$LOCKSTEP" run -q -n "$ranks" --mpi --timeout "$timeout" \
      --json "$WORK/out.json" -- "$PROGRAM" "$calls" "$diverge" >/dev/null 2>&1 || code=$?
    end=$(date +%s.%N)
    line=$(python3 - "$WORK/out.json" "$diverge" "$start" "$end" "$code" <<'EOF'
import json, sys
path, diverge, start, end = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
try:
    d = json.load(open(path))
except (OSError, ValueError):  # 124/137: the bench's own 600 s limit ended it
    print(f"no-outcome(exit:{sys.argv[5]}) - - - -"); sys.exit()
v = d["divergence"]
if not v:
    print(f"missed({d['status']}) - - - -"); sys.exit()
seq = v["points"][0]["seq"]
ok = "caught" if seq == diverge else "wrong"
ms = v["detected_after_ms"]  # a stall's includes the stall timeout
dropped = sum(r["dropped_events"] for r in d["ranks"])
rate = diverge / max(1e-9, end - start)
print(f"{ok}:{v['kind']} {seq} {ms:.0f} {dropped} {rate:.0f}")
EOF
)
    rm -f "$WORK/out.json"
    read -r outcome at ms dropped rate <<<"$line"
    [[ $outcome == caught:* ]] && caught=$((caught + 1))
    printf '%-6s %-4s %-16s %-9s %14s %10s %14s\n' "$ranks" "$run" "$outcome" "$at" "$ms" "$dropped" "$rate"
  done
  echo "$ranks ranks: $caught of $runs caught"
done
