# Helpers shared by the bench/*/run.sh scripts (sourced, not run).
#
#   bench_rss_setup WORK    sets RSS_TOOL (a command prefix) and RSS_HOW
#   measure OUT ERR CMD...  runs CMD; sets M_WALL (s), M_CPU (user + system s),
#                           M_RSS (peak KiB) and M_RC; NA where unmeasured
#   median V...  maxof V...  show_errors FILE...

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

median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.4f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
maxof() { printf '%s\n' "$@" | grep -v NA | sort -g | tail -1; }
show_errors() { grep -h 'error:' "$@" | head -10 | sed 's/^/    | /'; }
