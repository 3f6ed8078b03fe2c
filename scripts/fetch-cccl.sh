#!/usr/bin/env bash
# The newest CCCL (CUB, Thrust, libcu++) beside the toolkit's, for cascade-rivals-newest: the
# nvidia-cuda-cccl wheel from PyPI, pinned below, downloaded once into .deps/ (ignored by git) and
# unpacked into .deps/cccl/. The headers are then at .deps/cccl/nvidia/cu13/include/cccl, and Meson
# builds cascade-rivals-newest against them (option newest-cccl, auto: when they are there).
# On a machine without a network (the GPU machines), carry the wheel (.deps/*.whl): this script
# only unpacks it there.
#   To move to a newer CCCL: change the version here, run this script, and check what
#   .deps/cccl/nvidia/cu13/include/cccl/cub/version.cuh says (CUB_VERSION).
set -euo pipefail
cd "$(dirname "$0")/.."
version=13.3.5.0.6  # CCCL 3.5.0 (CUB_VERSION 300500), the newest on PyPI on 2026-11-24
wheel=nvidia_cuda_cccl-$version-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl
mkdir -p .deps
if [ ! -f ".deps/$wheel" ]; then
  python3 -m pip download -q --no-deps --only-binary=:all: --platform manylinux2014_x86_64 \
    --python-version 3.12 -d .deps "nvidia-cuda-cccl==$version"
fi
stamp=.deps/cccl/.unpacked-$version
if [ ! -f "$stamp" ]; then
  rm -rf .deps/cccl
  python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' ".deps/$wheel" .deps/cccl
  touch "$stamp"
fi
grep -m1 "define CUB_VERSION " .deps/cccl/nvidia/cu13/include/cccl/cub/version.cuh
