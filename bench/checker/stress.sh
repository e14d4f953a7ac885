#!/usr/bin/env bash
# Stress benchmark: the lockstep plugin and `lockstep check` on pathological
# shapes, against a plain parse of the same file.
#
#   bench/checker/stress.sh [-n N] [-k] [SHAPE ...]
#
#   SHAPE  branches, balanced, chain, ternary, sum, breaks (each alone in a
#          file), all (all but sum in one file), ladder (an N-arm else-if
#          ladder: not in the default list); default: branches balanced chain
#          ternary sum breaks all
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

# shellcheck source=SCRIPTDIR/shapes_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/shapes_lib.sh"
bench_tools
N=5000
# The environment's settings (see above), with this benchmark's defaults.
REPS=${REPS:-1} TARGET=${TARGET_RATIO:-2} TARGET_MB=${TARGET_MB:-500}

parse_options n:=N -- "$@"
SHAPES=("${OPERANDS[@]}")
((${#SHAPES[@]})) || SHAPES=(branches balanced chain ternary sum breaks all)
for s in "${SHAPES[@]}"; do
  [[ $s =~ ^(branches|balanced|chain|ternary|ladder|sum|breaks|all)$ ]] || usage_error "unknown shape '$s'"
done
need_at_least "$N" 2 "-n needs an integer >= 2"
need_positive "$REPS" "REPS must be a positive integer"

bench_workdir stress
shapes_setup

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
  generate_shape "$gshape" "$file" "$N" c++ "$shape"
  echo "$shape: $G_INFO" >&2

  echo "  $shape: $REPS x clang -fsyntax-only ..." >&2
  tool_series syntax "$file" c++ "$REPS"
  if [[ $S_STATUS != ok ]]; then
    printf "$fmt" "$shape" "$G_LINES" "syntax-only" "$(w3 "$S_WALL")" - "$(mib "$S_RSS")" "$S_CPU" - - "BENCHMARK FAILED: $S_STATUS (the shape does not parse)"
    BROKEN=1
    continue
  fi
  SYN=$S_WALL SYNCPU=$S_CPU
  printf "$fmt" "$shape" "$G_LINES" "syntax-only" "$(w3 "$SYN")" "1.00" "$(mib "$S_RSS")" "$S_CPU" "1.00" "" ""
  # clang-tidy's own cost on the shape, which every check pays: the plugin's
  # floor, shown for reference (no target).
  echo "  $shape: $REPS x clang-tidy alone ..." >&2
  tool_series tidy "$file" c++ "$REPS"
  TIDYRATIO=NA
  if [[ $S_STATUS == ok ]]; then
    TIDYRATIO=$(ratio "$S_WALL" "$SYN")
    printf "$fmt" "" "" "$(tool_name tidy)" "$(w3 "$S_WALL")" "$TIDYRATIO" "$(mib "$S_RSS")" "$S_CPU" "$(ratio "$S_CPU" "$SYNCPU")" - "(reference)"
  else
    printf "$fmt" "" "" "$(tool_name tidy)" - - - - - - "(reference) failed: $S_STATUS"
  fi
  for tool in plugin check; do
    name=$(tool_name "$tool")
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
    v=$(target_verdict "$r" "$TARGET" "$mb" "$TARGET_MB" below)
    [[ $v == PASS ]] || MISSED=1
    # A plugin over the target where clang-tidy alone already is: say so.
    if [[ $tool == plugin && $v == *time* && $TIDYRATIO != NA ]] &&
      awk -v t="$TIDYRATIO" -v x="$TARGET" 'BEGIN { exit !(t > x) }'; then
      v="$v (clang-tidy alone ${TIDYRATIO}x)"
    fi
    printf "$fmt" "" "" "$name" "$(w3 "$S_WALL")" "$r" "$mb" "$S_CPU" "$rc" "$S_FINDINGS" "$v"
  done
  if ((KEEP)); then cp "$WORK/plugin.out" "$dir/plugin.txt" 2>/dev/null; cp "$WORK/findings.json" "$dir/" 2>/dev/null; fi
done

echo
echo "$CPU_NOTE"
echo "clang-tidy alone: clang-tidy-22 with one stock check (misc-unused-alias-decls), no lockstep: what"
echo "  every check pays. clang-tidy 22 tests each AST node for a system header, which costs the depth"
echo "  of a left-nested operand chain per node (sum: quadratic); --system-headers turns that test off,"
echo "  and lockstep check runs with it off (its analysis skips system headers itself)"
echo "found/seeded +other: seeded bugs (lines marked // bug[) with a finding on their line, and findings"
echo "  elsewhere; a correct engine finds every seeded bug (branches: each barrier, chain: the call at"
echo "  the top, ternary: the root and the barrier under x > N/2, balanced: none) and nothing else"
echo "load average now: $(load_now)"
if ((BROKEN)); then
  echo "VERDICT: BENCHMARK FAILED (a shape did not parse)"
  show_elapsed
  exit 2
fi
if ((MISSED)); then
  echo "VERDICT: FAIL (a target missed, or a tool failed on a shape: see the rows)"
else
  echo "VERDICT: PASS (every tool within ${TARGET}x the parse and under $TARGET_MB MB on every shape)"
fi
show_elapsed
exit $MISSED
