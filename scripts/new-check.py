#!/usr/bin/env python3
"""Adds a lockstep check, the way clang-tidy's add_new_check.py does: a row in
checker/checks/checks.json (from which the build registers the check, lists
its sources and describes it in SARIF), the class in checker/checks/, its page
in docs/checks/ and a lit test in test/lit/; then rewrites the lists of
checks in the docs (scripts/checks-docs.py). The engine results the check
reports are routed to it in checker/checks/Routing.cpp.

  scripts/new-check.py NAME --summary TEXT --description TEXT

NAME without the 'lockstep-' prefix: `rank-barrier` makes lockstep-rank-barrier,
class RankBarrierCheck.
"""
import argparse
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, "checker", "checks", "checks.json")

HEADER = """\
// {name}: {summary}.
#pragma once

#include "LockstepCheck.h"

namespace lockstep::checks {{

class {cls} : public LockstepCheck {{
public:
  using LockstepCheck::LockstepCheck;

protected:
  void reportDivergence(const analysis::Divergence &D, clang::ASTContext &Context) override;
}};

}} // namespace lockstep::checks
"""

SOURCE = """\
#include "{cls}.h"
#include "DivergenceNotes.h"

#include "clang/AST/ASTContext.h"

namespace lockstep::checks {{
using namespace clang;

// Called for the divergences that Routing.cpp sends to CheckId::{cls}.
void {cls}::reportDivergence(const analysis::Divergence &D, ASTContext &Context) {{
  FindingBuilder Finding = finding(Context);
  Finding.about(D.Function, &D.Event, D.Condition);
  Finding.warning(D.Event.Site, Finding.name(D.Event) + " runs only on " + ranksWhere(D, Context));
  addCommonNotes(Finding, D, Context);
  Finding.emit();
}}

}} // namespace lockstep::checks
"""

PAGE = """\
# {name}

{description}

## Why it hangs

## What it reports

## Silencing

`// NOLINT({name})` on the line of the warning.
"""

TEST = """\
// RUN: %clang_tidy --checks='-*,{name}' %s -- %cxx_flags 2>&1 \\
// RUN:   | %filecheck_diags %s --check-prefix=CHECK-MESSAGES --allow-empty
//
// {name}: {summary}.
#include <mpi.h>

// Negative: every rank calls the collective.
void every_rank(MPI_Comm comm) {{
  int rank;
  MPI_Comm_rank(comm, &rank);
  MPI_Barrier(comm);
  // CHECK-MESSAGES-NOT: :[[@LINE-1]]:3: warning:
}}
"""


def write_new(path, text):
    if os.path.exists(path):
        sys.exit("%s exists already" % os.path.relpath(path, ROOT))
    with open(path, "w") as f:
        f.write(text)
    print("wrote", os.path.relpath(path, ROOT))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("name", help="the check's name without 'lockstep-'")
    parser.add_argument("--summary", required=True, help="what it finds, for the README's table")
    parser.add_argument("--description", required=True,
                        help="'Finds ...': the first paragraph of its page and its SARIF description")
    args = parser.parse_args()
    if not re.fullmatch(r"[a-z]+(-[a-z]+)*", args.name):
        sys.exit("the name is lower-case words joined by '-', without 'lockstep-'")
    name = "lockstep-" + args.name
    cls = "".join(word.capitalize() for word in args.name.split("-")) + "Check"
    with open(TABLE) as f:
        table = json.load(f)
    if any(check["name"] == name for check in table["checks"]):
        sys.exit("%s is in the table already" % name)
    fields = dict(name=name, cls=cls, summary=args.summary, description=args.description)
    doc = "docs/checks/%s.md" % args.name
    write_new(os.path.join(ROOT, "checker", "checks", cls + ".h"), HEADER.format(**fields))
    write_new(os.path.join(ROOT, "checker", "checks", cls + ".cpp"), SOURCE.format(**fields))
    write_new(os.path.join(ROOT, doc), PAGE.format(**fields))
    write_new(os.path.join(ROOT, "test", "lit", args.name + ".cpp"), TEST.format(**fields))
    table["checks"].append({"name": name, "class": cls, "doc": doc, "severity": "warning",
                            "summary": args.summary, "description": args.description})
    with open(TABLE, "w") as f:
        json.dump(table, f, indent=2)
        f.write("\n")
    print("added", name, "to", os.path.relpath(TABLE, ROOT))
    subprocess.check_call([sys.executable, os.path.join(ROOT, "scripts", "checks-docs.py")])
    print("next: route the engine results it reports to CheckId::%s in "
          "checker/checks/Routing.cpp, and add positives to test/lit/%s.cpp" % (cls, args.name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
