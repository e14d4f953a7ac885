#!/usr/bin/env python3
"""Validates SARIF files against the SARIF 2.1.0 schema shipped next to this
script, then against what GitHub code scanning needs beyond the schema.

    validate_sarif.py [--schema FILE] FILE...
    validate_sarif.py --generate PROGRAM FILE   # runs PROGRAM --write-sarif FILE first

Exit status: 0 valid, 1 invalid, 2 usage or environment errors.
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def github_problems(log):
    """What code scanning rejects or silently drops although the schema allows it."""
    problems = []
    for r, run in enumerate(log.get("runs", [])):
        bases = run.get("originalUriBaseIds", {})
        for name, base in bases.items():
            uri = base.get("uri", "")
            if not (uri.startswith("file:///") and uri.endswith("/")):
                problems.append(f"runs[{r}].originalUriBaseIds.{name}: expected an absolute "
                                f"file URI ending in '/', found {uri!r}")
        rules = run.get("tool", {}).get("driver", {}).get("rules", [])
        for i, result in enumerate(run.get("results", [])):
            where = f"runs[{r}].results[{i}]"
            rule_id = result.get("ruleId")
            if not rule_id:
                problems.append(f"{where}: no ruleId")
            index = result.get("ruleIndex")
            if index is not None and (index >= len(rules) or rules[index].get("id") != rule_id):
                problems.append(f"{where}: ruleIndex {index} does not name rule {rule_id!r}")
            if not result.get("partialFingerprints"):
                problems.append(f"{where}: no partialFingerprints")
            locations = result.get("locations", [])
            if not locations:
                problems.append(f"{where}: no locations")
            related_ids = set()
            for kind, items in (("locations", locations),
                                ("relatedLocations", result.get("relatedLocations", []))):
                for j, location in enumerate(items):
                    at = f"{where}.{kind}[{j}]"
                    if kind == "relatedLocations":
                        related_ids.add(location.get("id"))
                    physical = location.get("physicalLocation", {})
                    artifact = physical.get("artifactLocation", {})
                    uri = artifact.get("uri")
                    if not uri:
                        problems.append(f"{at}: no artifactLocation.uri")
                    elif "uriBaseId" in artifact:
                        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", uri) or uri.startswith("/"):
                            problems.append(f"{at}: uri {uri!r} with a uriBaseId must be relative")
                        if artifact["uriBaseId"] not in bases:
                            problems.append(f"{at}: uriBaseId {artifact['uriBaseId']!r} "
                                            "is not in originalUriBaseIds")
                    region = physical.get("region")
                    if region is not None and region.get("startLine", 0) < 1:
                        problems.append(f"{at}: region.startLine must be at least 1")
            text = result.get("message", {}).get("text", "")
            for link in re.findall(r"(?<!\\)\]\((\d+)\)", text):
                if int(link) not in related_ids:
                    problems.append(f"{where}: message links to location {link}, "
                                    "which is not among relatedLocations")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schema", default=os.path.join(HERE, "sarif-schema-2.1.0.json"))
    parser.add_argument("--generate", metavar="PROGRAM",
                        help="run PROGRAM --write-sarif FILE before validating FILE")
    parser.add_argument("files", nargs="+", metavar="FILE")
    args = parser.parse_args()
    try:
        import jsonschema
    except ImportError:
        print("validate_sarif.py: the python3 module 'jsonschema' is missing "
              "(Debian: python3-jsonschema; scripts/setup.sh --tests installs it)", file=sys.stderr)
        return 2
    if args.generate:
        if len(args.files) != 1:
            parser.error("--generate takes exactly one FILE")
        status = subprocess.run([args.generate, "--write-sarif", args.files[0]]).returncode
        if status != 0:
            print(f"validate_sarif.py: {args.generate} --write-sarif failed ({status})",
                  file=sys.stderr)
            return 1
    try:
        with open(args.schema, encoding="utf-8") as f:
            schema = json.load(f)
    except (OSError, ValueError) as error:
        print(f"validate_sarif.py: cannot read the schema {args.schema}: {error}", file=sys.stderr)
        return 2
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    format_checker = getattr(validator_class, "FORMAT_CHECKER", None) or jsonschema.FormatChecker()
    # jsonschema checks "format": "uri" only with rfc3987 installed; say so
    # rather than pass URIs unchecked in silence.
    if "uri" not in format_checker.checkers:
        print("validate_sarif.py: warning: URI formats are not checked "
              "(Debian: python3-rfc3987)", file=sys.stderr)
    validator = validator_class(schema, format_checker=format_checker)
    failed = False
    for path in args.files:
        try:
            with open(path, encoding="utf-8") as f:
                log = json.load(f)
        except (OSError, ValueError) as error:
            print(f"{path}: not readable JSON: {error}")
            failed = True
            continue
        errors = sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))
        for error in errors:
            where = "/".join(str(p) for p in error.absolute_path) or "(root)"
            print(f"{path}: {where}: {error.message}")
        problems = [] if errors else github_problems(log)
        for problem in problems:
            print(f"{path}: {problem}")
        if errors or problems:
            failed = True
        else:
            results = sum(len(run.get("results", [])) for run in log.get("runs", []))
            print(f"{path}: valid SARIF 2.1.0 ({results} results)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
