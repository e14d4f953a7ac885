#!/usr/bin/env bash
# Benchmark of the lockstep clang-tidy plugin against a plain parse.
#
#   bench/checker/run.sh [-r RUNS] [-k] [N ...]
#
#   N ...    function counts of the generated files (default: 500 1000 2000 4000)
#   -r RUNS  timed runs per tool and file; the median is reported (default:
#            $REPS, else 5)
#   -k       keep the temporary directory with the generated files and logs
#
# Environment: REPS (runs, as -r; -r wins), LOCKSTEP_PLUGIN (default
# build/lib/liblockstep-tidy.so), CLANG (clang-22), CLANG_TIDY (clang-tidy-22),
# TARGET_RATIO (1.10), MPI_INCLUDE (/usr/lib/x86_64-linux-gnu/openmpi/include).
#
# Exit status: 0 both targets met, 1 a target missed, 2 the benchmark itself
# failed (a tool crashed or reported an error, the plugin is missing).
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=SCRIPTDIR/../lib.sh
source "$HERE/../lib.sh"
bench_tools
TARGET=${TARGET_RATIO:-1.10}
RUNS=${REPS:-5}

parse_options r:=RUNS -- "$@"
SIZES=("${OPERANDS[@]}")
((${#SIZES[@]})) || SIZES=(500 1000 2000 4000)
need_positive "$RUNS" "-r (or REPS) needs a positive integer"
need_function_counts "${SIZES[@]}"
need_tools "$CLANG" "$TIDY" python3

# The lit tests include the project's test and public headers too.
CXX_FLAGS=("${FLAGS_cxx[@]}" -I"$ROOT/test/include" -I"$ROOT/include")
CUDA_FLAGS=("${FLAGS_cuda[@]}" -I"$ROOT/test/include")

bench_workdir bench
bench_rss_setup "$WORK"
need_plugin

FAILED=0
RESULTS="$WORK/results.tsv"   # kind label funcs lines syn tidy rss_syn rss_tidy warnings analysis solver alone
: >"$RESULTS"

fail() { echo "FAIL: $*"; FAILED=1; }

# bench KIND LABEL FUNCS FILE FLAGS...   (KIND: startup, gen or lit)
bench() {
  local kind=$1 label=$2 funcs=$3 file=$4
  shift 4
  local flags=("$@") syn=() tid=() alone=() rs=() rt=() ana=() sol=() r lines warn a s
  lines=$(wc -l <"$file")
  echo "  $label: $RUNS x syntax-only + $RUNS x lockstep + $RUNS x clang-tidy alone ..." >&2
  for ((r = 1; r <= RUNS; r++)); do
    # (a) plain parse
    measure "$WORK/syn.out" "$WORK/syn.err" "$CLANG" -fsyntax-only "${flags[@]}" "$file"
    if ((M_RC != 0)) || grep -q 'error:' "$WORK/syn.err"; then
      fail "$label: $CLANG -fsyntax-only exited $M_RC"
      show_errors "$WORK/syn.err"
      return
    fi
    syn+=("$M_WALL"); rs+=("$M_RSS")
    # (b) clang-tidy with the plugin
    measure "$WORK/tidy.out" "$WORK/tidy.err" env LOCKSTEP_STATISTICS=1 "${TIDY_CMD[@]}" "$file" -- "${flags[@]}"
    if ((M_RC != 0)); then
      fail "$label: $TIDY exited $M_RC (crash or error)"
      show_crash "$WORK/tidy.out" "$WORK/tidy.err"
      return
    fi
    if grep -q 'error:' "$WORK/tidy.out" "$WORK/tidy.err"; then
      fail "$label: $TIDY reported errors"
      show_errors "$WORK/tidy.out" "$WORK/tidy.err"
      return
    fi
    tid+=("$M_WALL"); rt+=("$M_RSS")
    # (c) clang-tidy with one stock check and no lockstep: the floor every
    # clang-tidy check pays (its own AST matching and diagnostics).
    measure "$WORK/alone.out" "$WORK/alone.err" "$TIDY" --checks=-*,misc-unused-alias-decls --quiet "$file" -- "${flags[@]}"
    if ((M_RC != 0)); then
      fail "$label: $TIDY alone exited $M_RC"
      show_crash "$WORK/alone.out" "$WORK/alone.err"
      return
    fi
    alone+=("$M_WALL")
    # The analysis' own time and the solver's part of it (LOCKSTEP_STATISTICS).
    read -r a s < <(sed -n 's/^lockstep: statistics: analysis \([0-9.]*\) s, solver \([0-9.]*\) s.*/\1 \2/p' \
      "$WORK/tidy.err" | head -1)
    ana+=("${a:-0}"); sol+=("${s:-0}")
  done
  warn=$(grep -c ': warning: .*\[lockstep-' "$WORK/tidy.out")
  if ((KEEP)); then cp "$WORK/tidy.out" "$WORK/${label//\//_}.tidy.txt"; fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$kind" "$label" "$funcs" "$lines" \
    "$(median "${syn[@]}")" "$(median "${tid[@]}")" \
    "$(maxof "${rs[@]}")" "$(maxof "${rt[@]}")" "$warn" \
    "$(median "${ana[@]}")" "$(median "${sol[@]}")" "$(median "${alone[@]}")" >>"$RESULTS"
}

START=$(date +%s)
echo "lockstep checker benchmark  $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
show_clang
show_tidy
echo "  plugin:    $PLUGIN"
echo "  runs:      $RUNS per tool and file, median reported; peak RSS = max over runs ($RSS_HOW)"
echo "  checks:    $CHECKS"
show_cpus
echo

echo "generating:" >&2
# gen_4.cpp: the prelude and four helpers, i.e. the fixed start-up cost of
# each tool (process start, plugin load, rules, headers).
for n in 4 "${SIZES[@]}"; do
  f="$WORK/gen_$n.cpp"
  info=$(python3 "$HERE/generate.py" "$n" "$f") || cannot_run "generate.py failed for N=$n"
  echo "  gen_$n.cpp: $info" >&2
done

# One untimed run of each tool to warm the page cache (binaries, headers).
"$CLANG" -fsyntax-only "${CXX_FLAGS[@]}" "$WORK/gen_4.cpp" >/dev/null 2>&1
"${TIDY_CMD[@]}" "$WORK/gen_4.cpp" -- "${CXX_FLAGS[@]}" >/dev/null 2>&1

echo "timing:" >&2
bench startup "gen_4.cpp" 4 "$WORK/gen_4.cpp" "${CXX_FLAGS[@]}"
for n in "${SIZES[@]}"; do
  bench gen "gen_$n.cpp" "$n" "$WORK/gen_$n.cpp" "${CXX_FLAGS[@]}"
done
for t in rank-branch.cpp rank-loop.cpp; do
  bench lit "lit/$t" - "$ROOT/test/lit/$t" "${CXX_FLAGS[@]}"
done
if [[ -f $CUDA/include/nccl.h ]]; then
  bench lit "lit/nccl-rank-branch.cu" - "$ROOT/test/lit/nccl-rank-branch.cu" "${CUDA_FLAGS[@]}"
else
  echo "note: $CUDA/include/nccl.h not found, lit/nccl-rank-branch.cu skipped"
fi

echo
awk -F'\t' -v target="$TARGET" '
function mib(k) { return k == "NA" || k == "" ? "NA" : sprintf("%.0f", k / 1024) }
BEGIN {
  fmt = "%-24s %6s %7s %9s %10s %6s %7s %10s %8s %12s %12s %8s %8s %6s\n"
  printf fmt, "file", "funcs", "lines", "syntax s", "lockstep s", "ratio", "alone", "analysis s", "solver s", "ovh ms/1k fn", "marg ms/1k fn", "RSS syn", "RSS tidy", "warns"
  printf fmt, "", "", "", "(median)", "(median)", "", "ratio", "(median)", "(median)", "", "", "MiB", "MiB", ""
}
{
  kind = $1; f = $2; n = $3; syn = $5; tid = $6
  ratio = syn > 0 ? tid / syn : 0
  alone = syn > 0 ? $12 / syn : 0
  ovh = "-"; marg = "-"
  if (kind == "startup") { base_o = tid - syn; base_n = n; have_base = 1 }
  if (kind == "gen") {
    o = (tid - syn) * 1e6 / n          # s per function -> ms per 1000 functions
    ovh = sprintf("%.1f", o)
    if (have_base && n > base_n) marg = sprintf("%.1f", ((tid - syn) - base_o) * 1e6 / (n - base_n))
    gen_n[++ng] = n; gen_o[ng] = o
  }
  if (kind == "startup") ovh = "(start-up)"
  printf fmt, f, n, $4, sprintf("%.3f", syn), sprintf("%.3f", tid), sprintf("%.3f", ratio), sprintf("%.3f", alone), sprintf("%.3f", $10), sprintf("%.3f", $11), ovh, marg, mib($7), mib($8), $9
  if (ratio > worst) { worst = ratio; worst_f = f; worst_alone = alone }
  if (kind == "gen" && ratio > gworst) { gworst = ratio; gworst_f = f }
}
END {
  if (NR == 0) { print "no results"; exit }
  print ""
  if (have_base) printf "fixed start-up overhead of the plugin (gen_4.cpp, lockstep - syntax-only): %.0f ms\n", base_o * 1000
  rv = worst <= target ? "PASS" : "FAIL"
  if (ng) printf "worst ratio (generated files): %.3f (%s)\n", gworst, gworst_f
  printf "worst ratio (all rows):        %.3f (%s)\n", worst, worst_f
  # smallest and largest N among the generated files
  lo = hi = 0
  for (i = 1; i <= ng; i++) {
    if (!lo || gen_n[i] + 0 < gen_n[lo] + 0) lo = i
    if (!hi || gen_n[i] + 0 > gen_n[hi] + 0) hi = i
  }
  if (ng < 2 || lo == hi) {
    lin = "n/a (need two sizes)"; lv = "n/a"
  } else if (gen_o[lo] <= 0 || gen_o[hi] <= 0) {
    lin = sprintf("n/a (overhead within noise: %.1f / %.1f ms per 1k fn)", gen_o[lo], gen_o[hi]); lv = "n/a"
  } else {
    g = gen_o[hi] / gen_o[lo]
    # Super-linear growth is what this guards against: the per-function
    # overhead may fall (fixed start-up cost amortised) but not grow past 2x.
    lv = g <= 2 ? "PASS" : "FAIL"
    note = g < 0.5 ? ", falls with N: start-up cost amortised" : ""
    lin = sprintf("overhead %.1f ms/1k fn at N=%d -> %.1f at N=%d, x%.2f (limit 2x%s): %s", gen_o[lo], gen_n[lo], gen_o[hi], gen_n[hi], g, note, lv)
  }
  # A miss where clang-tidy alone already is over the target: say so.
  if (rv == "FAIL" && worst_alone > target) rv = sprintf("FAIL (clang-tidy alone %.3f)", worst_alone)
  printf "VERDICT: worst ratio %.3f (%s) vs target %s: %s; linearity: %s\n", worst, worst_f, target, rv, lin
  if (rv ~ /^FAIL/ || lv == "FAIL") exit 1
}' "$RESULTS"
VERDICT_RC=$?

show_elapsed
if ((FAILED)); then
  echo "BENCHMARK FAILED: see the FAIL lines above (missing rows were not measured)"
  exit 2
fi
exit $VERDICT_RC
