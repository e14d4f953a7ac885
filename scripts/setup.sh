#!/usr/bin/env bash
# Installs what building and running lockstep needs from Debian, only what is
# missing (idempotent). With --tests, also what only the test suite needs:
# jsonschema for the SARIF schema test and Chromium for the runtime report
# test (about 150 packages, so not for a plain build).
# The CUDA 13 toolkit with nccl.h is part of the machine image at
# /usr/local/cuda; without it the CUDA and NCCL tests are reported unsupported.
set -euo pipefail

# clangd-22 brings the gRPC and protobuf runtime libraries lockstep-clangd links.
packages=(cmake ninja-build g++ clang-22 clang-tidy-22 clang-format-22 clangd-22 libclang-22-dev llvm-22-dev
          llvm-22-tools nlohmann-json3-dev libopenmpi-dev openmpi-bin libgtest-dev libgmock-dev
          python3)
case "${1:-}" in
  "") ;;
  --tests) packages+=(python3-jsonschema python3-rfc3987 chromium) ;;
  *) echo "usage: $0 [--tests]" >&2; exit 2 ;;
esac
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "lockstep setup: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if [ ! -f /usr/local/cuda/include/nccl.h ]; then
  echo "lockstep setup: no CUDA toolkit with nccl.h at /usr/local/cuda; CUDA/NCCL tests will be skipped"
fi
