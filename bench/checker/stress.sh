#!/usr/bin/env bash
# Stress benchmark: the lockstep plugin and `lockstep check` on pathological
# shapes, against a plain parse of the same file.
#
#   bench/checker/stress.sh [-n N] [-k] [SHAPE ...]
#
#   SHAPE  branches, balanced, chain, ternary, sum (each alone in a file), all (the
#          four in one file), ladder (an N-arm else-if ladder: not in the
#          default list); default: branches balanced chain ternary sum all
#   -n N   rank branches / call depth / ?: arms (default 5000)
#   -k     keep the temporary directory (inputs, outputs, stderr of failures)
#
# Environment: REPS (runs per tool and shape, median reported; default 1),
# TIME_LIMIT (seconds per run, default 300), MEM_LIMIT_MB (address space per
# run, default 4096), TARGET_RATIO (2), TARGET_MB (500), LOCKSTEP_PLUGIN,
# LOCKSTEP, CLANG, CLANG_TIDY, MPI_INCLUDE.
#
# Exit status: 0 every target met; 1 a target missed, or a tool crashed, timed
# out, ran out of memory or failed on a shape; 2 the benchmark itself failed.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
N=5000
KEEP=0
REPS=${REPS:-1}
TARGET=${TARGET_RATIO:-2}
TARGET_MB=${TARGET_MB:-500}

usage() { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; }
while getopts "n:kh" opt; do
  case $opt in
    n) N=$OPTARG ;;
    k) KEEP=1 ;;
    h) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
SHAPES=("$@")
((${#SHAPES[@]})) || SHAPES=(branches balanced chain ternary sum all)
for s in "${SHAPES[@]}"; do
  [[ $s =~ ^(branches|balanced|chain|ternary|ladder|sum|all)$ ]] || { echo "stress.sh: unknown shape '$s'" >&2; usage >&2; exit 2; }
done
[[ $N =~ ^[0-9]+$ ]] && ((N >= 2)) || { echo "stress.sh: -n needs an integer >= 2" >&2; exit 2; }
[[ $REPS =~ ^[1-9][0-9]*$ ]] || { echo "stress.sh: REPS must be a positive integer" >&2; exit 2; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-stress.XXXXXX")
if ((KEEP)); then
  trap 'echo "kept: $WORK"' EXIT
else
  trap 'rm -rf "$WORK"' EXIT
fi
source "$HERE/shapes_lib.sh"
shapes_setup "$WORK"

START=$(date +%s)
echo "lockstep stress benchmark  $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
shapes_header
echo "  shapes:    ${SHAPES[*]}; N = $N; $REPS run(s) per tool and shape (median wall, max RSS)"
echo "  targets:   wall <= ${TARGET}x clang -fsyntax-only of the same file, peak RSS < $TARGET_MB MB"
echo

fmt="%-9s %6s  %-15s %8s %7s %7s %6s %7s  %-20s %s\n"
printf "$fmt" shape lines tool "wall s" ratio "RSS MB" "cpu s" "ratio" "found/seeded +other" status
printf "$fmt" "" "" "" "" "(<=${TARGET}x)" "(<$TARGET_MB)" "" "(cpu)" "" ""

MISSED=0 BROKEN=0
declare -A FAILED_ON=() # tool -> the first shape it failed on
for shape in "${SHAPES[@]}"; do
  gshape=$shape
  [[ $shape == all ]] && gshape=stress
  dir="$WORK/$shape"
  mkdir -p "$dir"
  file="$dir/stress_$shape.cpp"
  info=$(python3 "$HERE/generate_shapes.py" "$gshape" "$file" -n "$N") || { echo "stress.sh: generate_shapes.py failed for $shape" >&2; exit 2; }
  lines=$(sed -n 's/.* lines=\([0-9]*\).*/\1/p' <<<"$info")
  write_cdb "$dir" "$file" c++
  echo "$shape: $info" >&2

  echo "  $shape: $REPS x clang -fsyntax-only ..." >&2
  tool_series syntax "$file" c++ "$REPS"
  if [[ $S_STATUS != ok ]]; then
    printf "$fmt" "$shape" "$lines" "syntax-only" "$(w3 "$S_WALL")" - "$(mib "$S_RSS")" "$S_CPU" - - "BENCHMARK FAILED: $S_STATUS (the shape does not parse)"
    BROKEN=1
    continue
  fi
  SYN=$S_WALL SYNCPU=$S_CPU
  printf "$fmt" "$shape" "$lines" "syntax-only" "$(w3 "$SYN")" "1.00" "$(mib "$S_RSS")" "$S_CPU" "1.00" "" ""
  for tool in plugin check; do
    name=$([[ $tool == plugin ]] && echo "plugin" || echo "lockstep check")
    if [[ $shape == all && -n ${FAILED_ON[$tool]:-} ]]; then
      printf "$fmt" "" "" "$name" - - - - - - "SKIPPED (failed on ${FAILED_ON[$tool]})"
      MISSED=1
      continue
    fi
    echo "  $shape: $REPS x $name ..." >&2
    tool_series "$tool" "$file" c++ "$REPS"
    r=$(ratio "$S_WALL" "$SYN"); rc=$(ratio "$S_CPU" "$SYNCPU")
    mb=$(mib "$S_RSS")
    if [[ $S_STATUS != ok ]]; then
      FAILED_ON[$tool]=${FAILED_ON[$tool]:-$shape}
      MISSED=1
      printf "$fmt" "" "" "$name" "$(w3 "$S_WALL")" "$r" "$mb" "$S_CPU" "$rc" - "FAIL: $S_STATUS"
      continue
    fi
    v=$(awk -v r="$r" -v t="$TARGET" -v m="$mb" -v tm="$TARGET_MB" 'BEGIN {
      s = ""; if (r > t) s = s " time"; if (m == "NA" || m >= tm) s = s " memory"
      print s == "" ? "PASS" : "FAIL:" s }')
    [[ $v == PASS ]] || MISSED=1
    printf "$fmt" "" "" "$name" "$(w3 "$S_WALL")" "$r" "$mb" "$S_CPU" "$rc" "$S_FINDINGS" "$v"
  done
  if ((KEEP)); then cp "$WORK/plugin.out" "$dir/plugin.txt" 2>/dev/null; cp "$WORK/findings.json" "$dir/" 2>/dev/null; fi
done

echo
echo "cpu s: user + system seconds (less sensitive to other load than wall time; the verdict uses wall time)"
echo "found/seeded +other: seeded bugs (lines marked // bug[) with a finding on their line, and findings"
echo "  elsewhere; a correct engine finds every seeded bug (branches: each barrier, chain: the call at"
echo "  the top, ternary: the root and the barrier under x > N/2, balanced: none) and nothing else"
echo "load average now: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cpus (shared machine: timings are noisy)"
if ((BROKEN)); then
  echo "VERDICT: BENCHMARK FAILED (a shape did not parse)"
  echo "elapsed: $(($(date +%s) - START)) s"
  exit 2
fi
if ((MISSED)); then
  echo "VERDICT: FAIL (a target missed, or a tool failed on a shape: see the rows)"
else
  echo "VERDICT: PASS (every tool within ${TARGET}x the parse and under $TARGET_MB MB on every shape)"
fi
echo "elapsed: $(($(date +%s) - START)) s"
exit $MISSED
