#!/usr/bin/env bash
# NVBench, the harness CCCL's own benchmarks use, for bench/nvbench/: the cuda-bench wheel from PyPI
# (pinned below: its C++ headers, libnvbench.so and libnvbench_main.a for CUDA 12 and 13), downloaded
# once into .deps/ (ignored by git) and unpacked into .deps/nvbench/. Meson then builds the NVBench
# programs (option nvbench, auto: when it is there). On a machine without a network (the GPU
# machines), carry the wheel (.deps/cuda_bench-*.whl): this script only unpacks it there.
# libnvbench.so needs the driver's libnvidia-ml.so.1 at run time (a GPU machine has it).
set -euo pipefail
cd "$(dirname "$0")/.."
version=0.3.0  # the newest on PyPI on 2026-12-01
mkdir -p .deps
if ! ls .deps/cuda_bench-$version-*.whl >/dev/null 2>&1; then
  python3 -m pip download -q --no-deps --only-binary=:all: --platform manylinux_2_27_x86_64 \
    --python-version 3.11 -d .deps "cuda-bench==$version"
fi
stamp=.deps/nvbench/.unpacked-$version
if [ ! -f "$stamp" ]; then
  rm -rf .deps/nvbench
  python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' .deps/cuda_bench-$version-*.whl .deps/nvbench
  touch "$stamp"
fi
ls .deps/nvbench/cuda/bench/cu13/nvbench/lib/libnvbench.so
