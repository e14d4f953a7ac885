# shellcheck shell=bash
# shellcheck disable=SC2034 # the variables set here are the sourcing scripts'
# Helpers shared by the bench/ scripts (sourced, not run; sourcing sets ROOT,
# the repository, and ME, the script's name for its messages).
#
# Command line (the usage text is the script's header comment):
#   usage                       prints the header comment of the script ($0)
#   parse_options SPEC... -- ARGS...
#                               getopts with -k (KEEP=1) and -h; SPEC L=VAR is
#                               a flag (VAR=1, else 0), L:=VAR takes a value;
#                               the operands are left in OPERANDS
#   no_operands                 exit 2 (usage) when OPERANDS is not empty
#   need_positive V MSG, need_at_least V MIN MSG, need_function_counts N...
#                               exit 2 with "$ME: MSG" on a bad count
#   cannot_run MSG              "$ME: MSG" on stderr, exit 2
#   usage_error MSG             the same, with the usage
# Set-up:
#   bench_tools                 CLANG, TIDY, PLUGIN, LOCKSTEP, MPI_INC, CUDA,
#                               CHECKS, TIDY_CMD, FLAGS_cxx, FLAGS_c, FLAGS_cuda
#   need_tools TOOL...  need_mpi_include  need_plugin  need_lockstep
#   bench_workdir NAME          WORK: a temporary directory, removed at exit
#                               (kept and named with KEEP=1)
#   bench_rss_setup WORK        sets RSS_TOOL (a command prefix) and RSS_HOW
#   runtime_setup BUILD_DIR SOURCE   LOCKSTEP, WORK, PROGRAM (SOURCE built)
# Measuring and reporting:
#   measure OUT ERR CMD...      runs CMD; sets M_WALL (s), M_CPU (user + system
#                               s), M_RSS (peak KiB) and M_RC; NA where unmeasured
#   median V...  maxof V...  mib KIB  show_errors FILE...  show_crash OUT ERR
#   show_clang  show_tidy  show_cpus  load_now  show_elapsed (uses START)

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ME=$(basename "$0")

# ---- command line -------------------------------------------------------------

# The header comment (from line 2 to the first line that is not a comment) is
# each script's documentation, so -h prints it rather than a second copy.
usage() { awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; }

# Every script has -k (keep the temporary directory) and -h; the rest of the
# options only set a variable, so a SPEC per option says which.
parse_options() {
  local letters=kh spec letter opt OPTARG OPTIND=1
  local -A var=() takes=()
  while (($#)) && [[ $1 != -- ]]; do
    spec=$1 letter=${1:0:1}
    shift
    if [[ $spec == ?:=* ]]; then
      letters+=$letter: var[$letter]=${spec:3} takes[$letter]=1
    else
      letters+=$letter var[$letter]=${spec:2}
      printf -v "${spec:2}" 0
    fi
  done
  shift
  KEEP=0
  while getopts "$letters" opt; do
    case $opt in
      k) KEEP=1 ;;
      h) usage; exit 0 ;;
      \?) usage >&2; exit 2 ;;
      *) [[ -n ${takes[$opt]:-} ]] || OPTARG=1 # a flag
         printf -v "${var[$opt]}" '%s' "$OPTARG" ;;
    esac
  done
  shift $((OPTIND - 1))
  OPERANDS=("$@")
}

# A bad command line or setting, or a missing tool: the benchmark cannot start.
cannot_run() { echo "$ME: $*" >&2; exit 2; }
# A bad argument: the usage too, as for a bad option.
usage_error() { echo "$ME: $*" >&2; usage >&2; exit 2; }

# The scripts that take only options reject anything after them.
no_operands() { ((${#OPERANDS[@]} == 0)) || usage_error "unexpected argument '${OPERANDS[0]}'"; }

# Runs, jobs, seconds and megabytes: 1 or more, written without a leading zero.
need_positive() { [[ $1 =~ ^[1-9][0-9]*$ ]] || cannot_run "$2"; }

# Sizes, which have a smallest meaningful value.
need_at_least() {
  [[ $1 =~ ^[0-9]+$ ]] && (($1 >= $2)) && return
  cannot_run "$3"
}

# The function counts of run.sh and calls.sh: the generators need four.
need_function_counts() {
  local n
  for n in "$@"; do need_at_least "$n" 4 "bad function count '$n' (need an integer >= 4)"; done
}

# ---- set-up -------------------------------------------------------------------

# The tools and compiler flags of the checker and project benchmarks, in one
# place so that they time the same commands; the environment overrides the tools.
bench_tools() {
  PLUGIN=${LOCKSTEP_PLUGIN:-$ROOT/build/lib/liblockstep-tidy.so}
  LOCKSTEP=${LOCKSTEP:-$ROOT/build/bin/lockstep}
  CLANG=${CLANG:-clang-22}
  TIDY=${CLANG_TIDY:-clang-tidy-22}
  MPI_INC=${MPI_INCLUDE:-/usr/lib/x86_64-linux-gnu/openmpi/include}
  CUDA=/usr/local/cuda
  CHECKS='-*,lockstep-*'
  # clang-tidy with the plugin and only its checks: append FILE -- FLAGS.
  TIDY_CMD=("$TIDY" --load="$PLUGIN" --checks="$CHECKS" --quiet)
  FLAGS_cxx=(-x c++ -std=c++17 -I"$MPI_INC")
  FLAGS_c=(-x c -std=c11 -I"$MPI_INC")
  # The %cuda_flags of test/lit/lit.cfg.py (TOOLCHAIN.md: host side only).
  FLAGS_cuda=(-x cuda --cuda-path="$CUDA" --cuda-host-only -nocudalib -Wno-unknown-cuda-version
              -Xclang -target-sdk-version=12.9 -I"$CUDA/include" -I"$MPI_INC")
}

# A tool that is not installed would otherwise show up as a failed run.
need_tools() {
  local tool
  for tool in "$@"; do command -v "$tool" >/dev/null || cannot_run "$tool not found"; done
}

# The generated sources include mpi.h: without it every parse would fail.
need_mpi_include() { [[ -d $MPI_INC ]] || cannot_run "MPI include directory $MPI_INC not found"; }

# The build products under test: without them there is nothing to time.
need_plugin() { [[ -f $PLUGIN ]] || cannot_run "plugin $PLUGIN not found: build it first (scripts/build.sh)"; }
need_lockstep() { [[ -x $LOCKSTEP ]] || cannot_run "$LOCKSTEP not found: build it first (scripts/build.sh)"; }

# Inputs, outputs and logs go to one temporary directory, removed at exit
# unless -k asked to keep it for a look afterwards.
bench_workdir() {
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-$1.XXXXXX")
  if ((${KEEP:-0})); then
    trap 'echo "kept: $WORK"' EXIT
  else
    trap 'rm -rf "$WORK"' EXIT
  fi
}

# Peak RSS and CPU time (user + system, children included): GNU time if it
# is there, else a python wait4 wrapper. CPU seconds are less sensitive than
# wall seconds to other load on a shared machine.
bench_rss_setup() {
  local work=$1
  RSS_FILE=$work/rss
  if /usr/bin/time -f '%M %U %S' -o "$work/probe" true 2>/dev/null &&
     [[ $(tail -1 "$work/probe") =~ ^[0-9]+\ [0-9.]+\ [0-9.]+$ ]]; then
    RSS_TOOL=(/usr/bin/time -f '%M %U %S' -o "$RSS_FILE")
    RSS_HOW="GNU time %M %U %S"
    return
  fi
  cat >"$work/rss.py" <<'PY'
import os, sys
pid = os.fork()
if pid == 0:
    try:
        os.execvp(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
_, status, ru = os.wait4(pid, 0)
with open(sys.argv[1], "w") as f:
    f.write("%d %.2f %.2f\n" % (ru.ru_maxrss, ru.ru_utime, ru.ru_stime))
sys.exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))
PY
  RSS_TOOL=(python3 "$work/rss.py" "$RSS_FILE")
  RSS_HOW="python os.wait4 (GNU time not installed; adds ~20 ms to every run)"
}

# The runtime benchmarks time an MPI program (SOURCE, built into WORK as
# PROGRAM) under BUILD_DIR's lockstep; mpirun refuses root unless told.
runtime_setup() {
  LOCKSTEP=$1/bin/lockstep
  [ -x "$LOCKSTEP" ] || { echo "bench: no $LOCKSTEP (build first: bash scripts/build.sh)" >&2; exit 2; }
  bench_workdir runtime
  PROGRAM=$WORK/$(basename "$2" .c)
  mpicc -O2 -o "$PROGRAM" "$2"
  if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
}

# ---- measuring and reporting --------------------------------------------------

# One timed run, its output and stderr kept for the checks that follow.
measure() {
  local out=$1 err=$2 t0 t1 stats
  shift 2
  rm -f "$RSS_FILE"
  t0=$(date +%s%N)
  "${RSS_TOOL[@]}" "$@" >"$out" 2>"$err"
  M_RC=$?
  t1=$(date +%s%N)
  M_WALL=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')
  stats=$(tail -1 "$RSS_FILE" 2>/dev/null)
  if [[ $stats =~ ^([0-9]+)\ ([0-9.]+)\ ([0-9.]+)$ ]]; then
    M_RSS=${BASH_REMATCH[1]}
    M_CPU=$(awk -v u="${BASH_REMATCH[2]}" -v s="${BASH_REMATCH[3]}" 'BEGIN { printf "%.2f", u + s }')
  else
    M_RSS=NA M_CPU=NA
  fi
}

# The summaries of repeated runs (median of the times, max of the peak RSS).
median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.4f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
maxof() { printf '%s\n' "$@" | grep -v NA | sort -g | tail -1; }
mib() { [[ $1 =~ ^[0-9]+$ ]] && awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }' || echo NA; }
show_errors() { grep -h 'error:' "$@" | head -10 | sed 's/^/    | /'; }
# A tool that exited badly: its errors, and the end of its stderr (a crash's stack).
show_crash() { show_errors "$1" "$2"; tail -5 "$2" | sed 's/^/    | /'; }

# The lines of the reports' headers and footers that say what ran and on what
# (the machine is shared: the load explains noisy timings).
show_clang() { echo "  clang:     $($CLANG --version | head -1)"; }
show_tidy() { echo "  tidy:      $($TIDY --version | grep -i version | head -1 | sed 's/^ *//')"; }
show_cpus() { echo "  cpus:      $(nproc)   load average: $(cut -d' ' -f1-3 /proc/loadavg)"; }
load_now() { echo "$(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cpus (shared machine: timings are noisy)"; }
show_elapsed() { echo "elapsed: $(($(date +%s) - START)) s"; }
