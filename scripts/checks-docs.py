#!/usr/bin/env python3
"""Writes the lists of checks that the documentation shows from the table of
checks, checker/checks/checks.json: the table in README.md (between its
markers) and docs/checks/index.md. Each check's page must exist, be titled
with the check's name, and open with the table's description.

  scripts/checks-docs.py          rewrite README.md and docs/checks/index.md
  scripts/checks-docs.py --check  fail, with a diff, where they differ (ctest)
"""
import argparse
import difflib
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = "checker/checks/checks.json"
KEYS = ["name", "class", "doc", "severity", "summary", "description"]
BEGIN = "<!-- checks: generated from %s by scripts/checks-docs.py -->" % TABLE
END = "<!-- end of checks -->"


def load_table():
    with open(os.path.join(ROOT, TABLE)) as f:
        table = json.load(f)
    if list(table) != ["checks"]:
        sys.exit("%s: one field, 'checks'" % TABLE)
    for check in table["checks"]:
        if sorted(check) != sorted(KEYS):
            sys.exit("%s: %s: the fields are %s" % (TABLE, check.get("name"), ", ".join(KEYS)))
    return table["checks"]


def first_paragraph(markdown):
    """The first paragraph after the title, joined into one line."""
    lines = [line.strip() for line in markdown.split("\n")[1:]]
    paragraph = []
    for line in lines:
        if not line or line.startswith("#") or line.startswith("```"):
            if paragraph:
                break
            continue
        paragraph.append(line)
    return " ".join(paragraph)


def page_problems(check):
    path = os.path.join(ROOT, check["doc"])
    if not os.path.isfile(path):
        return ["%s: no page %s" % (check["name"], check["doc"])]
    with open(path) as f:
        page = f.read()
    problems = []
    if not page.startswith("# %s\n" % check["name"]):
        problems.append("%s: the title of %s is not '# %s'" % (check["name"], check["doc"], check["name"]))
    if first_paragraph(page) != check["description"]:
        problems.append("%s: the first paragraph of %s is not the table's description"
                        % (check["name"], check["doc"]))
    return problems


def readme_table(checks):
    rows = ["| check | finds |", "|---|---|"]
    rows += ["| [`%s`](%s) | %s |" % (c["name"], c["doc"], c["summary"]) for c in checks]
    return "\n".join(rows) + "\n"


def index_page(checks):
    rows = ["| check | severity | finds |", "|---|---|---|"]
    for c in checks:
        link = os.path.relpath(c["doc"], "docs/checks")
        rows.append("| [`%s`](%s) | %s | %s |" % (c["name"], link, c["severity"], c["description"]))
    return ("# lockstep checks\n\n%s\n\n%s\n" % (BEGIN, "\n".join(rows)))


def with_readme_table(readme, checks):
    start, end = readme.find(BEGIN), readme.find(END)
    if start < 0 or end < start:
        sys.exit("README.md: no '%s' ... '%s' block" % (BEGIN, END))
    start += len(BEGIN) + 1
    return readme[:start] + readme_table(checks) + readme[end:]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args()
    checks = load_table()
    problems = [p for c in checks for p in page_problems(c)]
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    wanted = {"README.md": with_readme_table(readme, checks), "docs/checks/index.md": index_page(checks)}
    for path, text in wanted.items():
        full = os.path.join(ROOT, path)
        current = open(full).read() if os.path.isfile(full) else ""
        if current == text:
            continue
        if args.check:
            diff = difflib.unified_diff(current.splitlines(True), text.splitlines(True), path, path + " (from the table)")
            problems.append("%s differs from the table; run scripts/checks-docs.py:\n%s" % (path, "".join(diff)))
        else:
            with open(full, "w") as f:
                f.write(text)
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
