#!/usr/bin/env bash
# Whole-project benchmark of `lockstep check` against a plain parse.
#
#   bench/project/run.sh [-f FILES] [-j JOBS] [-r RUNS] [-k]
#
#   -f FILES  translation units of the generated project (default 300)
#   -j JOBS   parallelism of both tools (default 2)
#   -r RUNS   timed runs of each measurement; the median is reported (default 3)
#   -k        keep the temporary directory (project, outputs, logs)
#
# Environment: LOCKSTEP (default build/bin/lockstep), CLANG (clang-22),
# TARGET_RATIO (1.3), MPI_INCLUDE (/usr/lib/x86_64-linux-gnu/openmpi/include).
#
# Exit status: 0 ratio within the target, 1 ratio above it, 2 the benchmark
# itself failed (lockstep exited 2 or printed 'error:', a parse failed, the
# lockstep executable is missing).
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=SCRIPTDIR/../lib.sh
source "$HERE/../lib.sh"
bench_tools
TARGET=${TARGET_RATIO:-1.3}
FILES=300
JOBS=2
RUNS=3

parse_options f:=FILES j:=JOBS r:=RUNS -- "$@"
no_operands
need_at_least "$FILES" 3 "-f needs an integer >= 3"
need_positive "$JOBS" "-j needs a positive integer"
need_positive "$RUNS" "-r needs a positive integer"
need_tools "$CLANG" python3 xargs
need_mpi_include

bench_workdir project-bench
PROJ=$WORK/proj
bench_rss_setup "$WORK"
need_lockstep

die() { echo "BENCHMARK FAILED: $*"; exit 2; }


# run_lockstep TAG ARGS...: one timed lockstep run (M_WALL, M_RSS, M_RC);
# exit 2 or an 'error:' line fails the benchmark.
run_lockstep() {
  local tag=$1
  shift
  measure "$WORK/$tag.out" "$WORK/$tag.err" "$LOCKSTEP" check -p "$PROJ" --jobs "$JOBS" "$@"
  if ((M_RC != 0 && M_RC != 1)); then
    echo "FAIL: lockstep check ($tag) exited $M_RC"
    show_crash "$WORK/$tag.out" "$WORK/$tag.err"
    die "lockstep check exited $M_RC (command: $LOCKSTEP check -p $PROJ --jobs $JOBS $*)"
  fi
  if grep -q 'error:' "$WORK/$tag.out" "$WORK/$tag.err"; then
    echo "FAIL: lockstep check ($tag) printed errors"
    show_errors "$WORK/$tag.out" "$WORK/$tag.err"
    die "lockstep check printed 'error:' (a unit failed to parse or a configuration error)"
  fi
}

START=$(date +%s)
echo "lockstep whole-project benchmark  $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
show_clang
echo "  lockstep:  $LOCKSTEP"
echo "  project:   $FILES units, jobs $JOBS, $RUNS runs per measurement (median), peak RSS: $RSS_HOW"
show_cpus

# ---- the project ------------------------------------------------------------
GEN=$(python3 "$HERE/generate.py" "$PROJ" -f "$FILES" --mpi-include "$MPI_INC") || die "generate.py failed"
echo "  generated: $GEN"
kv() { sed -n "s/.* $1=\([0-9]*\).*/\1/p" <<<" $GEN"; }
FUNCS=$(kv functions); LINES=$(kv lines)
mapfile -t UNITS < <(python3 -c 'import json, sys; print("\n".join(json.load(open(sys.argv[1]))["units"]))' "$PROJ/manifest.json")
((${#UNITS[@]} == FILES)) || die "generate.py wrote ${#UNITS[@]} units, expected $FILES"
printf '%s\n' "${UNITS[@]}" >"$WORK/units.txt"
LOCKSTEP=$(realpath "$LOCKSTEP")
cd "$PROJ" || die "cannot enter $PROJ" # the units are relative, and lockstep check runs from the project root
SYN_FLAGS=(-fsyntax-only -std=c++17 -O2 -Wall -I"$MPI_INC" -I"$PROJ")
echo

# ---- warm the page cache (binaries, headers): untimed -------------------------
"$CLANG" "${SYN_FLAGS[@]}" main.cpp >/dev/null 2>&1
"$LOCKSTEP" check -p "$PROJ" --jobs 1 --no-cache -q main.cpp >/dev/null 2>&1

# ---- (a) syntax-only and (b) lockstep --no-cache, interleaved ----------------
SYN=(); LCK=(); RSS_SYN=(); RSS_LCK=(); CPU_SYN=(); CPU_LCK=()
for ((r = 1; r <= RUNS; r++)); do
  echo "  run $r/$RUNS: clang -fsyntax-only x $FILES (xargs -P $JOBS) ..." >&2
  measure "$WORK/syn.out" "$WORK/syn.err" xargs -a "$WORK/units.txt" -P "$JOBS" -n 1 "$CLANG" "${SYN_FLAGS[@]}"
  if ((M_RC != 0)) || grep -q 'error:' "$WORK/syn.out" "$WORK/syn.err"; then
    echo "FAIL: $CLANG -fsyntax-only failed (xargs exit $M_RC)"
    show_errors "$WORK/syn.out" "$WORK/syn.err"
    die "the generated project does not parse"
  fi
  SYN+=("$M_WALL"); RSS_SYN+=("$M_RSS"); CPU_SYN+=("$M_CPU")
  echo "  run $r/$RUNS: lockstep check --jobs $JOBS --no-cache ..." >&2
  run_lockstep nocache --no-cache -q
  LCK+=("$M_WALL"); RSS_LCK+=("$M_RSS"); CPU_LCK+=("$M_CPU")
  echo "    syntax-only ${SYN[-1]} s (cpu ${CPU_SYN[-1]}), lockstep ${LCK[-1]} s (cpu ${CPU_LCK[-1]})" >&2
done

# ---- findings, and a first run with the cache (fills it): once ---------------
echo "  lockstep check with the cache, cold (fills it; JSON findings) ..." >&2
rm -rf "$PROJ/.lockstep-cache"
run_lockstep cold -q --format json --output "$WORK/findings.json"
COLD=$M_WALL
# ---- (c) incremental: one unit edited, the others from the cache -------------
EDITED=${UNITS[$((FILES / 2))]}
INC=()
for ((r = 1; r <= RUNS; r++)); do
  # A content change (the cache is keyed by content hashes, not mtimes).
  echo "// edited by run.sh, run $r" >>"$PROJ/$EDITED"
  echo "  run $r/$RUNS: lockstep check with the cache after editing $EDITED ..." >&2
  run_lockstep cached -q --format json --output "$WORK/cached.json"
  INC+=("$M_WALL")
  CACHED=$(python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))["summary"]; print(s["cached"], s["analysed"])' "$WORK/cached.json")
  [[ $CACHED == "$((FILES - 1)) $FILES" ]] || echo "WARNING: cached rerun: expected $((FILES - 1)) units from the cache, got (cached analysed) = $CACHED"
done

# ---- findings: totals, and which seeded bugs were found ----------------------
python3 - "$WORK/findings.json" "$PROJ" >"$WORK/findings.txt" <<'EOF' || die "cannot read the JSON findings"
import collections, glob, json, os, re, sys
doc = json.load(open(sys.argv[1]))
proj = sys.argv[2]
fs = doc["findings"]
# a cross-file finding: a note inside another .cpp than the finding's
cross = [f for f in fs if any(n.get("file", "").endswith(".cpp") and n["file"] != f["file"] for n in f["notes"])]
print("FINDINGS %d" % len(fs))
print("CROSS %d" % len(cross))
print("CHECKS " + ", ".join("%s %d" % kv for kv in sorted(collections.Counter(f["check"] for f in fs).items())))
# seeded bugs: '// bug[kind]' comments; found when a finding lies in the same function
by_file = collections.defaultdict(list)
for f in fs:
    by_file[f["file"]].append(f["line"])
seeded = collections.Counter(); found = collections.Counter(); in_tagged = 0
for path in sorted(glob.glob(os.path.join(proj, "*.cpp"))):
    lines = open(path).read().split("\n")
    spans = []  # (first, last, kind or None) of each function definition, 1-based
    start = None; kind = None
    for no, text in enumerate(lines, 1):
        if re.match(r"^\S.*\) \{$", text):
            start, kind = no, None
        m = re.search(r"// bug\[(\w+)\]", text)
        if m and start:
            kind = m.group(1)
        if text == "}" and start:
            spans.append((start, no, kind)); start = None
    for a, b, k in spans:
        hits = [l for l in by_file.get(path, []) if a <= l <= b]
        if k:
            seeded[k] += 1
            found[k] += bool(hits)
            in_tagged += len(hits)
cross_kinds = sorted(k for k in seeded if k.startswith("x_"))
local_kinds = sorted(k for k in seeded if not k.startswith("x_"))
fmt = lambda ks: ", ".join("%s %d/%d" % (k, found[k], seeded[k]) for k in ks)
print("SEEDED_LOCAL %d/%d (%s)" % (sum(found[k] for k in local_kinds), sum(seeded[k] for k in local_kinds), fmt(local_kinds)))
print("SEEDED_CROSS %d/%d (%s)" % (sum(found[k] for k in cross_kinds), sum(seeded[k] for k in cross_kinds), fmt(cross_kinds)))
print("OUTSIDE %d" % (len(fs) - in_tagged))
EOF
field() { sed -n "s/^$1 //p" "$WORK/findings.txt"; }

MSYN=$(median "${SYN[@]}"); MLCK=$(median "${LCK[@]}"); MINC=$(median "${INC[@]}")
RSSL=$(maxof "${RSS_LCK[@]}"); RSSS=$(maxof "${RSS_SYN[@]}")
RATIO=$(awk -v a="$MLCK" -v b="$MSYN" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')
[[ $RATIO =~ ^[0-9.]+$ ]] && [[ $RATIO != 0.000 ]] || die "no ratio (syntax-only median '$MSYN', lockstep median '$MLCK')"

echo
fmt="%6s %9s %8s %11s %11s %6s %10s %9s %10s\n"
printf "$fmt" files functions lines "syntax s" "lockstep s" ratio "cached s" findings "RSS MiB"
printf "$fmt" "" "" "" "(median)" "(median)" "" "(median)" "" "lockstep"
printf "$fmt" "$FILES" "$FUNCS" "$LINES" "$MSYN" "$MLCK" "$RATIO" "$MINC" "$(field FINDINGS)" "$(mib "$RSSL")"
echo
echo "runs (s):           syntax-only ${SYN[*]} | lockstep --no-cache ${LCK[*]} | cached rerun ${INC[*]}"
MCS=$(median "${CPU_SYN[@]}"); MCL=$(median "${CPU_LCK[@]}")
echo "cpu (user+sys s):   syntax-only ${CPU_SYN[*]} | lockstep ${CPU_LCK[*]}; medians $MCS / $MCL = $(awk -v a="$MCL" -v b="$MCS" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }') (less sensitive to other load than wall time)"
echo "cold run, cache on: $COLD s (analyses every unit and writes the cache; findings from this run)"
echo "cached rerun:       $EDITED edited (a comment appended) before each run; the other $((FILES - 1)) units from the cache"
echo "peak RSS:           lockstep $(mib "$RSSL") MiB (one process, $JOBS threads); clang -fsyntax-only $(mib "$RSSS") MiB (largest single process)"
echo "findings:           $(field FINDINGS) ($(field CHECKS)); $(field CROSS) with a note in another file"
echo "seeded bugs found:  local $(field SEEDED_LOCAL)"
echo "                    cross-file $(field SEEDED_CROSS)"
echo "                    findings outside the seeded functions: $(field OUTSIDE)"
echo "load average now:   $(load_now)"
VERDICT=$(awk -v r="$RATIO" -v t="$TARGET" 'BEGIN { print (r <= t ? "PASS" : "FAIL") }')
echo "VERDICT: lockstep check / syntax-only = $RATIO (target <= $TARGET): $VERDICT;" \
  "cached rerun after one edit $MINC s = $(awk -v a="$MINC" -v b="$MLCK" 'BEGIN { printf "%.0f", (b > 0 ? 100 * a / b : 0) }')% of a full run"
show_elapsed
[[ $VERDICT == PASS ]] || exit 1
exit 0
