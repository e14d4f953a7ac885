#!/usr/bin/env bash
# Configures test/cli/nvcc_project with nvcc so that CMake writes a real nvcc
# compile_commands.json into BUILD_DIR (configure only: nothing is built).
#
#   make_nvcc_db.sh BUILD_DIR [GENERATOR [CMAKE_ARGS...]]
#
# GENERATOR defaults to "Unix Makefiles", whose CUDA commands read their
# include flags from --options-file .../includes_CUDA.rsp; with Ninja they
# are inline. Extra CMAKE_ARGS go to cmake as they are.
# Exit status: 0 written; 77 skipped (no nvcc, no CMake, or a CMake that
# cannot use this nvcc), with the reason on stdout; 1 any other failure.
set -u

if [ $# -lt 1 ]; then
  echo "usage: $0 BUILD_DIR [GENERATOR [CMAKE_ARGS...]]" >&2
  exit 1
fi
build=$1
generator=${2:-Unix Makefiles}
shift $(( $# >= 2 ? 2 : 1 ))
nvcc=${LOCKSTEP_NVCC:-/usr/local/cuda/bin/nvcc}
source_dir=$(cd "$(dirname "$0")/nvcc_project" && pwd)

if [ ! -x "$nvcc" ]; then
  echo "SKIP: no nvcc at $nvcc (set LOCKSTEP_NVCC to use another)"
  exit 77
fi
if ! command -v cmake >/dev/null 2>&1; then
  echo "SKIP: cmake is not installed"
  exit 77
fi

# Reconfiguring with another generator fails: start from a fresh cache, but
# never delete a directory that is not a build of this project.
if [ -f "$build/CMakeCache.txt" ]; then
  if ! grep -qx "CMAKE_HOME_DIRECTORY:INTERNAL=$source_dir" "$build/CMakeCache.txt"; then
    echo "error: $build holds a build of another project; give an empty or new directory" >&2
    exit 1
  fi
  rm -rf "$build/CMakeCache.txt" "$build/CMakeFiles" "$build/compile_commands.json"
fi
mkdir -p "$build" || exit 1
log=$build/configure.log

if ! cmake -S "$source_dir" -B "$build" -G "$generator" \
     -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
     -DCMAKE_CUDA_ARCHITECTURES=80 "$@" >"$log" 2>&1; then
  # CMake's CUDA support failing on this nvcc is an environment problem (a
  # skip); anything else is a broken test project.
  if grep -qE "CUDA compiler identification is unknown|No CMAKE_CUDA_COMPILER|CMAKE_CUDA_COMPILER.*(not able|NOTFOUND)|Could NOT find CUDAToolkit|does not support the CUDA language|Could not create named generator|unable to find a build program" "$log"; then
    echo "SKIP: CMake cannot configure a CUDA project with $nvcc and generator '$generator' here:"
    tail -n 15 "$log"
    exit 77
  fi
  echo "error: configuring $source_dir failed:" >&2
  tail -n 30 "$log" >&2
  exit 1
fi

if ! grep -q nvcc "$build/compile_commands.json" 2>/dev/null; then
  echo "error: CMake wrote no nvcc command to $build/compile_commands.json" >&2
  exit 1
fi
echo "wrote $build/compile_commands.json"
