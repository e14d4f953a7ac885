"""What every runtime test case shares: running real programs under
`lockstep run` (each in its own process group, killed on timeout), the
divergence and clean-run checks, the call-site markers in the sources, and
the check that no process outlives a run. run_case.py sets A."""
import json
import os
import re
import signal
import subprocess
import sys
import time

SKIP = 77
DETECTION_BOUND_MS = 2000  # the bound for every hang or mismatch
RUN_TIMEOUT_S = 120        # generous: a loaded 2-core machine

A = None  # parsed arguments (run_case.py)


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def mpi_env():
    env = dict(os.environ)
    if os.geteuid() == 0:  # mpirun refuses root without these
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    env.pop("LOCKSTEP_COORDINATOR", None)
    return env


def program(name):
    return os.path.join(A.programs, name)


def run(argv, timeout=RUN_TIMEOUT_S, env=None):
    """Runs argv in its own process group; kills the group on timeout."""
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env={**mpi_env(), **(env or {})}, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        fail(f"timed out after {timeout} s: {' '.join(argv)}\n{out}\n{err}")
    return p.returncode, out, err


def leftovers(marker):
    """Processes whose command line mentions marker (the programs directory)."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
            with open(f"/proc/{pid}/stat") as f:
                if f.read().split()[2] == "Z":
                    continue
        except OSError:
            continue
        if marker in cmd and "run_case.py" not in cmd:
            found.append(f"{pid}: {cmd}")
    return found


def check_nothing_left(name):
    deadline = time.time() + 5
    while True:
        left = leftovers(program(name))
        if not left:
            return
        if time.time() > deadline:
            fail("processes left behind:\n" + "\n".join(left))
        time.sleep(0.1)


def site_lines(source):
    """LOCKSTEP-SITE markers: name -> line number."""
    lines = {}
    with open(os.path.join(A.sources, source)) as f:
        for number, text in enumerate(f, 1):
            m = re.search(r"LOCKSTEP-SITE: ([\w-]+)", text)
            if m:
                lines[m.group(1)] = number
    return lines


def lockstep(name, args, ranks=2, mode="--mpi", extra=(), timeout=RUN_TIMEOUT_S, quiet=False, env=None):
    json_path = os.path.join(A.work, name + ".json")
    argv = [A.lockstep, "run", "-n", str(ranks), "--json", json_path, *extra]
    if mode:
        argv.append(mode)
    argv.append("--")
    if mode == "--attach":  # another launcher starts the ranks and passes the variables on
        argv += ["mpirun", "-np", str(ranks), "--oversubscribe", "-x", "LD_PRELOAD", "-x",
                 "LOCKSTEP_COORDINATOR"]
    argv += [program(name), *args]
    start = time.time()
    code, out, err = run(argv, timeout, env)
    elapsed = time.time() - start
    shown = out[-2000:] if quiet else out
    print(f"$ {' '.join(argv)}\nexit {code} after {elapsed:.2f} s\n--- stdout\n{shown}--- stderr\n{err}")
    with open(json_path) as f:
        result = json.load(f)
    check_nothing_left(name)
    return code, out, err, result


def per_rank(out, pattern):
    ranks = {}
    for line in out.splitlines():
        m = re.match(pattern, line)
        if m:
            ranks.setdefault(int(m.group(1)), []).append(m.group(2))
    return ranks


def diverged(name, args, kind, sites, patterns=(), ranks=2, extra=(), bound_ms=DETECTION_BOUND_MS,
             mode="--mpi", env=None):
    """A buggy variant: named divergence, every involved rank's call site."""
    code, out, err, result = lockstep(name, args, ranks, mode=mode, extra=extra, env=env)
    expected = 98 if kind == "stall" else 97
    if code != expected:
        fail(f"exit code {code}, expected {expected}")
    d = result["divergence"]
    if not d or d["kind"] != kind:
        fail(f"divergence {d and d['kind']}, expected {kind}")
    if d["detected_after_ms"] > bound_ms:
        fail(f"detected {d['detected_after_ms']:.0f} ms after the divergence (bound {bound_ms} ms)")
    print(f"detected {d['detected_after_ms']:.1f} ms after the divergence; stop ordered "
          f"{d['stop_ordered_after_ms']:.1f} ms later")
    lines = site_lines(name + ".c")
    made = {c["rank"]: c["made"] for c in d["calls"] if c["made"]}
    for rank, site in sites.items():
        if rank not in made:
            fail(f"rank {rank} has no call at the divergence")
        frame = made[rank]["site"]["frames"][0] if made[rank]["site"]["frames"] else None
        if not frame or not frame["file"].endswith(name + ".c") or frame["line"] != lines[site]:
            fail(f"rank {rank}: call site {made[rank]['site']['location']}, expected {name}.c:{lines[site]}")
        if f"{name}.c:{lines[site]}:" not in err:
            fail(f"the diagnosis does not name {name}.c:{lines[site]}")
    if not re.search(r"^>>\s+\d+ ", err, re.M):
        fail("no side-by-side trace with the diverging row marked")
    for p in patterns:
        if not re.search(p, err):
            fail(f"the diagnosis lacks /{p}/")


def clean(name, args, ranks=2, env=None):
    """A correct variant: no alarm, and each rank prints what it prints under plain mpirun."""
    code, out, err, result = lockstep(name, args, ranks, env=env)
    if code != 0 or result["divergence"] is not None or "lockstep: error" in err:
        fail(f"false alarm or failure (exit {code})")
    argv = ["mpirun", "-np", str(ranks), "--oversubscribe", "--tag-output", program(name), *args]
    code, plain, _ = run(argv)
    check_nothing_left(name)
    if code != 0:
        fail(f"plain mpirun failed with {code}")
    with_lockstep = per_rank(out, r"^\[rank (\d+)\] (.*)$")
    without = per_rank(plain, r"^\[\d+,(\d+)\]<stdout>:(.*)$")
    if with_lockstep != without:
        fail(f"output differs from plain mpirun:\n{with_lockstep}\n{without}")
    print(f"{ranks} ranks, output identical to plain mpirun, no alarm")
    return result
