#!/usr/bin/env python3
"""Runs one runtime-verifier test case (ctest calls it once per case).

usage: run_case.py --lockstep BIN --programs DIR --sources DIR --work DIR
                   --user-interposer LIB CASE

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

import case_lib as lib
import lifecycle_cases
from case_lib import (DETECTION_BOUND_MS, SKIP, check_nothing_left, clean, diverged, fail, leftovers,
                      lockstep, mpi_env, program, run, site_lines)


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
    argv = [lib.A.lockstep, "run", "-n", "2", "--listen", f"127.0.0.1:{port}", "--", "/bin/true"]
    code, out, err = run(argv)
    print(err)
    if code != 96 or f"cannot listen on 127.0.0.1:{port}" not in err or "choose another port" not in err:
        fail(f"busy port: exit {code}")
    code, out, err = run([lib.A.lockstep, "run", "-n", "2", "-q", "--", "/bin/true"])
    if code != 0:
        fail(f"a free port was not picked while {port} is busy (exit {code})")


def launcher_killed(mode):
    """lockstep itself is SIGKILLed mid-run: its ranks must not outlive it."""
    argv = [lib.A.lockstep, "run", "-n", "2", "--timeout", "0"]
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
    src = os.path.join(lib.A.sources, "rank_branch.c")
    findings = os.path.join(lib.A.work, "findings.json")
    with open(findings, "w") as f:
        # The JSON of lockstep check, which lockstep run reads strictly.
        def finding(id, file, line, notes):
            return {"id": id, "check": "lockstep-rank-branch", "file": file, "line": line, "column": 3,
                    "message": "x", "function": "", "collective": "", "communicator": "",
                    "condition": "", "notes": notes}
        json.dump({"version": 1, "tool": "lockstep", "findings": [
            finding("0000000000000001", src, lines["checkpoint-call"],
                    [{"file": src, "line": lines["checkpoint-barrier"], "column": 3, "message": "y"}]),
            finding("0000000000000002", "programs/rank_branch.c", lines["unreached"], []),
        ], "summary": {}}, f)
    _, _, err, result = lockstep("rank_branch", [], extra=["--findings", findings])
    got = [v["verdict"] for v in result["verdicts"]]
    if got != ["CONFIRMED", "NOT REACHED"]:
        fail(f"verdicts {got}")
    text = os.path.join(lib.A.work, "findings.txt")
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
    html = os.path.join(lib.A.work, "report.html")
    findings = os.path.join(lib.A.work, "findings.txt")
    with open(findings, "w") as f:
        f.write(f"rank_branch.c:{site_lines('rank_branch.c')['checkpoint-barrier']}\n")
    lockstep("rank_branch", [], extra=["--report", html, "--findings", findings])
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             f"--user-data-dir={os.path.join(lib.A.work, 'chromium-profile')}"]
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
    shot = os.path.join(lib.A.work, "report.png")
    code, _, err = run([chromium, *flags, "--window-size=1400,900", f"--screenshot={shot}",
                        "file://" + html], timeout=90)
    if code != 0 or not os.path.exists(shot) or os.path.getsize(shot) < 1000:
        fail(f"no screenshot ({code}): {err}")
    print(f"rendered {len(lanes)} lanes with the divergence highlighted; screenshot: {shot}")


def bad_input():
    checks = [
        ([lib.A.lockstep, "run", "--", "/bin/true"], 2, "the number of ranks is required"),
        ([lib.A.lockstep, "run", "-n", "0", "--", "/bin/true"], 2, "not a number of ranks"),
        ([lib.A.lockstep, "run", "-n", "2", "--timeout", "soon", "--", "/bin/true"], 2, "not a number of seconds"),
        ([lib.A.lockstep, "run", "-n", "2", "--findings", "/nonexistent", "--", "/bin/true"], 2, "cannot read findings"),
        ([lib.A.lockstep, "run", "-n", "2", "--listen", "localhost", "--", "/bin/true"], 2, "expected HOST:PORT"),
        ([lib.A.lockstep, "run", "-n", "2", "--", "/nonexistent/program"], 127, "cannot run '/nonexistent/program'"),
        ([lib.A.lockstep, "run", "-n", "2", "--mpi", "--", "/nonexistent/program"], 127,
         "cannot run '/nonexistent/program'"),
        ([lib.A.lockstep, "run", "-n", "2", "--report", "/nonexistent/r.html", "--", "/bin/true"], 2,
         "cannot write '/nonexistent/r.html'"),
        ([lib.A.lockstep, "run", "-n", "2", "--json", "/nonexistent/r.json", "--", "/bin/true"], 2,
         "cannot write '/nonexistent/r.json'"),
        ([lib.A.lockstep, "run", "-n", "2", "--", program("rank_branch"), "fixed"], 2,
         "run them with 'lockstep run --mpi'"),
        ([lib.A.lockstep, "run", "-n", "2", "--mpirun-args", "-x A", "--", "/bin/true"], 2,
         "--mpirun-args needs --mpi"),
        ([lib.A.lockstep, "frobnicate"], 2, "unknown command 'frobnicate'"),
    ]
    bad = os.path.join(lib.A.work, "bad-findings.txt")
    with open(bad, "w") as f:
        f.write("a.c:12\nthis is not a location\n")
    checks.append(([lib.A.lockstep, "run", "-n", "2", "--findings", bad, "--", "/bin/true"], 2,
                   "bad-findings.txt:2: expected FILE:LINE"))
    for argv, expected, message in checks:
        code, out, err = run(argv)
        if code != expected or message not in err:
            fail(f"{argv[1:]}: exit {code}, stderr {err!r}; expected {expected} and '{message}'")
    code, _, err = run([lib.A.lockstep, "run", "-n", "2", "-q", "--", "/bin/sh", "-c", 'exit "$RANK"'])
    if code != 1:
        fail(f"a rank's exit code did not pass through (exit {code})")
    print("bad input gives clear errors and the documented exit codes")


def nccl(args, kind, ranks=2):
    probe_bin = program("nccl_probe")
    if not os.path.exists(probe_bin):
        print("skipped: built without CUDA and NCCL (no nccl.h, libnccl or libcudart)")
        sys.exit(SKIP)
    code, out, err = run([probe_bin])
    if code != 0:
        print(f"skipped: no usable CUDA GPU on this machine ({(out + err).strip()})")
        sys.exit(SKIP)
    if kind is None:
        code, out, err, result = lockstep("nccl_allreduce", args, ranks, mode=None)
        if code != 0 or result["divergence"] is not None:
            fail(f"false alarm or failure (exit {code})")
    else:
        sites = {0: "bcast", 1: "allreduce"} if args == ["branch"] else {0: "allreduce", 1: "allreduce"}
        diverged("nccl_allreduce", args, kind, sites, ranks, mode=None)



CASES = {
    **lifecycle_cases.CASES,
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
    "nccl.fixed.4": lambda: nccl(["fixed"], None, ranks=4),
    "nccl.branch.4": lambda: nccl(["branch"], "mismatch", ranks=4),
}


# Cases that need neither MPI's programs nor mpirun.
WITHOUT_MPI = {"nccl.fixed", "nccl.count", "nccl.branch", "nccl.fixed.4", "nccl.branch.4", "probe"}


def main():
    parser = argparse.ArgumentParser()
    for option in ("--lockstep", "--programs", "--sources", "--work"):
        parser.add_argument(option, required=True)
    parser.add_argument("--user-interposer")
    parser.add_argument("--without-mpi", action="store_true",
                        help="the build found no MPI: only the NCCL cases can run")
    parser.add_argument("case", choices=sorted(CASES))
    lib.A = parser.parse_args()
    if lib.A.without_mpi and lib.A.case not in WITHOUT_MPI:
        print("skipped: built without MPI (CMake found no MPI C library), so its programs are missing")
        sys.exit(SKIP)
    os.makedirs(lib.A.work, exist_ok=True)
    CASES[lib.A.case]()
    print("PASS")


if __name__ == "__main__":
    main()
