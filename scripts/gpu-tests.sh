#!/usr/bin/env bash
# The runtime verifier's NCCL cases on a machine with a CUDA GPU: builds the
# runtime alone (no LLVM; MPI only if present) and runs runtime.nccl.* (2 and
# 4 ranks on whatever GPUs there are) and runtime.probe. A skipped NCCL case
# is a failure here: this script exists to run them.
#   scripts/gpu-tests.sh [BUILD_DIR]
# NCCL comes from NCCL_HOME, else the CUDA toolkit, else PyTorch's
# nvidia-nccl wheel; nlohmann_json and GTest from CMAKE_PREFIX_PATH.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-gpu}

nccl_home=${NCCL_HOME:-}
if [ -z "$nccl_home" ] && [ ! -f /usr/local/cuda/include/nccl.h ]; then
  nccl_home=$(python3 -c 'import nvidia.nccl; print(list(nvidia.nccl.__path__)[0])' 2>/dev/null || true)
fi
nccl_args=()
if [ -n "$nccl_home" ]; then
  nccl_lib=$(ls "$nccl_home"/lib/libnccl.so* 2>/dev/null | head -n 1)
  [ -f "$nccl_home/include/nccl.h" ] && [ -n "$nccl_lib" ] ||
    { echo "gpu-tests: no include/nccl.h and lib/libnccl.so* under $nccl_home" >&2; exit 2; }
  nccl_args=(-DLOCKSTEP_NCCL_INCLUDE="$nccl_home/include" -DLOCKSTEP_NCCL_LIBRARY="$nccl_lib")
fi

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
cmake -S "$root" -B "$build" -G Ninja -DLOCKSTEP_BUILD_CHECKER=OFF "${nccl_args[@]}"
cmake --build "$build" --target lockstep lockstep-intercept rt_peer_probe rt_nccl_probe rt_nccl_allreduce
log=$build/gpu-tests.log
ctest --test-dir "$build" -R '^runtime\.(nccl\..*|probe)$' -V 2>&1 | tee "$log"
if grep -q "Skipped" "$log"; then
  echo "gpu-tests: an NCCL case was skipped (see its output above)" >&2
  exit 1
fi
