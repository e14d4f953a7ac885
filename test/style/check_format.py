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
import subprocess
import sys

from changed import base_or_skip, changed_lines


def main():
    clang_format, src = sys.argv[1], sys.argv[2]
    fix = sys.argv[3:] == ["--fix"]
    ref, base = base_or_skip("style.changed", clang_format, src)
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
