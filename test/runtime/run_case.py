#!/usr/bin/env python3
"""Runs one runtime-verifier test case (ctest calls it once per case).

usage: run_case.py --lockstep BIN --programs DIR --sources DIR --work DIR CASE

Each case runs real programs under `lockstep run` and checks the exit code,
the diagnosis (kind, ranks, call sites of every rank, detection time against
the issue's 2 s bound), that correct programs print what they print without
lockstep, and that no process outlives the run. Exit 77 means skipped.
"""
import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time

SKIP = 77
DETECTION_BOUND_MS = 2000  # the bound for every hang or mismatch
RUN_TIMEOUT_S = 120        # generous: a loaded 2-core machine

A = None  # parsed arguments


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


def lockstep(name, args, ranks=2, mode="--mpi", extra=(), timeout=RUN_TIMEOUT_S, quiet=False):
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
    code, out, err = run(argv, timeout)
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
             mode="--mpi"):
    """A buggy variant: named divergence, every involved rank's call site."""
    code, out, err, result = lockstep(name, args, ranks, mode=mode, extra=extra)
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


def clean(name, args, ranks=2):
    """A correct variant: no alarm, and each rank prints what it prints under plain mpirun."""
    code, out, err, result = lockstep(name, args, ranks)
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
    with open(os.path.join(A.work, "leave.json")) as f:
        d = json.load(f)["divergence"]
    if d["ranks"] != leavers or d["points"][0]["seq"] != 4:
        fail(f"named ranks {d['ranks']} at #{d['points'][0]['seq']}, expected {leavers} at #4")
    print(f"{how}: ranks {leavers} named, at collective #4")


def mpirun_options():
    """mpirun's own options reach it, from LOCKSTEP_MPIRUN and --mpirun-args."""
    base = [A.lockstep, "run", "-q", "-n", "2", "--mpi"]
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
    json_path = os.path.join(A.work, "stop.json")
    jobs = [(["rank_branch"], "[mismatch]"), (["leave", "exit", "1"], "[rank-left]"),
            (["leave", "crash", "1"], "[rank-left]")]
    for i in range(runs):
        job, kind = jobs[i % len(jobs)]
        argv = [A.lockstep, "run", "-n", "2", "--mpi", "--json", json_path, "--",
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
    json_path = os.path.join(A.work, "flood.json")
    argv = [A.lockstep, "run", "-n", "2", "--mpi", "--listen", f"127.0.0.1:{port}", "--json",
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


def probe():
    code, out, err, _ = lockstep("peer_probe", [], mode=None)
    if code != 0:
        fail(f"exit code {code}")
    for case in ["silent", "garbage", "not-hello", "wrong-token", "oversized"]:
        if f"[rank 0] probe {case}: refused" not in out:
            fail(f"connection '{case}' was not refused")
    for rank in (0, 1):
        for var in (f"RANK={rank}", "WORLD_SIZE=2", f"LOCAL_RANK={rank}", "LOCAL_WORLD_SIZE=2",
                    "MASTER_ADDR=127.0.0.1", "MASTER_PORT set: yes"):
            if f"[rank {rank}] {var}" not in out:
                fail(f"rank {rank} lacks {var}")
    for reason in ["no hello within 3 s", "frame length", "first message is not a hello", "wrong job token"]:
        if reason not in err:
            fail(f"the refusal '{reason}' was not reported")


def busy_port():
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen(1)
    port = holder.getsockname()[1]
    argv = [A.lockstep, "run", "-n", "2", "--listen", f"127.0.0.1:{port}", "--", "/bin/true"]
    code, out, err = run(argv)
    print(err)
    if code != 96 or f"cannot listen on 127.0.0.1:{port}" not in err or "choose another port" not in err:
        fail(f"busy port: exit {code}")
    code, out, err = run([A.lockstep, "run", "-n", "2", "-q", "--", "/bin/true"])
    if code != 0:
        fail(f"a free port was not picked while {port} is busy (exit {code})")


def launcher_killed(mode):
    """lockstep itself is SIGKILLed mid-run: its ranks must not outlive it."""
    argv = [A.lockstep, "run", "-n", "2", "--timeout", "0"]
    if mode:
        argv.append(mode)
    argv += ["--", program("stall")]
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=mpi_env(),
                         start_new_session=True)
    deadline = time.time() + 60
    while len(leftovers(program("stall"))) < 2:  # both ranks running
        if time.time() > deadline or p.poll() is not None:
            os.killpg(p.pid, signal.SIGKILL)
            fail("the ranks did not start")
        time.sleep(0.1)
    time.sleep(1)
    p.kill()
    p.wait()
    check_nothing_left("stall")
    print("no rank outlived the killed launcher")


def verdicts():
    lines = site_lines("rank_branch.c")
    src = os.path.join(A.sources, "rank_branch.c")
    findings = os.path.join(A.work, "findings.json")
    with open(findings, "w") as f:
        json.dump({"findings": [
            {"file": src, "line": lines["checkpoint-call"], "check": "lockstep-rank-branch",
             "notes": [{"file": src, "line": lines["checkpoint-barrier"]}]},
            {"file": "programs/rank_branch.c", "line": lines["unreached"], "check": "lockstep-rank-branch"},
        ]}, f)
    _, _, err, result = lockstep("rank_branch", [], extra=["--findings", findings])
    got = [v["verdict"] for v in result["verdicts"]]
    if got != ["CONFIRMED", "NOT REACHED"]:
        fail(f"verdicts {got}")
    text = os.path.join(A.work, "findings.txt")
    with open(text, "w") as f:
        f.write(f"# clang-style lines work too\nrank_branch.c:{lines['grad-allreduce']}:3: warning: x [lockstep-rank-branch]\n"
                f"   12 |   MPI_Allreduce(...)\nrank_branch.c:{lines['unreached']}\n")
    _, _, err, result = lockstep("rank_branch", ["fixed"], extra=["--findings", text])
    got = [v["verdict"] for v in result["verdicts"]]
    if got != ["NOT REPRODUCED", "NOT REACHED"]:
        fail(f"verdicts {got}")
    if "NOT REPRODUCED" not in err or "lockstep-rank-branch" not in result["verdicts"][0]["check"]:
        fail("verdicts not printed")


def report():
    chromium = next((c for c in ("chromium", "chromium-browser", "google-chrome")
                     if subprocess.run(["which", c], capture_output=True).returncode == 0), None)
    if not chromium:
        print("skipped: no chromium (scripts/setup.sh installs it)")
        sys.exit(SKIP)
    html = os.path.join(A.work, "report.html")
    findings = os.path.join(A.work, "findings.txt")
    with open(findings, "w") as f:
        f.write(f"rank_branch.c:{site_lines('rank_branch.c')['checkpoint-barrier']}\n")
    lockstep("rank_branch", [], extra=["--report", html, "--findings", findings])
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             f"--user-data-dir={os.path.join(A.work, 'chromium-profile')}"]
    code, dom, err = run([chromium, *flags, "--dump-dom", "file://" + html], timeout=90)
    if code != 0:
        fail(f"chromium --dump-dom failed ({code}): {err}")
    lanes = re.findall(r'class="lane" data-rank="(\d+)"', dom)
    if sorted(set(lanes)) != ["0", "1"]:
        fail(f"lanes in the rendered page: {lanes}")
    if 'class="box diverged"' not in dom or "title=" not in dom:
        fail("no highlighted diverging box with a call site on hover")
    if "verdict-CONFIRMED" not in dom:
        fail("the verdicts are not listed")
    lines = site_lines("rank_branch.c")
    for site in ("checkpoint-barrier", "grad-allreduce"):  # each rank's call site, with its line
        if f'class="site">rank_branch.c:{lines[site]}<' not in dom:
            fail(f"no box shows the call site rank_branch.c:{lines[site]}")
    if "<code>MPI_Barrier(" not in dom:
        fail("the call site's source line is not shown")
    if not re.search(r'class="since">\+[\d.]+ (us|ms|s)<', dom):
        fail("no time since the previous collective on a lane")
    lane_cells = [re.findall(r'<div class="(box[^"]*|gap)"', lane)
                  for lane in re.findall(r'<div class="lane" data-rank="\d+">(.*?)</div>\n(?=<div class="lane"|</div>)',
                                         dom, re.S)]
    if not lane_cells or not any(cells and cells[-1].startswith("box") for cells in lane_cells):
        fail("the trace ends with a column of gaps only")
    shot = os.path.join(A.work, "report.png")
    code, _, err = run([chromium, *flags, "--window-size=1400,900", f"--screenshot={shot}",
                        "file://" + html], timeout=90)
    if code != 0 or not os.path.exists(shot) or os.path.getsize(shot) < 1000:
        fail(f"no screenshot ({code}): {err}")
    print(f"rendered {len(lanes)} lanes with the divergence highlighted; screenshot: {shot}")


def bad_input():
    checks = [
        ([A.lockstep, "run", "--", "/bin/true"], 2, "the number of ranks is required"),
        ([A.lockstep, "run", "-n", "0", "--", "/bin/true"], 2, "not a number of ranks"),
        ([A.lockstep, "run", "-n", "2", "--timeout", "soon", "--", "/bin/true"], 2, "not a number of seconds"),
        ([A.lockstep, "run", "-n", "2", "--findings", "/nonexistent", "--", "/bin/true"], 2, "cannot read findings"),
        ([A.lockstep, "run", "-n", "2", "--listen", "localhost", "--", "/bin/true"], 2, "expected HOST:PORT"),
        ([A.lockstep, "run", "-n", "2", "--", "/nonexistent/program"], 127, "cannot run '/nonexistent/program'"),
        ([A.lockstep, "run", "-n", "2", "--mpi", "--", "/nonexistent/program"], 127,
         "cannot run '/nonexistent/program'"),
        ([A.lockstep, "run", "-n", "2", "--report", "/nonexistent/r.html", "--", "/bin/true"], 2,
         "cannot write '/nonexistent/r.html'"),
        ([A.lockstep, "run", "-n", "2", "--json", "/nonexistent/r.json", "--", "/bin/true"], 2,
         "cannot write '/nonexistent/r.json'"),
        ([A.lockstep, "run", "-n", "2", "--", program("rank_branch"), "fixed"], 2,
         "run them with 'lockstep run --mpi'"),
        ([A.lockstep, "run", "-n", "2", "--mpirun-args", "-x A", "--", "/bin/true"], 2,
         "--mpirun-args needs --mpi"),
        ([A.lockstep, "frobnicate"], 2, "unknown command 'frobnicate'"),
    ]
    bad = os.path.join(A.work, "bad-findings.txt")
    with open(bad, "w") as f:
        f.write("a.c:12\nthis is not a location\n")
    checks.append(([A.lockstep, "run", "-n", "2", "--findings", bad, "--", "/bin/true"], 2,
                   "bad-findings.txt:2: expected FILE:LINE"))
    for argv, expected, message in checks:
        code, out, err = run(argv)
        if code != expected or message not in err:
            fail(f"{argv[1:]}: exit {code}, stderr {err!r}; expected {expected} and '{message}'")
    code, _, err = run([A.lockstep, "run", "-n", "2", "-q", "--", "/bin/sh", "-c", 'exit "$RANK"'])
    if code != 1:
        fail(f"a rank's exit code did not pass through (exit {code})")
    print("bad input gives clear errors and the documented exit codes")


def nccl(args, kind):
    probe_bin = program("nccl_probe")
    if not os.path.exists(probe_bin):
        print("skipped: built without CUDA and NCCL (no nccl.h, libnccl or libcudart)")
        sys.exit(SKIP)
    code, out, err = run([probe_bin])
    if code != 0:
        print(f"skipped: no usable CUDA GPU on this machine ({(out + err).strip()})")
        sys.exit(SKIP)
    if kind is None:
        code, out, err, result = lockstep("nccl_allreduce", args, mode=None)
        if code != 0 or result["divergence"] is not None:
            fail(f"false alarm or failure (exit {code})")
    else:
        sites = {0: "bcast", 1: "allreduce"} if args == ["branch"] else {0: "allreduce", 1: "allreduce"}
        diverged("nccl_allreduce", args, kind, sites, mode=None)


CASES = {
    "rank_branch.buggy": lambda: diverged("rank_branch", [], "mismatch",
                                          {0: "checkpoint-barrier", 1: "grad-allreduce"},
                                          [r"rank 0 calls MPI_Barrier, rank 1 calls MPI_Allreduce"]),
    "rank_branch.fixed": lambda: clean("rank_branch", ["fixed"]),
    "early_exit.buggy": lambda: diverged("early_exit", [], "rank-left", {0: "loss-allreduce"},
                                         [r"rank 1 called MPI_Finalize after 3 collectives"]),
    "early_exit.fixed": lambda: clean("early_exit", ["fixed"]),
    "rank_loop.buggy": lambda: diverged("rank_loop", [], "mismatch",
                                        {0: "epoch-barrier", 1: "batch-allreduce"}),
    "rank_loop.fixed": lambda: clean("rank_loop", ["fixed"]),
    "root_mismatch": lambda: diverged("mismatch", ["root"], "mismatch", {0: "bcast-root", 1: "bcast-root"},
                                      [r"\(root\)", r"root=0", r"root=1"]),
    "count_mismatch": lambda: diverged("mismatch", ["count"], "mismatch", {0: "bcast-count", 1: "bcast-count"},
                                       [r"\(count\)", r"count=4", r"count=8"]),
    "datatype_mismatch": lambda: diverged("mismatch", ["datatype"], "mismatch",
                                          {0: "reduce-step", 1: "reduce-float"}, [r"MPI_INT", r"MPI_FLOAT"]),
    "op_mismatch": lambda: diverged("mismatch", ["op"], "mismatch", {0: "reduce-step", 1: "reduce-step"},
                                    [r"\(reduction operator\)", r"MPI_MAX"]),
    "mismatch.fixed": lambda: clean("mismatch", ["fixed"]),
    "two_comms.buggy": lambda: diverged("two_comms", [], "deadlock", {0: "reduce-a", 1: "reduce-b"},
                                        [r"rank 0 waits in MPI_Allreduce #1 on MPI communicator \d+, "
                                         r"which rank 1 has not called"]),
    "two_comms.fixed": lambda: clean("two_comms", ["fixed"], ranks=4),
    "join_barrier.buggy": lambda: diverged("join_barrier", [], "mismatch", {0: "barrier", 1: "backward"}),
    "join_barrier.fixed": lambda: clean("join_barrier", ["fixed"]),
    "kill_rank.sigkill": lambda: diverged("kill_rank", [], "rank-left", {0: "allreduce"},
                                          [r"rank 1 disconnected without a goodbye \(crashed or killed\) "
                                           r"after 3 collectives"]),
    "kill_rank.exit": lambda: diverged("kill_rank", ["exit"], "rank-left", {0: "allreduce"},
                                       [r"rank 1 exited without calling MPI_Finalize after 3 collectives"]),
    "stall": lambda: diverged("stall", [], "stall", {0: "barrier"}, [r"no progress for 1 s"],
                              extra=["--timeout", "1"], bound_ms=1000 + DETECTION_BOUND_MS),
    "attach": lambda: diverged("rank_loop", [], "mismatch", {0: "epoch-barrier", 1: "batch-allreduce"},
                               mode="--attach"),
    "stress.2": lambda: stress(2),
    "stress.4": lambda: stress(4),
    **{f"left.{how}.{ranks}": (lambda how=how, ranks=ranks: left(how, ranks))
       for how in ("exit", "return", "finalize", "crash", "kill") for ranks in (2, 4)},
    "mpirun_options": mpirun_options,
    "clean_stop": clean_stop,
    "flood": flood,
    "probe": probe,
    "busy_port": busy_port,
    "launcher_killed.direct": lambda: launcher_killed(None),
    "launcher_killed.mpi": lambda: launcher_killed("--mpi"),
    "verdicts": verdicts,
    "report": report,
    "bad_input": bad_input,
    "nccl.fixed": lambda: nccl(["fixed"], None),
    "nccl.count": lambda: nccl(["count"], "mismatch"),
    "nccl.branch": lambda: nccl(["branch"], "mismatch"),
}


def main():
    global A
    parser = argparse.ArgumentParser()
    for option in ("--lockstep", "--programs", "--sources", "--work"):
        parser.add_argument(option, required=True)
    parser.add_argument("case", choices=sorted(CASES))
    A = parser.parse_args()
    os.makedirs(A.work, exist_ok=True)
    CASES[A.case]()
    print("PASS")


if __name__ == "__main__":
    main()
