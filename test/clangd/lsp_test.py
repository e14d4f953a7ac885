#!/usr/bin/env python3
"""Drives lockstep-clangd over the language server protocol and checks that a
lockstep finding reaches the editor, that check options from .clang-tidy reach
the checks, (given --lockstep) that a summary file written by
`lockstep check --summary-out` gives cross-file findings, and (given
--nvcc-db, where nvcc and CMake are installed) that a .cu file of a CMake
nvcc build opens without driver errors and with its lockstep finding.

exit: 0 passed, 1 failed, 77 skipped (lockstep-clangd not built, or no mpi.h)
"""

import argparse
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

DIAGNOSTICS_TIMEOUT_S = 60
REPUBLISH_GRACE_S = 5
SHUTDOWN_TIMEOUT_S = 10
LOCKSTEP_CHECK_TIMEOUT_S = 120
SKIP = 77

TRAIN = """\
#include <mpi.h>

void my_sync(MPI_Comm comm);

void step(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    MPI_Barrier(comm);
  if (rank == 0)
    my_sync(comm);
}
"""
BARRIER_LINE = 8  # 0-based, as in LSP
MY_SYNC_LINE = 10
BARRIER_MESSAGE = ("'MPI_Barrier' runs only on ranks where 'rank == 0'; "
                   "the other ranks never call it and the job hangs")
MY_SYNC_MESSAGE = "'my_sync' runs only on ranks where 'rank == 0'"

CKPT = """\
#include <mpi.h>

void save_checkpoint(MPI_Comm comm) {
  MPI_Barrier(comm);
}
"""
CALLER = """\
#include <mpi.h>

void save_checkpoint(MPI_Comm comm);

void train_step(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    save_checkpoint(comm);
}
"""
CALLER_LINE = 8
CROSS_FILE_MESSAGE = ("'save_checkpoint' (which calls 'MPI_Barrier') runs only on ranks "
                      "where 'rank == 0'")

USER_RULES = {
    "version": 1,
    "api": "lsp-test",
    "collectives": [{"name": "my_sync", "operation": "barrier", "args": {"comm": 0}}],
}


class Failure(Exception):
    pass


class Server:
    """A language server child process spoken to with Content-Length framing."""

    def __init__(self, argv, cwd, env, stderr):
        self.start = time.monotonic()
        try:
            self.proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=stderr)
        except OSError as error:
            raise Failure(f"cannot start {argv[0]}: {error}")
        self.inbox = queue.Queue()
        self.next_id = 1
        self.diagnostics = {}  # uri -> (seconds since start, latest diagnostics)
        threading.Thread(target=self._read, daemon=True).start()

    def elapsed(self):
        return time.monotonic() - self.start

    def _read(self):
        out = self.proc.stdout
        try:
            while True:
                length = None
                while True:
                    line = out.readline()
                    if not line:
                        return
                    line = line.strip()
                    if not line:
                        break
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                if length is None:
                    raise ValueError("message without Content-Length")
                self.inbox.put(json.loads(out.read(length)))
        except Exception as error:  # reported by the waiting side
            self.inbox.put(error)
        finally:
            self.inbox.put(None)

    def send(self, message):
        body = json.dumps(dict(jsonrpc="2.0", **message)).encode()
        try:
            self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError) as error:
            raise Failure(f"cannot write to lockstep-clangd ({error}); it exited "
                          f"with {self.proc.poll()}")

    def notify(self, method, params):
        self.send({"method": method, "params": params})

    def request(self, method, params, timeout):
        request_id = self.next_id
        self.next_id += 1
        self.send({"id": request_id, "method": method, "params": params})
        reply = self.wait(lambda m: m.get("id") == request_id and "method" not in m,
                          timeout, f"the reply to '{method}'")
        if "error" in reply:
            raise Failure(f"'{method}' failed: {reply['error']}")
        return reply.get("result")

    def wait(self, wanted, timeout, what):
        """Handles messages until one satisfies `wanted`; fails after `timeout`."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise Failure(f"no {what} within {timeout:.1f} s")
            try:
                message = self.inbox.get(timeout=remaining)
            except queue.Empty:
                continue
            if message is None:
                raise Failure(f"lockstep-clangd closed its output (exit status "
                              f"{self.proc.poll()}) while waiting for {what}")
            if isinstance(message, Exception):
                raise Failure(f"unreadable message from lockstep-clangd: {message}")
            if "method" in message and "id" in message:
                # Server requests (progress tokens, ...) block it until answered.
                self.send({"id": message["id"], "result": None})
            if message.get("method") == "textDocument/publishDiagnostics":
                params = message["params"]
                self.diagnostics[params["uri"]] = (self.elapsed(), params["diagnostics"])
            if wanted(message):
                return message

    def wait_diagnostics(self, uri, wanted, timeout):
        """Waits for published diagnostics of `uri` that satisfy `wanted`. Once
        others were published, waits only REPUBLISH_GRACE_S more for a newer set."""
        deadline = time.monotonic() + timeout
        while True:
            last = self.diagnostics.get(uri)
            if last and wanted(last[1]):
                return last
            if last:
                deadline = min(deadline, time.monotonic() + REPUBLISH_GRACE_S)
            try:
                self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                          and m["params"]["uri"] == uri,
                          max(deadline - time.monotonic(), 0),
                          f"expected lockstep finding in {uri}")
            except Failure as failure:
                last = self.diagnostics.get(uri)
                shown = json.dumps(last[1], indent=1) if last else "none"
                raise Failure(f"{failure}; last diagnostics published: {shown}")

    def close(self):
        """Shuts the server down over LSP; it must exit with status 0."""
        try:
            self.request("shutdown", None, SHUTDOWN_TIMEOUT_S)
            self.notify("exit", None)
            self.proc.wait(timeout=SHUTDOWN_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise Failure(f"lockstep-clangd still runs {SHUTDOWN_TIMEOUT_S} s after exit")
        finally:
            self.kill()
        if self.proc.returncode != 0:
            raise Failure(f"lockstep-clangd exited with {self.proc.returncode} after "
                          "shutdown/exit")

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def write_cross_file_project(root, mpi_include, lockstep):
    """Two files whose summary `lockstep check` writes; returns the caller."""
    project = root / "cross_file"
    project.mkdir()
    (project / "ckpt.cpp").write_text(CKPT)
    (project / "train.cpp").write_text(CALLER)
    (project / "compile_commands.json").write_text(json.dumps([
        {"directory": str(project), "file": name,
         "arguments": ["clang++", "-std=c++17", f"-I{mpi_include}", "-c", name]}
        for name in ("ckpt.cpp", "train.cpp")]))
    summary = project / "summary.json"
    argv = [lockstep, "check", "-p", str(project), "--summary-out", str(summary),
            "--no-cache", "--quiet"]
    try:
        done = subprocess.run(argv, capture_output=True, text=True,
                              timeout=LOCKSTEP_CHECK_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise Failure(f"{' '.join(argv)}: {error}")
    if done.returncode not in (0, 1) or not summary.is_file():
        raise Failure(f"{' '.join(argv)} exited with {done.returncode} and wrote no "
                      f"summary:\n{done.stdout}{done.stderr}")
    (project / ".clang-tidy").write_text(
        "Checks: '-*,lockstep-*'\n"
        f"CheckOptions:\n  SummaryFile: '{summary}'\n")
    return project / "train.cpp"


def lockstep_findings(diagnostics, message):
    return [d for d in diagnostics
            if d.get("source") == "clang-tidy" and d.get("code") == "lockstep-rank-branch"
            and d.get("message", "").startswith(message)]


def expect_finding(diagnostics, message, line, uri):
    found = lockstep_findings(diagnostics, message)
    if not found:
        raise Failure(f"no lockstep-rank-branch finding \"{message}\" in {uri}: "
                      + json.dumps(diagnostics, indent=1))
    # clangd widens the range to the highlighted branch that contains the call.
    reported = found[0]["range"]
    first, last = reported["start"]["line"], reported["end"]["line"]
    if not first <= line <= last:
        raise Failure(f"\"{message}\" reported on lines {first + 1}-{last + 1}, "
                      f"expected a range covering line {line + 1}")


def write_project(root, mpi_include):
    (root / "compile_flags.txt").write_text(f"-xc++\n-std=c++17\n-I{mpi_include}\n")
    (root / ".clang-tidy").write_text("Checks: '-*,lockstep-*'\n")
    # clangd's default (Strict) runs only checks it has timed; lockstep's are not among them.
    (root / ".clangd").write_text("Diagnostics:\n  ClangTidy:\n    FastCheckFilter: Loose\n")
    (root / "train.cpp").write_text(TRAIN)
    # The same code under a .clang-tidy whose RuleFiles option declares my_sync.
    rules = root / "my_rules.json"
    rules.write_text(json.dumps(USER_RULES))
    with_rules = root / "with_rules"
    with_rules.mkdir()
    (with_rules / ".clang-tidy").write_text(
        "Checks: '-*,lockstep-*'\n"
        f"CheckOptions:\n  RuleFiles: '{rules}'\n")
    (with_rules / "train.cpp").write_text(TRAIN)


def open_file(server, path, language="cpp"):
    uri = path.as_uri()
    server.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": language, "version": 1, "text": path.read_text()}})
    return uri


NVCC_MESSAGE = "'ncclAllReduce' runs only on ranks where 'rank == 0'"
NVCC_LINE = 29


def run_nvcc(clangd, make_db, root):
    """A CMake nvcc build's compile_commands.json: clangd gets nvcc's flags as
    translated by lockstep, so the file has no errors and its finding."""
    build = root / "nvcc-build"
    made = subprocess.run(["bash", make_db, str(build)], capture_output=True, text=True,
                          timeout=LOCKSTEP_CHECK_TIMEOUT_S)
    if made.returncode == SKIP:
        print("SKIP nvcc: " + made.stdout.strip().splitlines()[0])
        return
    if made.returncode != 0:
        raise Failure(f"{make_db} failed:\n{made.stdout}{made.stderr}")
    source = Path(make_db).resolve().parent / "nvcc_project" / "train_step.cu"
    config = root / "xdg-nvcc" / "clangd"
    config.mkdir(parents=True)
    # The source tree holds no .clang-tidy or .clangd: enable the checks here.
    (config / "config.yaml").write_text(
        "Diagnostics:\n  ClangTidy:\n    Add: ['lockstep-*']\n    FastCheckFilter: Loose\n")
    env = dict(os.environ, XDG_CONFIG_HOME=str(root / "xdg-nvcc"))
    with open(root / "clangd-nvcc.log", "wb") as log:
        server = Server([clangd, "--log=info", "--background-index=false",
                         f"--compile-commands-dir={build}"], root, env, log)
        try:
            server.request("initialize", {
                "processId": os.getpid(), "rootUri": root.as_uri(),
                "capabilities": {"textDocument": {"publishDiagnostics": {}}},
            }, DIAGNOSTICS_TIMEOUT_S)
            server.notify("initialized", {})
            uri = open_file(server, source, "cuda-cpp")
            _, diagnostics = server.wait_diagnostics(
                uri, lambda d: bool(lockstep_findings(d, NVCC_MESSAGE)), DIAGNOSTICS_TIMEOUT_S)
            expect_finding(diagnostics, NVCC_MESSAGE, NVCC_LINE, uri)
            errors = [d for d in diagnostics if d.get("severity") == 1]
            if errors:
                raise Failure("errors in the nvcc-built file: " + json.dumps(errors, indent=1))
            print("PASS train_step.cu (CMake nvcc build): no driver errors, "
                  "lockstep-rank-branch on ncclAllReduce")
        except Failure:
            server.kill()
            raise
        server.close()


def run(clangd, mpi_include, lockstep, make_nvcc_db, root):
    write_project(root, mpi_include)
    caller = write_cross_file_project(root, mpi_include, lockstep) if lockstep else None
    env = dict(os.environ, XDG_CONFIG_HOME=str(root / "xdg"))  # no user config.yaml
    log_path = root / "clangd.log"
    with open(log_path, "wb") as log:
        # No background index: it is not under test, and exit waits for it.
        server = Server([clangd, "--log=info", "--background-index=false"], root, env, log)
        try:
            server.request("initialize", {
                "processId": os.getpid(),
                "rootUri": root.as_uri(),
                "capabilities": {"textDocument": {"publishDiagnostics": {}}},
            }, DIAGNOSTICS_TIMEOUT_S)
            server.notify("initialized", {})
            print(f"initialized after {server.elapsed():.2f} s")

            # Both at once: clangd builds them on two threads, as in an editor.
            opened = server.elapsed()
            plain = open_file(server, root / "train.cpp")
            with_rules = open_file(server, root / "with_rules" / "train.cpp")

            at, diagnostics = server.wait_diagnostics(
                plain, lambda d: bool(lockstep_findings(d, BARRIER_MESSAGE)),
                DIAGNOSTICS_TIMEOUT_S)
            expect_finding(diagnostics, BARRIER_MESSAGE, BARRIER_LINE, plain)
            if lockstep_findings(diagnostics, MY_SYNC_MESSAGE):
                raise Failure("my_sync flagged without the RuleFiles option that declares it")
            print(f"PASS train.cpp: lockstep-rank-branch on MPI_Barrier, {at:.2f} s after "
                  f"start ({at - opened:.2f} s after didOpen)")

            at, diagnostics = server.wait_diagnostics(
                with_rules, lambda d: bool(lockstep_findings(d, MY_SYNC_MESSAGE)),
                DIAGNOSTICS_TIMEOUT_S)
            expect_finding(diagnostics, MY_SYNC_MESSAGE, MY_SYNC_LINE, with_rules)
            expect_finding(diagnostics, BARRIER_MESSAGE, BARRIER_LINE, with_rules)
            print(f"PASS with_rules/train.cpp: RuleFiles from .clang-tidy makes my_sync a "
                  f"collective, {at:.2f} s after start ({at - opened:.2f} s after didOpen)")

            if caller:
                uri = open_file(server, caller)
                _, diagnostics = server.wait_diagnostics(
                    uri, lambda d: bool(lockstep_findings(d, CROSS_FILE_MESSAGE)),
                    DIAGNOSTICS_TIMEOUT_S)
                expect_finding(diagnostics, CROSS_FILE_MESSAGE, CALLER_LINE, uri)
                # clangd folds notes outside the open file into the message.
                finding = lockstep_findings(diagnostics, CROSS_FILE_MESSAGE)[0]
                if "ckpt.cpp:4:3" not in finding["message"]:
                    raise Failure("the cross-file finding has no note pointing into ckpt.cpp")
                print("PASS cross_file/train.cpp: SummaryFile from `lockstep check "
                      "--summary-out` finds the barrier inside ckpt.cpp")
        except Failure:
            server.kill()
            raise
        server.close()
        print(f"PASS shutdown/exit after {server.elapsed():.2f} s")
    if make_nvcc_db:
        run_nvcc(clangd, make_nvcc_db, root)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("clangd", help="the lockstep-clangd binary")
    parser.add_argument("--mpi-include", default="/usr/lib/x86_64-linux-gnu/openmpi/include",
                        help="directory with mpi.h")
    parser.add_argument("--lockstep", help="the lockstep binary, for the cross-file test")
    parser.add_argument("--nvcc-db", help="test/cli/make_nvcc_db.sh, for the nvcc test")
    args = parser.parse_args()
    clangd = os.path.abspath(args.clangd)  # the server runs in the temp project
    lockstep = os.path.abspath(args.lockstep) if args.lockstep else None
    if not os.access(clangd, os.X_OK):
        print(f"SKIP: {clangd} is not built (CMake skips it without the clangd libraries; "
              "see its 'lockstep-clangd' status line)")
        return SKIP
    if not (Path(args.mpi_include) / "mpi.h").is_file():
        print(f"SKIP: no mpi.h in {args.mpi_include}")
        return SKIP
    with tempfile.TemporaryDirectory(prefix="lockstep-lsp-") as tmp:
        root = Path(tmp).resolve()
        try:
            run(clangd, args.mpi_include, lockstep, args.nvcc_db, root)
        except Failure as failure:
            print(f"FAIL: {failure}")
            for log in (root / "clangd.log", root / "clangd-nvcc.log"):
                if log.is_file():
                    print(f"--- last lines of {log.name} ---")
                    print("\n".join(log.read_text(errors="replace").splitlines()[-40:]))
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
