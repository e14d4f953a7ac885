# shellcheck shell=bash
# shellcheck disable=SC2034 # the variables set here are the sourcing scripts'
# Helpers of bench/checker/stress.sh, calls.sh and nccl.sh (sourced, not run),
# on top of bench/lib.sh (sourced here): bounded runs of the three tools on one
# file, each with a time limit and an address-space limit, so that a crash, a
# blow-up or a hang of the engine is reported as a failure instead of stopping
# the benchmark.
#
#   shapes_setup             after bench_tools and bench_workdir: checks the
#                            limits and the tools, sets up the RSS probe
#   generate_shape SHAPE FILE N LANG [WHAT]   FILE from generate_shapes.py, with
#                            its compile_commands.json; sets G_INFO, G_LINES
#   write_cdb DIR FILE LANG  compile_commands.json for one file (LANG: c++, c, cuda)
#   run_tool TOOL FILE LANG  TOOL: syntax, tidy (clang-tidy with one stock
#                            check that matches almost nothing: clang-tidy's own
#                            cost), plugin or check; one bounded run:
#                            sets M_WALL, M_RSS, M_RC (lib.sh), T_STATUS (ok or
#                            what went wrong), T_FINDINGS ("H/S +O": see
#                            count_findings), M_CPU
#   tool_series TOOL FILE LANG REPS   REPS runs (stopping at the first
#                            failure): S_WALL and S_CPU (user + system s;
#                            medians), S_RSS (max, KiB),
#                            S_STATUS, S_FINDINGS, S_RUNS (the wall times)
#   interleaved_series LABEL FILE LANG REPS TOOL...   REPS rounds of one run of
#                            each TOOL: the arrays walls, rss, cpus, status, finds
#   target_verdict RATIO TARGET MIB MAX_MIB [below]   PASS or FAIL: time/memory
#   tool_name TOOL  w3 S  c2 S  ratio A B  CPU_NOTE
#
# Environment: LOCKSTEP_PLUGIN, LOCKSTEP, CLANG, CLANG_TIDY, TIME_LIMIT
# (seconds per run, default 300), MEM_LIMIT_MB (address space per run, default
# 4096), MPI_INCLUDE.

# shellcheck source=SCRIPTDIR/../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

# The tools run bounded, so the limits are checked before anything runs.
shapes_setup() {
  TIME_LIMIT=${TIME_LIMIT:-300}
  MEM_LIMIT_MB=${MEM_LIMIT_MB:-4096}
  need_positive "$TIME_LIMIT" "TIME_LIMIT must be a positive integer (seconds)"
  need_positive "$MEM_LIMIT_MB" "MEM_LIMIT_MB must be a positive integer"
  need_tools "$CLANG" "$TIDY" python3 timeout prlimit
  need_mpi_include
  bench_rss_setup "$WORK"
  need_plugin
  need_lockstep
  LOCKSTEP=$(realpath "$LOCKSTEP")
}

# What ran, on what, under which limits: the report's header.
shapes_header() {
  show_clang
  show_tidy
  echo "  plugin:    $PLUGIN (built $(date -u -r "$PLUGIN" '+%Y-%m-%d %H:%M:%S UTC'))"
  echo "  lockstep:  $LOCKSTEP (built $(date -u -r "$LOCKSTEP" '+%Y-%m-%d %H:%M:%S UTC'); check --jobs 1 --no-cache, one unit)"
  echo "  source:    $(git -C "$ROOT" log -1 --format='%h %s' 2>/dev/null | cut -c1-70)$(git -C "$ROOT" status --porcelain -- checker 2>/dev/null | grep -q . && echo ' + uncommitted changes under checker/')"
  echo "  limits:    ${TIME_LIMIT} s and ${MEM_LIMIT_MB} MB of address space (prlimit --as) per run; stack $(ulimit -s) KiB"
  echo "  peak RSS:  $RSS_HOW"
  show_cpus
}

# The generated input of one measurement, with the compile database that
# lockstep check reads beside it; a generator failure stops the benchmark.
generate_shape() {
  local shape=$1 file=$2 n=$3 lang=$4 what=${5:+ for $5}
  G_INFO=$(python3 "$ROOT/bench/checker/generate_shapes.py" "$shape" "$file" -n "$n") ||
    cannot_run "generate_shapes.py failed$what"
  G_LINES=$(sed -n 's/.* lines=\([0-9]*\).*/\1/p' <<<"$G_INFO")
  write_cdb "$(dirname "$file")" "$file" "$lang"
}

# write_cdb DIR FILE LANG: the compile command a build would have written
# (clang++ for C++, clang for C, nvcc for CUDA: lockstep check translates it).
write_cdb() {
  python3 - "$@" "$MPI_INC" "$CUDA" <<'PY'
import json, os, sys
d, f, lang, mpi, cuda = sys.argv[1:6]
if lang == "c++":
    args = ["clang++-22", "-x", "c++", "-std=c++17"]
elif lang == "c":
    args = ["clang-22", "-x", "c", "-std=c11"]
else:
    args = [os.path.join(cuda, "bin", "nvcc"), "-std=c++17"]
args += ["-I" + mpi, "-c", f, "-o", os.path.splitext(f)[0] + ".o"]
with open(os.path.join(d, "compile_commands.json"), "w") as out:
    json.dump([{"directory": d, "arguments": args, "file": f}], out, indent=2)
PY
}

# count_findings text|json OUTPUT SOURCE: "H/S +O": H of the S seeded bugs
# (lines of SOURCE marked `// bug[`) have a lockstep finding on their line,
# and O findings are on other lines (false positives, or a bug reported
# elsewhere than at its collective).
count_findings() {
  python3 - "$@" <<'PY' 2>/dev/null || echo "?"
import json, os, re, sys
kind, out, src = sys.argv[1:4]
seeded = {no for no, l in enumerate(open(src), 1) if "// bug[" in l}
lines = []
if kind == "json":
    d = json.load(open(out))
    if d["summary"].get("failed"):
        sys.exit(1)
    lines = [f["line"] for f in d["findings"] if os.path.basename(f["file"]) == os.path.basename(src)]
else:
    pat = re.compile(r"^(.*?):(\d+):\d+: warning: .*\[lockstep-[\w-]+\]$")
    for l in open(out, errors="replace"):
        m = pat.match(l.rstrip("\n"))
        if m and os.path.basename(m.group(1)) == os.path.basename(src):
            lines.append(int(m.group(2)))
hit = seeded & set(lines)
print("%d/%d +%d" % (len(hit), len(seeded), sum(1 for x in lines if x not in seeded)))
PY
}

# What a failed run did: timeout, out of memory, a signal, an exit status.
describe_failure() {
  local rc=$1 out=$2 err=$3 sig frame deep
  if ((rc == 124 || rc == 137)) && awk -v w="$M_WALL" -v t="$TIME_LIMIT" 'BEGIN { exit !(w >= t) }'; then
    echo "TIMEOUT (> ${TIME_LIMIT} s)"
    return
  fi
  if grep -qiE 'out of memory|bad_alloc|cannot allocate memory|Allocation failed' "$err" "$out" 2>/dev/null; then
    echo "OUT OF MEMORY (limit ${MEM_LIMIT_MB} MB, exit $rc)"
    return
  fi
  if ((rc > 128 && rc < 160)); then
    sig=$(kill -l $((rc - 128)) 2>/dev/null)
    # The first lockstep frame of LLVM's stack dump, when there is one.
    frame=$(sed -nE 's/^ *#[0-9]+ 0x[0-9a-f]+ (lockstep::[A-Za-z0-9_:]+).*/\1/p' "$err" 2>/dev/null | head -1)
    # A lockstep function on the stack 20 times or more: deep recursion.
    deep=$(sed -nE 's/^ *#[0-9]+ 0x[0-9a-f]+ (lockstep::[A-Za-z0-9_:]+).*/\1/p' "$err" 2>/dev/null | sort | uniq -c |
      sort -rn | awk '$1 >= 20 { print "; " $1 " frames of " $2 ": deep recursion, stack overflow?"; exit }')
    [[ $sig == KILL ]] && deep="$deep; SIGKILL before the time limit: the kernel's OOM killer? (dmesg)"
    echo "CRASH SIG${sig:-?} (exit $rc${frame:+, in $frame}$deep)"
    return
  fi
  echo "EXIT $rc"
}

# run_tool TOOL FILE LANG
run_tool() {
  local tool=$1 file=$2 lang=$3 out err flags
  out="$WORK/$tool.out" err="$WORK/$tool.err"
  case $lang in
    c++) flags=("${FLAGS_cxx[@]}") ;;
    c) flags=("${FLAGS_c[@]}") ;;
    cuda) flags=("${FLAGS_cuda[@]}") ;;
  esac
  local bound=(timeout -k 10 "$TIME_LIMIT" prlimit --as=$((MEM_LIMIT_MB * 1024 * 1024)) --core=0 --)
  T_FINDINGS=-
  case $tool in
    syntax) measure "$out" "$err" "${bound[@]}" "$CLANG" -fsyntax-only "${flags[@]}" "$file" ;;
    tidy) measure "$out" "$err" "${bound[@]}" "$TIDY" --checks=-*,misc-unused-alias-decls --quiet "$file" -- "${flags[@]}" ;;
    plugin) measure "$out" "$err" "${bound[@]}" "${TIDY_CMD[@]}" "$file" -- "${flags[@]}" ;;
    check)
      rm -f "$WORK/findings.json"
      measure "$out" "$err" "${bound[@]}" "$LOCKSTEP" check -p "$(dirname "$file")" --jobs 1 --no-cache -q \
        --format json --output "$WORK/findings.json" ;;
  esac
  T_STATUS=ok
  if [[ $tool == check ]]; then
    # 0: no findings, 1: findings, 2: usage or configuration error
    if ((M_RC != 0 && M_RC != 1)); then
      T_STATUS=$(describe_failure "$M_RC" "$out" "$err")
    else
      T_FINDINGS=$(count_findings json "$WORK/findings.json" "$file")
      [[ $T_FINDINGS =~ ^[0-9]+/[0-9]+\ \+[0-9]+$ ]] || T_STATUS="ERROR (the unit failed or no JSON findings: see $err)"
    fi
  elif ((M_RC != 0)); then
    T_STATUS=$(describe_failure "$M_RC" "$out" "$err")
  fi
  [[ $tool == plugin && $T_STATUS == ok ]] && T_FINDINGS=$(count_findings text "$out" "$file")
  if [[ $T_STATUS == ok ]] && grep -q 'error:' "$out" "$err"; then
    T_STATUS="ERROR ($(grep -h -m1 'error:' "$out" "$err" | head -1 | cut -c1-100))"
  fi
  if [[ $T_STATUS != ok ]]; then
    {
      echo "  $tool on $(basename "$file"): $T_STATUS after ${M_WALL} s, peak RSS $(mib "$M_RSS") MB; last lines of stderr:"
      grep -v '^ *#[0-9]' "$err" | tail -4 | cut -c1-200 | sed 's/^/    | /'
    } >&2
    if ((KEEP)); then cp "$err" "$WORK/$(basename "$file").$tool.failed.err"; fi
  fi
}

tool_series() {
  local tool=$1 file=$2 lang=$3 reps=$4 r run_walls=() run_rss=() run_cpus=()
  S_STATUS=ok
  for ((r = 1; r <= reps; r++)); do
    run_tool "$tool" "$file" "$lang"
    run_walls+=("$M_WALL"); run_rss+=("$M_RSS"); run_cpus+=("$M_CPU")
    if [[ $T_STATUS != ok ]]; then S_STATUS=$T_STATUS; break; fi
  done
  S_FINDINGS=$T_FINDINGS
  S_RUNS="${run_walls[*]}"
  S_WALL=$(median "${run_walls[@]}")
  S_CPU=$(c2 "$(median "${run_cpus[@]}")")
  [[ $S_STATUS == ok ]] || { S_WALL=$M_WALL; S_CPU=$M_CPU; } # the failed run's
  S_RSS=$(maxof "${run_rss[@]}")
  [[ -n $S_RSS ]] || S_RSS=NA
}

# interleaved_series LABEL FILE LANG REPS TOOL...: REPS rounds of one run of
# each TOOL in turn (interleaved, so that a change in the machine's load falls
# on every tool alike); a tool that fails is not run again. Sets the
# associative arrays walls, rss and cpus (each run's value, space-separated;
# the failed run's alone), status (ok or what went wrong) and finds.
interleaved_series() {
  local label=$1 file=$2 lang=$3 reps=$4 r t
  shift 4
  declare -gA walls=() rss=() cpus=() status=() finds=()
  for t in "$@"; do walls[$t]=""; rss[$t]=""; cpus[$t]=""; status[$t]=ok; finds[$t]=-; done
  for ((r = 1; r <= reps; r++)); do
    for t in "$@"; do
      [[ ${status[$t]} == ok ]] || continue
      echo "  ${label}run $r/$reps: $t ..." >&2
      run_tool "$t" "$file" "$lang"
      if [[ $T_STATUS != ok ]]; then
        status[$t]=$T_STATUS; walls[$t]=$M_WALL; rss[$t]=$M_RSS; cpus[$t]=$M_CPU
        continue
      fi
      walls[$t]+=" $M_WALL"; rss[$t]+=" $M_RSS"; cpus[$t]+=" $M_CPU"; finds[$t]=$T_FINDINGS
    done
  done
}

# target_verdict RATIO TARGET MIB MAX_MIB [below]: a tool's row against the
# targets: PASS, or FAIL: and which missed (below: the peak RSS must stay
# under MAX_MIB, else it may reach it).
target_verdict() {
  awk -v r="$1" -v t="$2" -v m="$3" -v tm="$4" -v below="${5:-}" 'BEGIN {
    s = ""; if (r > t) s = s " time"; if (m == "NA" || (below != "" ? m >= tm : m > tm)) s = s " memory"
    print s == "" ? "PASS" : "FAIL:" s }'
}

tool_name() { case $1 in syntax) echo syntax-only ;; tidy) echo "clang-tidy alone" ;; plugin) echo plugin ;; check) echo "lockstep check" ;; esac; }
CPU_NOTE="cpu s: user + system seconds (less sensitive to other load than wall time; the verdict uses wall time)"

w3() { [[ $1 =~ ^[0-9.]+$ ]] && awk -v x="$1" 'BEGIN { printf "%.3f", x }' || echo NA; }
c2() { [[ $1 =~ ^[0-9.]+$ ]] && printf '%.2f' "$1" || echo NA; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^[0-9.]+$/ && b > 0) printf "%.2f", a / b; else print "NA" }'; }
