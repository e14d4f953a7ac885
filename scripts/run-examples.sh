#!/usr/bin/env bash
# Installs what is missing, builds, and runs the lockstep checks on examples/,
# printing the findings. Exit status 0: the examples were analysed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
plugin="$root/build/lib/liblockstep-tidy.so"
mpi_include=$(mpicc --showme:incdirs | cut -d' ' -f1)
common=(-I"$mpi_include" -I"$root/test/include" -I"$root/include")
cuda=(-x cuda --cuda-path=/usr/local/cuda --cuda-host-only -nocudalib -Wno-unknown-cuda-version
      -Xclang -target-sdk-version=12.9 -I/usr/local/cuda/include)
for file in "$root"/examples/*.c "$root"/examples/*.cpp "$root"/examples/*.cu \
            "$root"/examples/join/*.cpp; do
  flags=("${common[@]}")
  options=()
  # The join example describes its protocol in its own rules file.
  [[ "$file" == */join/* ]] &&
    options=(--config="{CheckOptions: {RuleFiles: '$root/examples/join/ddp_join.json'}}")
  [[ "$file" == */join/* ]] && flags+=(-I"$root/examples/join")
  case "$file" in
    *.c) flags+=(-x c -std=c11) ;;
    *.cpp) flags+=(-x c++ -std=c++17) ;;
    *.cu)
      if [ ! -f /usr/local/cuda/include/nccl.h ]; then
        echo "== ${file#$root/}: skipped (no CUDA toolkit with nccl.h at /usr/local/cuda)"
        continue
      fi
      flags+=("${cuda[@]}") ;;
  esac
  echo "== ${file#$root/}"
  clang-tidy-22 --load="$plugin" --checks='-*,lockstep-*' "${options[@]}" --quiet "$file" -- "${flags[@]}" 2>&1 |
    grep -v '^[0-9]* warnings\? generated' || true
done
