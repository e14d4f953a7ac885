#!/usr/bin/env python3
"""End-to-end test of `lockstep check` and `lockstep merge` on the multi-file
project in test/cli/project (and on the nvcc project when nvcc is present):
a cross-file hidden collective, SARIF and JSON outputs, baseline, exit codes,
shards and merge, the cache, the summary file read by the clang-tidy plugin,
per-rank fields across files (test/cli/fields_project), membership through
accessors of another file (test/cli/membership_project), calls to functions of
other files worded as local ones (test/cli/pending_project), a known collective
beside a call no file defines (test/cli/waiting_project), and clear errors on
bad input.

usage: check_test.py LOCKSTEP PLUGIN CLANG_TIDY MPI_INCLUDE WORK_DIR"""
import json
import os
import subprocess
import sys

from harness import HERE, check, finish, project, run

LOCKSTEP, PLUGIN, CLANG_TIDY, MPI_INCLUDE, WORK = sys.argv[1:6]


root = project("project", WORK, MPI_INCLUDE)
train, checkpoint = os.path.join(root, "train.cpp"), os.path.join(root, "checkpoint.cpp")

# Text: the cross-file finding with a note into the other file; the broken
# file is reported and counted, the others still analysed.
p = run([LOCKSTEP, "check", "-p", "."], root, 1)
check("train.cpp:12:5: warning: 'save_checkpoint' (which calls 'MPI_Barrier') runs only on "
      "ranks where 'rank == 0'" in p.stdout, "cross-file finding missing:\n" + p.stdout)
check("checkpoint.cpp:5:3: note: 'MPI_Barrier' is called here, inside 'save_checkpoint'"
      in p.stdout, "note into checkpoint.cpp missing:\n" + p.stdout)
check("log_line" not in p.stdout, "a call without collectives was reported:\n" + p.stdout)
# A function of another file that returns the rank: the finding waits for
# ranks.cpp's summary, in the same run.
check("train.cpp:21:5: warning: 'MPI_Barrier' runs only on ranks where 'node_rank(comm) == 0'"
      in p.stdout and "the rank comes from 'node_rank', defined in another file" in p.stdout
      and "ranks.cpp:7:3: note: 'node_rank' gets the rank here" in p.stdout,
      "cross-file rank source in one run:\n" + p.stdout + p.stderr)
check("broken.cpp does not compile; not analysed" in p.stderr, "broken file not reported:\n"
      + p.stderr)
check("2 findings in 4 translation units (3 analysed, 0 from cache, 1 failed)" in p.stderr,
      "summary line:\n" + p.stderr)

# JSON, then the same run against it as a baseline: nothing new, exit 0.
run([LOCKSTEP, "check", "-p", ".", "-q", "--format", "json", "-o", "out.json"], root, 1)
with open(os.path.join(root, "out.json")) as f:
    out = json.load(f)
findings = out["findings"]
if check(len(findings) == 2, "expected two findings in JSON: %s" % findings):
    f0 = findings[0]
    check(f0["check"] == "lockstep-rank-branch" and f0["collective"] == "MPI_Barrier"
          and f0["function"] == "train" and f0["condition"] == "rank == 0"
          and f0["communicator"] == "comm"
          and f0["file"] == train and f0["line"] == 12 and len(f0["id"]) == 16,
          "JSON fields: %s" % f0)
    check(any(n["file"] == checkpoint for n in f0["notes"]), "JSON note into the other file")
check(out["summary"] == {"units": 4, "analysed": 3, "failed": 1, "cached": 3, "incomplete": 0},
      "JSON summary (second run from cache): %s" % out["summary"])
run([LOCKSTEP, "check", "-p", ".", "-q", "--baseline", "out.json"], root, 0)

# SARIF, validated against the published 2.1.0 schema.
run([LOCKSTEP, "check", "-p", ".", "-q", "--format", "sarif", "-o", "out.sarif"], root, 1)
run([sys.executable, os.path.join(HERE, "..", "sarif", "validate_sarif.py"),
     os.path.join(root, "out.sarif")], root, 0)

# Shards and merge give the run's findings, with the same ids.
for i in (1, 2):
    # Shard 2 holds train.cpp: its call stays pending (a finding) until merged.
    run([LOCKSTEP, "check", "-p", ".", "-q", "--shard", "%d/2" % i, "--format", "json",
         "-o", "shard%d.json" % i], root, 1 if i == 2 else 0)
p = run([LOCKSTEP, "merge", "--format", "json", "-o", "merged.json", "shard1.json",
         "shard2.json"], root, 1)
with open(os.path.join(root, "merged.json")) as f:
    merged = json.load(f)["findings"]
check([m["id"] for m in merged] == [f["id"] for f in findings],
      "merged shards differ from one run: %s" % merged)

# The summary file lets the clang-tidy plugin see across files too.
run([LOCKSTEP, "check", "-p", ".", "-q", "--summary-out", "summaries.json"], root, 1)
p = run([CLANG_TIDY, "--load=" + PLUGIN, "--checks=-*,lockstep-*", "--quiet",
         "--config={CheckOptions: {SummaryFile: '%s'}}" % os.path.join(root, "summaries.json"),
         "train.cpp", "--", "-std=c++17", "-I" + MPI_INCLUDE], root, 0)
check("'save_checkpoint' (which calls 'MPI_Barrier') runs only on ranks" in p.stdout
      and "checkpoint.cpp:5:3: note: 'MPI_Barrier' is called here" in p.stdout,
      "plugin with SummaryFile:\n" + p.stdout + p.stderr)

# A bad regular expression in a check option is a configuration error of
# the plugin, not an abort in std::regex.
p = run([CLANG_TIDY, "--load=" + PLUGIN, "--checks=-*,lockstep-*", "--quiet",
         "--config={CheckOptions: {RankNamePattern: '[a-'}}", "train.cpp", "--",
         "-std=c++17", "-I" + MPI_INCLUDE], root, 1)
check("option 'RankNamePattern': invalid regular expression" in p.stdout + p.stderr,
      "bad RankNamePattern:\n" + p.stdout + p.stderr)

# So does a previous run's summary of the function that returns the rank.
p = run([LOCKSTEP, "check", "-p", ".", "-q", "--summaries", "summaries.json"], root, 1)
check("train.cpp:21:5: warning: 'MPI_Barrier' runs only on ranks where 'node_rank(comm) == 0'"
      in p.stdout and "the rank comes from 'node_rank', defined in another file" in p.stdout
      and "ranks.cpp:7:3: note: 'node_rank' gets the rank here" in p.stdout,
      "cross-file rank source with --summaries:\n" + p.stdout + p.stderr)

# An error path is quiet by default (the runs above) and reported with
# --error-paths-as-exits, which is part of the cache key.
p = run([LOCKSTEP, "check", "-p", ".", "--error-paths-as-exits"], root, 1)
check("checkpoint.cpp:18:10: warning: 'MPI_Barrier' is never reached on ranks where "
      "'rank == 0', which return before it" in p.stdout
      and "3 findings in 4 translation units (3 analysed, 0 from cache, 1 failed)" in p.stderr,
      "--error-paths-as-exits:\n" + p.stdout + p.stderr)

# No silent limits: a function past the engine's bounds is named on stderr,
# counted in the summary line and the JSON summary, and never a finding;
# the second run, from the cache, says the same.
limits = project("limits_project", WORK, MPI_INCLUDE)
for attempt in ("first run", "from the cache"):
    p = run([LOCKSTEP, "check", "-p", ".", "--format", "json", "-o", "out.json"], limits, 0)
    check("choices.cpp:13:3: analysis of 'many_choices' incomplete: more than 64 distinct "
          "collective sequences follow this branch" in p.stderr, attempt + ": note:\n" + p.stderr)
    check("(2 analysis limits reached)" in p.stderr, attempt + ": summary line:\n"
          + p.stderr)
    with open(os.path.join(limits, "out.json")) as f:
        out = json.load(f)
    check(out["findings"] == [] and out["summary"]["incomplete"] == 2,
          attempt + ": JSON: %s" % out)

# Per-rank fields across files: decomp.cpp fills decomp.local_n from the rank,
# so the loop over decomp.local_n in solve.cpp is per-rank and the loop over
# decomp.global_n (written with a uniform value) is not. One run finds it:
# solve.cpp's finding waits for a summary that writes the field per rank and
# is resolved once every file is summarised. So do shards with a merge, and a
# later run given the summaries. In report(), the branches on the uniform
# decomp.global_n stay quiet in every way; in sweep(), a bound one caller
# takes from the rank is reported although the first caller passes the field,
# and so is threshold()'s condition that mixes the field with a passed rank;
# every_rank()'s `rank < decomp.nprocs` and still_the_rank()'s `r >= 0` stay
# tautologies.
fields = project("fields_project", WORK, MPI_INCLUDE)


def local_n_finding(text, how):
    check("solve.cpp:9:5: warning: 'MPI_Allreduce' runs in a loop whose trip count differs "
          "between ranks" in text
          and "decomp.h:7:7: note: the rank comes from 'Decomposition::local_n', defined in "
          "another file" in text
          and "decomp.cpp:7:3: note: 'Decomposition::local_n' gets the rank here" in text
          and "solve.cpp:29:5: warning: 'MPI_Barrier' runs in a loop whose trip count differs"
          in text and "solve.cpp:34:3: note: the rank comes from 'MPI_Comm_rank' here" in text
          and "solve.cpp:43:5: warning: 'MPI_Barrier' runs only on ranks where "
          "'r + decomp.global_n > 3'" in text
          and text.count("warning:") == 3,
          "cross-file per-rank field, %s:\n%s" % (how, text))


p = run([LOCKSTEP, "check", "-p", ".", "--summary-out", "summaries.json"], fields, 1)
local_n_finding(p.stdout, "one run")
with open(os.path.join(fields, "summaries.json")) as f:
    storage = json.load(f).get("per_rank_storage", {})
# Open MPI's C++ bindings (included unless OMPI_SKIP_MPICXX) keep a receive's
# status, per rank, in MPI::Status; only the project's own fields are checked.
check([s["name"] for s in storage.values() if not s["name"].startswith("MPI::")]
      == ["Decomposition::local_n"],
      "per-rank fields in the summary: %s" % storage)
p = run([LOCKSTEP, "check", "-p", ".", "--summaries", "summaries.json"], fields, 1)
local_n_finding(p.stdout, "with --summaries")
for i in (1, 2):
    run([LOCKSTEP, "check", "-p", ".", "-q", "--shard", "%d/2" % i, "--format", "json",
         "-o", "shard%d.json" % i], fields, None)
with open(os.path.join(fields, "shard1.json")) as f1, open(os.path.join(fields, "shard2.json")) as f2:
    pending = [x for f in (f1, f2) for x in json.load(f)["findings"] if "pending" in x]
check(len(pending) >= 2 and all(x["pending"].get("reads") for x in pending)
      and "i < decomp.local_n" in [x["condition"] for x in pending],
      "the shard holding solve.cpp keeps what depends on the fields pending: %s" % pending)
p = run([LOCKSTEP, "merge", "shard1.json", "shard2.json"], fields, 1)
local_n_finding(p.stdout, "shards and merge")

# Membership across files (issue 14, pattern 6): comms.cpp splits g_cross by
# the rank in the node communicator and returns both through accessors; its
# summary names that part for local_rank() and for cross_node_comm(), so in
# sync.cpp the cross-node allreduce under `local_rank() == 0` is made by all
# of the communicator's members or none (quiet), and the one on the world is
# reported.
members = project("membership_project", WORK, MPI_INCLUDE)
run([LOCKSTEP, "check", "-p", ".", "-q", "--summary-out", "summaries.json"], members, 0)
with open(os.path.join(members, "summaries.json")) as f:
    functions = json.load(f).get("functions", {})
parts = {f["name"]: (f.get("returns_rank", {}).get("part"), f.get("split_by_part"))
         for f in functions.values()}
check(parts.get("local_rank", (None,))[0] and parts.get("cross_node_comm", (0, None))[1]
      and parts["local_rank"][0] == parts["cross_node_comm"][1],
      "the accessors' summaries name the same part: %s" % parts)
p = run([LOCKSTEP, "check", "-p", ".", "--summaries", "summaries.json"], members, 1)
check("sync.cpp:14:5: warning: 'MPI_Allreduce' runs only on ranks where 'homogeneous || "
      "local_rank() == 0'" in p.stdout and "sync.cpp:8:" not in p.stdout
      and p.stdout.count("warning:") == 1,
      "membership across files with --summaries:\n" + p.stdout + p.stderr)

# Bad input: clear errors, exit 2.
for args, message in [
        (["-p", "/nonexistent/build"], "does not exist"),
        (["-p", ".", "--format", "xml"], "unknown format 'xml'"),
        (["-p", ".", "--shard", "3/2"], "--shard expects I/N"),
        (["-p", ".", "--jobs", "0"], "--jobs expects a positive number"),
        (["-p", ".", "--rules", "missing.json"], "cannot open the rules file"),
        (["-p", ".", "--baseline", "missing.json"], "cannot open the baseline"),
        (["-p", ".", "--summaries", "out.sarif"], "not a lockstep summary file")]:
    p = run([LOCKSTEP, "check"] + args, root, 2)
    check(message in p.stderr, "%s: expected '%s' in:\n%s" % (args, message, p.stderr))
os.makedirs(os.path.join(root, "bad"), exist_ok=True)
with open(os.path.join(root, "bad", "compile_commands.json"), "w") as f:
    f.write('[{"directory": 3}]')
p = run([LOCKSTEP, "check", "-p", "bad"], root, 2)
check("compile_commands.json" in p.stderr and "entry 0" in p.stderr,
      "malformed database message:\n" + p.stderr)
p = run([LOCKSTEP, "merge", "out.sarif"], root, 2)
check("not the JSON output of `lockstep check --shard`" in p.stderr, "merge of a non-shard file")

# A call to a function of another file reads, once resolved, exactly as the
# same call to a function of the same file (test/cli/pending_project): the
# collective, the communicator the callee receives, the note into the callee
# where the checks place it; in one run and through shards and merge.
pending = project("pending_project", WORK, MPI_INCLUDE)


def wording(findings, name):
    return [(f["check"], f["message"], f["collective"], f["communicator"],
             [n["message"] for n in f["notes"]])
            for f in findings if os.path.basename(f["file"]) == name]


run([LOCKSTEP, "check", "-p", ".", "-q", "--no-cache", "--format", "json", "-o", "all.json"],
    pending, 1)
for i in (1, 2):
    # Shard 2 holds remote.cpp, shard 1 sync.cpp: its calls stay pending.
    run([LOCKSTEP, "check", "-p", ".", "-q", "--no-cache", "--shard", "%d/2" % i, "--format",
         "json", "-o", "shard%d.json" % i], pending, 1)
run([LOCKSTEP, "merge", "-q", "--format", "json", "-o", "merged.json", "shard1.json",
     "shard2.json"], pending, 1)
with open(os.path.join(pending, "shard2.json")) as f:
    shard2 = json.load(f)["findings"]
check(all("pending" in f for f in shard2 if f["file"].endswith("remote.cpp"))
      and not any("lockstep-pending" in json.dumps(f) for f in shard2),
      "pending findings of shard 2: %s" % shard2)
for output in ("all.json", "merged.json"):
    with open(os.path.join(pending, output)) as f:
        found = json.load(f)["findings"]
    local, remote = wording(found, "local.cpp"), wording(found, "remote.cpp")
    check(len(local) == 3 and remote == local,
          "%s: a callee in another file reads differently:\n%s\n%s" % (output, local, remote))
    check(all(any(n.get("file", "").endswith("sync.cpp") for n in f["notes"])
              for f in found if f["file"].endswith("remote.cpp"))
          and not any("pending" in f for f in found),
          "%s: notes into sync.cpp: %s" % (output, found))

# A loop decided per rank whose helper performs a barrier and also calls a
# function no file of the project defines (test/cli/waiting_project): the
# barrier is reported as the plugin reports it, not dropped with the call
# that waited for a summary.
waiting = project("waiting_project", WORK, MPI_INCLUDE)
p = run([LOCKSTEP, "check", "-p", ".", "--no-cache"], waiting, 1)
check("loop.cpp:18:5: warning: 'sync_batch' (which calls 'MPI_Barrier') runs in a loop whose "
      "trip count differs between ranks" in p.stdout and p.stdout.count("warning:") == 1,
      "a known barrier behind a waiting call:\n" + p.stdout + p.stderr)

# An nvcc project: CMake writes the database, lockstep translates it.
nvcc_build = os.path.join(WORK, "nvcc-build")
p = subprocess.run(["bash", os.path.join(HERE, "make_nvcc_db.sh"), nvcc_build],
                   capture_output=True, text=True, timeout=600)
if p.returncode == 77:
    print("nvcc project skipped: " + p.stdout.strip())
elif check(p.returncode == 0, "make_nvcc_db.sh failed:\n" + p.stdout + p.stderr):
    p = run([LOCKSTEP, "check", "-p", nvcc_build, "--no-cache"], WORK, 1)
    check("train_step.cu" in p.stdout and "'ncclAllReduce' runs only on ranks" in p.stdout,
          "nvcc database finding:\n" + p.stdout + p.stderr)
    check("0 failed" in p.stderr, "nvcc units failed:\n" + p.stderr)

finish("lockstep check")
