"""The project sources changed since the merge base with origin/main (or
main), with their changed line ranges: what the style tests check, so that a
file touched after the one-time clean-up of the tree fails on its new
violations, not on its old ones."""
import re
import shutil
import subprocess
import sys

SKIP = 77  # ctest's SKIP_RETURN_CODE for the style tests

# Project sources only: lit inputs and fixtures keep long CHECK lines as written.
ROOTS = ("checker/", "common/", "runtime_verifier/", "include/", "tools/", "test/unit/",
         "test/runtime/unit/", "bench/")
SUFFIXES = (".c", ".cpp", ".h", ".cu")  # not .cpp.in: @VARIABLES@ are no C++


def git(src, *args):
    return subprocess.run(["git", "-C", src, *args], capture_output=True, text=True)


def is_checkout(src):
    return git(src, "rev-parse", "--is-inside-work-tree").returncode == 0


def merge_base(src):
    for ref in ("origin/main", "main"):
        out = git(src, "merge-base", "HEAD", ref)
        if out.returncode == 0:
            return ref, out.stdout.strip()
    return None, None


def base_or_skip(test, tool, src):
    """The reference and merge base to compare with, or exit 77 (skipped)
    without the tool, outside a git checkout or without a base."""
    reason = None
    if not shutil.which(tool):
        reason = "no %s" % tool
    elif not is_checkout(src):
        reason = "%s is not a git checkout" % src
    ref, base = merge_base(src) if not reason else (None, None)
    if not reason and not base:
        reason = "no origin/main or main to compare with"
    if reason:
        print("%s: skipped: %s" % (test, reason))
        sys.exit(SKIP)
    return ref, base


def changed_lines(src, base):
    """Maps each changed project source to its changed line ranges (1-based)."""
    diff = git(src, "diff", "-U0", "--no-color", "--diff-filter=AMR", base, "--")
    ranges, path = {}, None
    for line in diff.stdout.splitlines():
        if line.startswith("+++ "):
            name = line[6:] if line.startswith("+++ b/") else None
            path = name if name and name.startswith(ROOTS) and name.endswith(SUFFIXES) else None
        elif path and line.startswith("@@"):
            m = re.match(r"@@ -\S+ \+(\d+)(?:,(\d+))? @@", line)
            first, count = int(m.group(1)), int(m.group(2) or "1")
            if count:
                ranges.setdefault(path, []).append((first, first + count - 1))
    untracked = git(src, "ls-files", "--others", "--exclude-standard").stdout.split()
    for name in untracked:
        if name.startswith(ROOTS) and name.endswith(SUFFIXES):
            ranges[name] = [(1, sum(1 for _ in open("%s/%s" % (src, name), errors="replace")) or 1)]
    return ranges
