#!/usr/bin/env python3
"""style.changed: the lines changed since the merge base with origin/main (or
main) must be clang-format clean under the root .clang-format.

Only changed lines are checked, so that a file touched before the one-time
reformat of the tree fails on its new violations, not on its old ones.
Exits 77 (skipped) without clang-format-22, outside a git checkout or without
a base to compare with.

usage: check_format.py CLANG_FORMAT SOURCE_DIR [--fix]
(--fix formats those lines in place instead.)
"""
import re
import shutil
import subprocess
import sys

SKIP = 77
# Project sources only: lit inputs and fixtures keep long CHECK lines as written.
ROOTS = ("checker/", "common/", "runtime_verifier/", "include/", "tools/", "test/unit/",
         "test/runtime/unit/", "bench/")
SUFFIXES = (".c", ".cpp", ".h", ".cu")  # not .cpp.in: @VARIABLES@ are no C++


def git(src, *args):
    return subprocess.run(["git", "-C", src, *args], capture_output=True, text=True)


def merge_base(src):
    for ref in ("origin/main", "main"):
        out = git(src, "merge-base", "HEAD", ref)
        if out.returncode == 0:
            return ref, out.stdout.strip()
    return None, None


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


def main():
    clang_format, src = sys.argv[1], sys.argv[2]
    fix = sys.argv[3:] == ["--fix"]
    if not shutil.which(clang_format):
        print("style.changed: skipped: no clang-format-22 (%s)" % clang_format)
        return SKIP
    if git(src, "rev-parse", "--is-inside-work-tree").returncode != 0:
        print("style.changed: skipped: %s is not a git checkout" % src)
        return SKIP
    ref, base = merge_base(src)
    if not base:
        print("style.changed: skipped: no origin/main or main to compare with")
        return SKIP
    ranges = changed_lines(src, base)
    failed = []
    for path, spans in sorted(ranges.items()):
        lines = ["--lines=%d:%d" % span for span in spans]
        mode = ["-i"] if fix else ["--dry-run", "-Werror"]
        run = subprocess.run([clang_format, *mode, *lines, path], cwd=src,
                             capture_output=True, text=True)
        if run.returncode != 0:
            sys.stderr.write(run.stderr)
            failed.append(path)
    print("style.changed: %d changed file(s) since %s (%s), %d not clang-format clean%s"
          % (len(ranges), ref, base[:12], len(failed),
             (": " + " ".join(failed)) if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
