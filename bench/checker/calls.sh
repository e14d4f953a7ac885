#!/usr/bin/env bash
# "calls" benchmark: the lockstep plugin on a C file of N functions, each
# reading the rank, branching on it with the same collectives in every arm,
# calling the three previous functions and allreducing (no bug), against a
# plain parse; cost per line at two sizes and its growth.
#
#   bench/checker/calls.sh [-c] [-k] [N ...]
#
#   N ...  function counts (default 800 3200: about 17k and 68k lines)
#   -c     also time `lockstep check` (the file as a one-unit project, --jobs 1)
#   -k     keep the temporary directory
#
# Environment: REPS (runs per tool and size, interleaved, median reported;
# default 5), TARGET_RATIO (1.10), GROWTH_LIMIT (1.10), TIME_LIMIT (seconds
# per run, default 300), MEM_LIMIT_MB (address space per run, default 4096),
# LOCKSTEP_PLUGIN, LOCKSTEP, CLANG, CLANG_TIDY, MPI_INCLUDE.
#
# Exit status: 0 both targets met; 1 a target missed, or a tool crashed,
# timed out or ran out of memory; 2 the benchmark itself failed.
set -uo pipefail

# shellcheck source=SCRIPTDIR/shapes_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/shapes_lib.sh"
bench_tools
# The environment's settings (see above), with this benchmark's defaults.
REPS=${REPS:-5} TARGET=${TARGET_RATIO:-1.10} GROWTH=${GROWTH_LIMIT:-1.10}

parse_options c=WITH_CHECK -- "$@"
SIZES=("${OPERANDS[@]}")
((${#SIZES[@]})) || SIZES=(800 3200)
need_function_counts "${SIZES[@]}"
need_positive "$REPS" "REPS must be a positive integer"

bench_workdir calls
shapes_setup
TOOLS=(syntax plugin)
((WITH_CHECK)) && TOOLS+=(check)

START=$(date +%s)
echo "lockstep calls benchmark  $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
shapes_header
echo "  sizes:     ${SIZES[*]} functions; $REPS runs per tool and size, interleaved, median reported"
echo "  targets:   plugin <= ${TARGET}x clang -fsyntax-only; growth of the checks' cost per line from the"
echo "             smallest to the largest N about 1.0 (limit ${GROWTH})"
echo

RESULTS="$WORK/results.tsv" # n lines tool wall rss findings status walls cpu name
: >"$RESULTS"
BROKEN=0
for n in "${SIZES[@]}"; do
  dir="$WORK/calls_$n"
  mkdir -p "$dir"
  file="$dir/calls_$n.c"
  generate_shape calls "$file" "$n" c "N=$n"
  echo "calls_$n.c: $G_INFO" >&2
  interleaved_series "N=$n " "$file" c "$REPS" "${TOOLS[@]}"
  for t in "${TOOLS[@]}"; do
    # shellcheck disable=SC2086,SC2116 # the runs are space-separated words
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$G_LINES" "$t" "$(median ${walls[$t]})" \
      "$(maxof ${rss[$t]})" "${finds[$t]}" "${status[$t]}" "$(echo ${walls[$t]}) | cpu s $(echo ${cpus[$t]})" "$(median ${cpus[$t]})" \
      "$(tool_name "$t")" >>"$RESULTS"
  done
  [[ ${status[syntax]} == ok ]] || BROKEN=1
done

awk -F'\t' -v target="$TARGET" -v glim="$GROWTH" -v broken="$BROKEN" -v cpu_note="$CPU_NOTE" '
function name(t) { return names[t] }
BEGIN {
  fmt = "%6s %7s  %-15s %8s %8s %8s %10s %7s %7s %7s %10s  %s\n"
  printf fmt, "N", "lines", "tool", "wall s", "ratio", "us/line", "checks", "RSS MB", "cpu s", "ratio", "findings", "status"
  printf fmt, "", "", "", "(median)", "(<=" target "x)", "", "us/line", "", "(median)", "(cpu)", "", ""
}
{
  n = $1; lines = $2; t = $3; w = $4; rss = $5; st = $7
  cpu = $9; names[t] = $10
  if (t == "syntax") { syn[n] = w; syncpu[n] = cpu; synok[n] = (st == "ok") }
  ok = (st == "ok")
  r = (ok && synok[n] && syn[n] > 0) ? w / syn[n] : -1
  upl = ok ? w * 1e6 / lines : -1
  ck = (ok && t != "syntax" && synok[n]) ? (w - syn[n]) * 1e6 / lines : "-"
  if (ok) { per[t, n] = upl; if (t != "syntax" && synok[n]) cost[t, n] = (w - syn[n]) * 1e6 / lines }
  if (!(t in seen)) { seen[t] = 1; tools[++nt] = t }
  if (!(n in seenn)) { seenn[n] = 1; ns[++nn] = n; nlines[n] = lines }
  if (t == "plugin" && ok && r > worst) { worst = r; worst_n = n }
  if (t != "syntax" && !ok) { failed = failed sprintf("%s at N=%s: %s; ", name(t), n, st) }
  if (t != "syntax" && ok && split($6, fa, "+") == 2 && fa[2] + 0 > 0) fp = fp sprintf("%s at N=%s: %d; ", name(t), n, fa[2])
  printf fmt, (t == "syntax" ? n : ""), (t == "syntax" ? lines : ""), name(t), sprintf("%.3f", w),
    (r < 0 ? "-" : sprintf("%.3f", r)), (upl < 0 ? "-" : sprintf("%.1f", upl)),
    (ck == "-" ? "-" : sprintf("%.1f", ck)), (rss == "" ? "NA" : sprintf("%.0f", rss / 1024)),
    (cpu ~ /^[0-9.]+$/ ? sprintf("%.2f", cpu) : "NA"), ((ok && synok[n] && syncpu[n] > 0 && cpu ~ /^[0-9.]+$/) ? sprintf("%.3f", cpu / syncpu[n]) : "-"),
    $6, (ok ? "ok" : "FAIL: " st)
  runs[t, n] = $8
}
END {
  if (NR == 0) { print "no results"; exit 2 }
  print ""
  print "runs (wall s | cpu s):"
  for (i = 1; i <= nn; i++) for (j = 1; j <= nt; j++) printf "  N=%-5s %-15s %s\n", ns[i], name(tools[j]), runs[tools[j], ns[i]]
  print ""
  # smallest and largest N
  lo = hi = ns[1]
  for (i = 1; i <= nn; i++) { if (ns[i] + 0 < lo + 0) lo = ns[i]; if (ns[i] + 0 > hi + 0) hi = ns[i] }
  gv = "n/a"
  if (lo == hi) {
    print "growth per line: n/a (need two sizes)"
  } else {
    printf "growth per line, N=%s -> N=%s (lines x%.2f):\n", lo, hi, nlines[hi] / nlines[lo]
    for (j = 1; j <= nt; j++) {
      t = tools[j]
      if (!((t, lo) in per) || !((t, hi) in per)) { printf "  %-15s n/a (a run failed)\n", name(t); if (t == "plugin") gv = "FAIL (a run failed)"; continue }
      line = sprintf("  %-15s time %.1f -> %.1f us/line: x%.2f", name(t), per[t, lo], per[t, hi], per[t, hi] / per[t, lo])
      if (t != "syntax") {
        if (cost[t, lo] > 0 && cost[t, hi] > 0) {
          g = cost[t, hi] / cost[t, lo]
          line = line sprintf("; checks cost (minus the parse) %.1f -> %.1f us/line: x%.2f", cost[t, lo], cost[t, hi], g)
          if (t == "plugin") gv = sprintf("x%.2f: %s", g, g <= glim ? "PASS" : "FAIL")
        } else {
          line = line sprintf("; checks cost within noise (%.1f / %.1f us/line)", cost[t, lo], cost[t, hi])
          if (t == "plugin") gv = "n/a (checks cost within noise)"
        }
      }
      print line
    }
  }
  print cpu_note
  if (fp != "") print "findings on a file without bugs (false positives): " fp
  if (failed != "") print "failed: " failed
  rv = worst == "" ? "n/a" : (worst <= target ? "PASS" : "FAIL")
  printf "VERDICT: plugin / syntax-only worst %s%s (target <= %s): %s; growth per line of the checks cost %s (target about 1.0, limit %s)%s\n",
    (worst == "" ? "n/a" : sprintf("%.3f", worst)), (worst == "" ? "" : " at N=" worst_n), target, rv, gv, glim,
    (failed != "" ? "; a tool FAILED" : "")
  if (broken) exit 2
  if (rv != "PASS" || gv ~ /FAIL/ || failed != "") exit 1
}' "$RESULTS"
RC=$?
echo "load average now: $(load_now)"
show_elapsed
((BROKEN)) && { echo "BENCHMARK FAILED: clang -fsyntax-only failed on a generated file"; exit 2; }
exit $RC
