#!/usr/bin/env python3
"""End-to-end test of what `lockstep check` and `lockstep merge` promise CI
and users, on test/cli/frontend (several units, one with a missing header,
one whose directory is gone, a vendored header reached through a relative
-I): outputs land where the user asked whatever the working directory and
the job count, bad configuration is exit 2 before any unit, NOLINT, --checks,
--header-filter, --exclude, --fix, --export-fixes, baseline counts, and
merge's check that the shards form one complete split.

usage: frontend_test.py LOCKSTEP MPI_INCLUDE CLANG_APPLY_REPLACEMENTS WORK_DIR"""
import glob
import json
import os
import shutil
import sys

from harness import check, finish, project, run

LOCKSTEP, MPI_INCLUDE, APPLY_REPLACEMENTS, WORK = sys.argv[1:5]
root = project("frontend", WORK, MPI_INCLUDE)
elsewhere = os.path.join(WORK, "frontend-invocation")
shutil.rmtree(elsewhere, ignore_errors=True)
os.makedirs(elsewhere)


def warnings(text):
    return sorted(line.split(": warning:")[0] for line in text.splitlines()
                  if ": warning:" in line)


TRAIN, FINISH, VENDOR = "train.cpp:8:5", "finish.cpp:9:3", "include/vendor/vendor.h:8:5"
FLUSH = "flush_caller.cpp:11:5"

# Text relative to the invocation directory; a unit that does not compile and
# one whose directory is gone are failures of their own, the rest analysed.
p = run([LOCKSTEP, "check", "-p", ".", "-j", "2", "--no-cache"], root, 1)
check(warnings(p.stdout) == sorted([TRAIN, FINISH, VENDOR, FLUSH]), "findings:\n" + p.stdout)
check("missing_header.cpp does not compile; not analysed" in p.stderr
      and "'lockstep_no_such_header.h' file not found" in p.stderr,
      "missing header not reported:\n" + p.stderr)
check("ghost.cpp cannot be compiled; not analysed" in p.stderr
      and "'%s/gone', does not exist" % root in p.stderr,
      "missing directory not reported:\n" + p.stderr)
check("4 findings in 6 translation units (4 analysed, 0 from cache, 2 failed)" in p.stderr,
      "summary line:\n" + p.stderr)

p = run([LOCKSTEP, "check", "-p", ".", "-q", "--verbose", "missing_header.cpp"], root, 2)
check("lockstep: note: missing_header.cpp: 'uses_missing' was not analysed: it does not compile"
      in p.stderr, "--verbose names the function left out:\n" + p.stderr)

# Outputs land where the user asked, relative to the invocation directory,
# while the units are parsed in parallel in their own directory.
for attempt in range(5):
    for stale in glob.glob(os.path.join(root, "out.*")) + glob.glob(os.path.join(elsewhere, "*")):
        os.remove(stale)
    run([LOCKSTEP, "check", "-p", "../frontend", "-j", "2", "--no-cache", "-q", "--format",
         "sarif", "-o", "out.sarif", "--summary-out", "out.summaries.json"], elsewhere, 1)
    check(sorted(os.listdir(elsewhere)) == ["out.sarif", "out.summaries.json"]
          and not glob.glob(os.path.join(root, "out.*")),
          "run %d: outputs in %s: %s, in %s: %s" % (
              attempt, elsewhere, os.listdir(elsewhere), root,
              glob.glob(os.path.join(root, "out.*"))))

# From elsewhere, files outside the invocation directory are absolute, notes
# into headers found through a relative -I included.
p = run([LOCKSTEP, "check", "-p", "../frontend", "-q"], elsewhere, 1)
check(os.path.join(root, "train.cpp") + ":8:5: warning:" in p.stdout
      and os.path.join(root, "include/vendor/flush.h") + ":4:43: note: 'MPI_Barrier' is called "
      "here, inside 'vendor_flush'" in p.stdout, "paths seen from elsewhere:\n" + p.stdout)

# Configuration errors: exit 2 with the message, however many jobs.
with open(os.path.join(elsewhere, "bad-version.json"), "w") as f:
    json.dump({"version": "1", "api": "x"}, f)
with open(os.path.join(elsewhere, "bad-operation.json"), "w") as f:
    json.dump({"version": 1, "api": "x", "collectives": [
        {"name": "f", "operation": "bcast", "args": {"comm": 0}}]}, f)
for jobs in ("1", "2", "4"):
    for args, message in [
            (["--rules", "bad-version.json"], "key 'version': the version must be an integer"),
            (["--rules", "bad-operation.json"], "unknown operation \"bcast\""),
            (["--header-filter", "("], "--header-filter: invalid regular expression"),
            (["--exclude", "[x"], "--exclude: invalid glob"),
            (["--checks", "bugprone-*"], "--checks: 'bugprone-*' matches no lockstep check"),
            (["--checks", "-*"], "--checks '-*' enables no lockstep check")]:
        p = run([LOCKSTEP, "check", "-p", "../frontend", "-j", jobs, "--no-cache"] + args,
                elsewhere, 2)
        check(message in p.stderr and p.stdout == "",
              "-j %s %s: expected '%s' and no findings:\n%s%s" % (jobs, args, message, p.stdout,
                                                                   p.stderr))

# --checks, --header-filter, --exclude; finish_quietly (finish.cpp) is NOLINT.
for args, expected in [
        (["--checks", "-*,lockstep-rank-exit"], [FINISH]),
        (["--checks", "-lockstep-rank-exit"], [TRAIN, VENDOR, FLUSH]),
        (["--header-filter", "^$"], [TRAIN, FINISH, FLUSH]),
        (["--header-filter", "vendor/"], [TRAIN, FINISH, VENDOR, FLUSH]),
        (["--exclude", "include/vendor"], [TRAIN, FINISH, FLUSH]),
        (["--exclude", "*/vendor/*.h", "--exclude", "train.cpp"], [FINISH, FLUSH])]:
    p = run([LOCKSTEP, "check", "-p", ".", "-q"] + args, root, 1)
    check(warnings(p.stdout) == sorted(expected),
          "%s: expected %s, got:\n%s" % (args, expected, p.stdout))

# Baseline: nothing new, and the summary says how much it suppressed.
run([LOCKSTEP, "check", "-p", ".", "-q", "--format", "json", "-o", "base.json"], root, 1)
p = run([LOCKSTEP, "check", "-p", ".", "--baseline", "base.json"], root, 0)
check("0 findings in 6 translation units" in p.stderr
      and "(4 suppressed by the baseline)" in p.stderr, "baseline summary:\n" + p.stderr)

# Shards: merge wants exactly one complete split.
for shard in ("1/2", "2/2", "1/3"):
    run([LOCKSTEP, "check", "-p", ".", "-q", "--shard", shard, "--format", "json",
         "-o", "shard%s.json" % shard.replace("/", "of")], root, None)
shutil.copy(os.path.join(root, "shard1of2.json"), os.path.join(root, "copy.json"))
p = run([LOCKSTEP, "merge", "-q", "shard1of2.json", "shard2of2.json"], root, 1)
check(warnings(p.stdout) == sorted([TRAIN, FINISH, VENDOR, FLUSH]) and p.stderr == "",
      "merge -q of a complete split:\n" + p.stdout + p.stderr)
for shards, message in [
        (["shard1of2.json"], "shard 2/2 missing"),
        (["shard1of2.json", "shard1of2.json"], "shard1of2.json (shard 1/2) is given twice"),
        (["shard1of2.json", "shard2of2.json", "copy.json"],
         "copy.json (shard 1/2): shard 1/2 is also given as " + os.path.join(root, "shard1of2.json")),
        (["shard1of3.json", "shard2of2.json"], "are shards of different splits")]:
    p = run([LOCKSTEP, "merge"] + shards, root, 2)
    check(message in p.stderr and p.stdout == "",
          "merge %s: expected '%s':\n%s%s" % (shards, message, p.stdout, p.stderr))

# --export-fixes writes what clang-apply-replacements applies; --fix applies
# the same edit itself. Either way the finding is gone afterwards.
fixes = os.path.join(WORK, "frontend-fixes")
shutil.rmtree(fixes, ignore_errors=True)
os.makedirs(fixes)
train = os.path.join(root, "train.cpp")
with open(train) as f:
    original = f.read()
moved = original.replace("  if (rank == 0)\n    MPI_Barrier(comm);\n", "  MPI_Barrier(comm);\n")
check(moved != original, "the fix-it test expects the braceless barrier in train.cpp")
run([LOCKSTEP, "check", "-p", ".", "-q", "--export-fixes",
     os.path.join(fixes, "lockstep.yaml"), "train.cpp"], root, 1)
with open(os.path.join(fixes, "lockstep.yaml")) as f:
    yaml = f.read()
check("DiagnosticName:  lockstep-rank-branch" in yaml and "ReplacementText: 'MPI_Barrier(comm);'"
      in yaml and "FilePath:        '%s'" % train in yaml, "exported fixes:\n" + yaml)
if os.path.exists(APPLY_REPLACEMENTS):
    run([APPLY_REPLACEMENTS, fixes], root, 0)
    with open(train) as f:
        check(f.read() == moved, "clang-apply-replacements did not move the barrier")
    with open(train, "w") as f:
        f.write(original)
p = run([LOCKSTEP, "check", "-p", ".", "--fix", "train.cpp"], root, 1)
check("applied 1 fix in 1 file" in p.stderr, "--fix summary:\n" + p.stderr)
with open(train) as f:
    check(f.read() == moved, "--fix did not move the barrier")
p = run([LOCKSTEP, "check", "-p", ".", "-q", "train.cpp"], root, 0)
check(p.stdout == "", "a finding is left after --fix:\n" + p.stdout)

finish("lockstep check front end")
