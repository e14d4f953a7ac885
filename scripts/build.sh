#!/usr/bin/env bash
# Configures and builds lockstep into build/ (after scripts/setup.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_PREFIX_PATH=/usr/lib/llvm-22 >/dev/null
cmake --build "$root/build"
