#!/usr/bin/env python3
"""style.tidy: the lines changed since the merge base with origin/main (or
main) must be clean under the root .clang-tidy (LLVM's checks and naming).

Each changed source file is checked in its own translation unit; a changed
header in the first one of the compile database that includes it. Only the
changed lines are reported (--line-filter), so old code does not fail a new
change. Exits 77 (skipped) without clang-tidy-22, outside a git checkout,
without a base to compare with or without BUILD_DIR/compile_commands.json.

usage: check_tidy.py CLANG_TIDY SOURCE_DIR BUILD_DIR
"""
import json
import os
import re
import subprocess
import sys

from changed import SKIP, base_or_skip, changed_lines


def llvm_regex_escape(text):
    """\p text as a literal in llvm::Regex (POSIX extended) syntax."""
    return "".join("\\" + c if c in ".^$|()[]{}*+?\\" else c for c in text)


def includers(header, units, src):
    """The translation unit that checks a header: the source of the same
    name beside it, else the first unit that includes it by name, directly
    or through the project's other headers."""
    stem = os.path.splitext(header)[0]
    for unit in units:
        if os.path.splitext(unit)[0] == stem:
            return unit
    headers = subprocess.run(["git", "-C", src, "ls-files", "*.h"], capture_output=True,
                             text=True).stdout.split()
    candidates = units + [os.path.join(src, h) for h in headers]
    texts = {}
    for path in candidates:
        with open(path, errors="replace") as text:
            texts[path] = text.read()
    wanted, seen = [header], {header}
    while wanted:
        name = os.path.basename(wanted.pop(0))
        include = re.compile(r'#\s*include\s*"([^"]*/)?%s"' % re.escape(name))
        for path in candidates:
            if path in seen or not include.search(texts[path]):
                continue
            if path in units:
                return path
            seen.add(path)
            wanted.append(path)
    return None


def main():
    clang_tidy, src, build = sys.argv[1:4]
    ref, base = base_or_skip("style.tidy", clang_tidy, src)
    database = os.path.join(build, "compile_commands.json")
    if not os.path.exists(database):
        print("style.tidy: skipped: no %s" % database)
        return SKIP
    with open(database) as text:
        units = [os.path.normpath(os.path.join(e["directory"], e["file"])) for e in json.load(text)]
    ranges = {os.path.join(src, path): spans for path, spans in changed_lines(src, base).items()}
    checked, unchecked = set(), []
    for path in ranges:
        unit = path if path in units else includers(path, units, src) if path.endswith(".h") else None
        if unit:
            checked.add(unit)
        else:
            unchecked.append(os.path.relpath(path, src))
    failed = 0
    if checked:
        line_filter = [{"name": path, "lines": [list(span) for span in spans]}
                       for path, spans in ranges.items()]
        headers = "|".join(llvm_regex_escape(p) for p in ranges if p.endswith(".h")) or "^$"
        run = subprocess.run([clang_tidy, "-p", build, "--quiet",
                              "--line-filter=" + json.dumps(line_filter),
                              "--header-filter=" + headers, *sorted(checked)],
                             cwd=src, capture_output=True, text=True)
        warnings = [line for line in run.stdout.splitlines() if re.search(r": (warning|error): ", line)]
        sys.stdout.write(run.stdout if warnings else "")
        failed = len(warnings)
    print("style.tidy: %d changed file(s) since %s (%s) in %d unit(s), %d warning(s)%s"
          % (len(ranges), ref, base[:12], len(checked), failed,
             "; not in any unit: " + " ".join(sorted(unchecked)) if unchecked else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
