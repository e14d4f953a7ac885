#!/usr/bin/env bash
# Installs what is missing (the test-only packages too), builds, and runs
# every test (unit, lit, end to end) with ctest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh" --tests
"$root/scripts/build.sh"
cd "$root/build"
ctest --output-on-failure
