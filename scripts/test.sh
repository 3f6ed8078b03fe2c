#!/usr/bin/env bash
# Builds cascade and runs every test. On a machine without a CUDA GPU the GPU test cases are
# reported as skipped. Installs meson, ninja, doctest, nlohmann-json, pkg-config and cmake when they are
# missing (apt, or pip for meson); when not root it prints the exact command to run instead and stops.
# Last line: "N passed, N failed, N skipped" (test cases, counted over all test programs).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${CASCADE_BUILD_DIR:-build}

if ! command -v nvcc >/dev/null 2>&1; then
  for d in /usr/local/cuda/bin /usr/local/cuda-13/bin; do [ -x "$d/nvcc" ] && export PATH="$d:$PATH" && break; done
fi
command -v nvcc >/dev/null 2>&1 || { echo "scripts/test.sh: nvcc not found; install the CUDA toolkit (13.x) and put its bin/ on PATH" >&2; exit 1; }

have_doctest() {
  for d in /usr/include /usr/local/include; do [ -f "$d/doctest/doctest.h" ] && return 0; done
  return 1
}
have_json() {  # nlohmann-json: the bench's and cascade-tune's results files (src/measure/results.cpp)
  for d in /usr/include /usr/local/include; do [ -f "$d/nlohmann/json.hpp" ] && return 0; done
  return 1
}
missing_apt=()
command -v ninja >/dev/null 2>&1 || missing_apt+=(ninja-build)
have_doctest || missing_apt+=(doctest-dev)
have_json || missing_apt+=(nlohmann-json3-dev)
command -v python3 >/dev/null 2>&1 || missing_apt+=(python3 python3-pip)
command -v pkg-config >/dev/null 2>&1 || missing_apt+=(pkg-config)  # the packaging test's consumer
command -v cmake >/dev/null 2>&1 || missing_apt+=(cmake)  # the packaging test's CMake consumers (3.22+)
need_meson=0
command -v meson >/dev/null 2>&1 || need_meson=1

if [ ${#missing_apt[@]} -gt 0 ] || [ $need_meson = 1 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "scripts/test.sh: missing build tools. Run as root, then run this script again:"
    [ ${#missing_apt[@]} -gt 0 ] && echo "  apt-get update && apt-get install -y ${missing_apt[*]}"
    [ $need_meson = 1 ] && echo "  python3 -m pip install 'meson>=1.3'"
    exit 1
  fi
  if [ ${#missing_apt[@]} -gt 0 ]; then
    echo "== installing ${missing_apt[*]} (apt)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq "${missing_apt[@]}" >/dev/null
  fi
  if [ $need_meson = 1 ]; then
    echo "== installing meson (pip)"
    # Debian 12's apt meson (1.0) predates features we use; PyPI's is current.
    python3 -m pip install -q 'meson>=1.3' 2>/dev/null || python3 -m pip install -q --break-system-packages 'meson>=1.3'
    hash -r
    command -v meson >/dev/null 2>&1 || export PATH="$HOME/.local/bin:$PATH"
  fi
fi

# NCCL, so that the distributed reduce's tests compile (their GPU cases skip here): the toolkit's,
# the Python's nvidia-nccl-cu13, or the same wheel fetched into .deps/nccl (scripts/fetch-nccl.sh).
nvcc_root=$(dirname "$(dirname "$(command -v nvcc)")")
if [ ! -f "$nvcc_root/include/nccl.h" ] && [ ! -f .deps/nccl/include/nccl.h ] &&
   ! python3 -c 'import nvidia.nccl' >/dev/null 2>&1; then
  echo "== fetching NCCL (scripts/fetch-nccl.sh)"
  bash scripts/fetch-nccl.sh || echo "== NCCL could not be fetched: the distributed reduce's tests are not built"
fi

# NVBench, so that the bench programs built on it (bench/nvbench/) compile: the cuda-bench wheel
# (scripts/fetch-nvbench.sh; a GPU machine without a network unpacks a carried wheel).
if [ ! -f .deps/nvbench/cuda/bench/cu13/nvbench/lib/libnvbench.so ]; then
  echo "== fetching NVBench (scripts/fetch-nvbench.sh)"
  bash scripts/fetch-nvbench.sh >/dev/null || echo "== NVBench could not be fetched: the NVBench bench programs are not built"
fi

jobs=$(nproc 2>/dev/null || echo 2)
# Without a GPU only the host-side tests run (the GPU ones skip), so the build is a compile check:
# device code to PTX only (-Dcuda-sass=false: no ptxas) with device optimization off (cicc -O0, which
# meson.build adds then; plain build type: no -O flags, so host code at gcc's -O0). It compiles the same C++ to the same PTX, the
# objects in 0.66x the CPU time of the build with SASS and ptxas -O0 (algorithms_test.cu on this kind
# of machine: 290 s -> 105 s, cicc 173 s and ptxas 78 s before; files heavy in host code gain less). The tests that run nvcc
# themselves (compile_fail, arch_builds, arch_consumer, packaging) follow (CASCADE_CUDA_PTX_ONLY).
# Families of units otherwise built once per strategy, type or part (the test programs of trees,
# finishes, non-commutative ops, fuzzing, reduce types and exact parts; the bench's and tuner's
# candidates and rivals) are one unit a family there (-Dmerge-units=true): every unit spends about
# 15 s parsing CUB, Thrust and doctest before its own code, and 74 become 8. With a GPU: a release
# build.
build_type=(--buildtype=release)
if ! nvidia-smi -L >/dev/null 2>&1; then
  build_type=(--buildtype=plain -Dcuda-sass=false -Dmerge-units=true)
  echo "== no GPU: device code to PTX only, unoptimized (cicc -O0), host code at -O0, families of units merged (only host-side tests run here)"
fi
if [ ! -f "$build_dir/build.ninja" ]; then
  meson setup "$build_dir" "${build_type[@]}" ${CASCADE_MESON_ARGS:-}
fi
echo "== building ($jobs jobs)"
build_start=$SECONDS
ninja -C "$build_dir" -j "$jobs"
echo "== build took $((SECONDS - build_start)) s"
echo "== testing"
set +e
test_start=$SECONDS
meson test -C "$build_dir" --num-processes "$jobs" --print-errorlogs ${CASCADE_TEST_ARGS:-}
meson_rc=$?
set -e
echo "== tests took $((SECONDS - test_start)) s"
python3 scripts/summarize_tests.py "$build_dir/meson-logs/testlog.json" "$meson_rc"
