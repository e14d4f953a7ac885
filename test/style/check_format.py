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
import shutil
import subprocess
import sys

from changed import changed_lines, is_checkout, merge_base

SKIP = 77


def main():
    clang_format, src = sys.argv[1], sys.argv[2]
    fix = sys.argv[3:] == ["--fix"]
    if not shutil.which(clang_format):
        print("style.changed: skipped: no clang-format-22 (%s)" % clang_format)
        return SKIP
    if not is_checkout(src):
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
