"""What the `lockstep check` end-to-end tests share: running a command with an
expected exit status, collecting failures, and copying a test project with
its compile_commands.json written for this machine."""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
failures = []


def run(args, cwd, expect, timeout=600):
    p = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    if expect is not None and p.returncode != expect:
        failures.append("%s (in %s): exit %d, expected %d\nstdout:\n%s\nstderr:\n%s"
                        % (" ".join(args), cwd, p.returncode, expect, p.stdout, p.stderr))
    return p


def check(condition, what):
    if not condition:
        failures.append(what)
    return condition


def project(name, work, mpi_include):
    """Copies test/cli/NAME to WORK/NAME, writing compile_commands.json from
    its .in template (@DIR@: the copy, @MPI@: mpi.h's directory)."""
    root = os.path.join(work, name)
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(os.path.join(HERE, name), root)
    with open(os.path.join(root, "compile_commands.json.in")) as f:
        text = f.read().replace("@DIR@", root).replace("@MPI@", mpi_include)
    with open(os.path.join(root, "compile_commands.json"), "w") as f:
        f.write(text)
    return root


def finish(what):
    if failures:
        print("\n\n".join(failures))
        sys.exit(1)
    print(what + ": all end-to-end expectations met")
