"""Runtime test cases for how jobs end and scale: divergences late in long
runs with dropped records, every way a rank leaves, clean stops of MPI
jobs, mpirun's options, a flood of strangers at the coordinator, and a
library's own collectives. run_case.py runs them by name."""
import json
import os
import re
import signal
import socket
import subprocess
import time

import case_lib as lib
from case_lib import (RUN_TIMEOUT_S, check_nothing_left, clean, diverged, fail, lockstep, mpi_env,
                      program, run)

def stress(ranks):
    """A divergence late in a long run of tiny calls is always caught, whether
    the records of the diverging calls arrive (mismatch) or were dropped
    (stall, from the ranks' heartbeats); a small ring forces drops."""
    calls, diverge = 150000, 140000
    for attempt, ring in enumerate(["16384", "1024", "1024"]):
        os.environ["LOCKSTEP_RING_RECORDS"] = ring
        code, _, err, result = lockstep("stress", [str(calls), str(diverge)], ranks,
                                        extra=["--timeout", "3"], quiet=True)
        d = result["divergence"]
        if code not in (97, 98) or not d or d["kind"] not in ("mismatch", "stall"):
            fail(f"run {attempt}: missed (exit {code}, {d and d['kind']})")
        seq = d["points"][0]["seq"]
        if seq != diverge:
            fail(f"run {attempt}: divergence at #{seq}, expected #{diverge}")
        dropped = sum(r["dropped_events"] for r in result["ranks"])
        print(f"run {attempt} (ring {ring}): {d['kind']} at #{seq}, {dropped} records dropped, "
              f"detected {d['detected_after_ms']:.0f} ms after it happened")


def left(how, ranks):
    """Ranks leave while the others go on to the next allreduce: every way of
    leaving is a rank-left that names exactly the ranks that left first."""
    first = 1 if ranks == 2 else 2
    leavers = list(range(first, ranks))
    stayers = {r: "allreduce" for r in range(first)}
    diverged("leave", [how, str(first)], "rank-left", stayers, ranks=ranks)
    with open(os.path.join(lib.A.work, "leave.json")) as f:
        d = json.load(f)["divergence"]
    if d["ranks"] != leavers or d["points"][0]["seq"] != 4:
        fail(f"named ranks {d['ranks']} at #{d['points'][0]['seq']}, expected {leavers} at #4")
    print(f"{how}: ranks {leavers} named, at collective #4")


def mpirun_options():
    """mpirun's own options reach it, from LOCKSTEP_MPIRUN and --mpirun-args."""
    base = [lib.A.lockstep, "run", "-q", "-n", "2", "--mpi"]
    code, out, err = run(base + ["--", program("rank_branch"), "fixed"],
                         env={"LOCKSTEP_MPIRUN": "mpirun --bind-to none"})
    if code != 0:
        fail(f"LOCKSTEP_MPIRUN with arguments: exit {code}\n{err}")
    for how, env, extra in [("LOCKSTEP_MPIRUN", {"LOCKSTEP_MPIRUN": "mpirun --no-such-flag"}, []),
                            ("--mpirun-args", {}, ["--mpirun-args", "--bind-to none --no-such-flag"])]:
        code, out, err = run(base + extra + ["--", program("rank_branch"), "fixed"], env=env)
        if code == 0 or "no-such-flag" not in out + err:
            fail(f"{how}: the option did not reach mpirun (exit {code})\n{out}{err}")
    print("mpirun options pass through LOCKSTEP_MPIRUN and --mpirun-args")


BANNERS = re.compile(r"Process received signal|End of error message|ORTE_ERROR_LOG|Primary job|"
                     r"MPI_ABORT|PMIx_Finalize|mpirun noticed|[Ss]egmentation fault")


def clean_stop(runs=50):
    """Diagnosed MPI jobs stop cleanly: the ranks end the job from inside,
    mpirun exits on its own (lockstep sends it no signal), and nothing of
    Open MPI's abort or crash output is printed over the diagnosis."""
    json_path = os.path.join(lib.A.work, "stop.json")
    jobs = [(["rank_branch"], "[mismatch]"), (["leave", "exit", "1"], "[rank-left]"),
            (["leave", "crash", "1"], "[rank-left]")]
    for i in range(runs):
        job, kind = jobs[i % len(jobs)]
        argv = [lib.A.lockstep, "run", "-n", "2", "--mpi", "--json", json_path, "--",
                program(job[0]), *job[1:]]
        code, out, err = run(argv)
        if job[1:2] == ["crash"]:  # the program's own crash report is not Open MPI's banner
            out = re.sub(r"(?m)^\[rank 1\] .*\n", "", out)
            err = re.sub(r"(?m)^\[rank 1\] .*\n", "", err)
        with open(json_path) as f:
            result = json.load(f)
        launcher = result.get("launcher", {})
        if code != 97 or kind not in err:
            fail(f"run {i}: exit {code}, expected {kind}\n{err}")
        if BANNERS.search(out + err):
            fail(f"run {i}: Open MPI's own abort or crash output was shown:\n{out}{err}")
        if launcher.get("signalled_by_lockstep", True):
            fail(f"run {i}: mpirun did not end on its own: {launcher}")
    check_nothing_left("rank_branch")
    check_nothing_left("leave")
    print(f"{runs} diagnosed runs: no crash dump, no banner, mpirun ended on its own every time "
          f"({launcher['exit']})")


def flood():
    """300 idle local connections to the coordinator never keep the job's
    ranks out: strangers are shed first, the job passes (not 97)."""
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    port = holder.getsockname()[1]
    holder.close()
    json_path = os.path.join(lib.A.work, "flood.json")
    argv = [lib.A.lockstep, "run", "-n", "2", "--mpi", "--listen", f"127.0.0.1:{port}", "--json",
            json_path, "--", program("rank_branch"), "fixed"]
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=mpi_env(), start_new_session=True)
    strangers, deadline = [], time.time() + 30
    while len(strangers) < 300 and time.time() < deadline and p.poll() is None:
        s = socket.socket()
        try:
            s.connect(("127.0.0.1", port))
            strangers.append(s)
        except OSError:
            s.close()
            time.sleep(0.01)
    try:
        out, err = p.communicate(timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        fail("timed out")
    for s in strangers:
        s.close()
    print(f"{len(strangers)} strangers connected\nexit {p.returncode}\n{out}{err}")
    with open(json_path) as f:
        result = json.load(f)
    if p.returncode != 0 or result["status"] != "passed" or "lockstep: error" in err:
        fail(f"the strangers kept the ranks out (exit {p.returncode}, {result['status']})")
    if len(strangers) < 100 or "did not say hello" not in err:
        fail("the flood did not happen")
    check_nothing_left("rank_branch")


def lost_coordinator():
    """Ranks that cannot reach their coordinator exit 96, and so does lockstep:
    a lost coordinator is not a divergence (97)."""
    script = ('LOCKSTEP_COORDINATOR="${LOCKSTEP_COORDINATOR%:*}:1" exec mpirun -np 2 --oversubscribe '
              '-x LD_PRELOAD -x LOCKSTEP_COORDINATOR -x LOCKSTEP_MANAGED "$0" fixed')
    argv = [lib.A.lockstep, "run", "-n", "2", "--attach", "--", "/bin/sh", "-c", script,
            program("rank_branch")]
    code, out, err = run(argv)
    print(f"exit {code}\n{out}{err}")
    if code != 96 or "lost the coordinator" not in err:
        fail(f"exit {code}, expected 96 with the ranks saying they lost the coordinator")
    check_nothing_left("rank_branch")


def user_collective(buggy):
    """A library's own collectives, named by a rules file and exported from a
    shared library, are interposed and matched like MPI's."""
    env = {"LOCKSTEP_INTERCEPT": lib.A.user_interposer}
    if buggy:
        diverged("user_collective", [], "mismatch", {0: "user-allreduce", 1: "user-barrier"},
                 [r"rank 0 calls usercoll_allreduce\(count=4\), rank 1 calls usercoll_barrier"],
                 env=env)
        return
    result = clean("user_collective", ["fixed"], env=env)
    calls = [r["calls"] for r in result["ranks"]]
    if calls != [6, 6]:  # five of the library's allreduces and MPI_Finalize, not its sends
        fail(f"verified calls per rank {calls}, expected [6, 6]")


CASES = {
    "stress.2": lambda: stress(2),
    "stress.4": lambda: stress(4),
    **{f"left.{how}.{ranks}": (lambda how=how, ranks=ranks: left(how, ranks))
       for how in ("exit", "return", "finalize", "crash", "kill") for ranks in (2, 4)},
    "mpirun_options": mpirun_options,
    "clean_stop": clean_stop,
    "flood": flood,
    "lost_coordinator": lost_coordinator,
    "user_collective.buggy": lambda: user_collective(True),
    "user_collective.fixed": lambda: user_collective(False),
}
