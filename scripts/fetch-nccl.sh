#!/usr/bin/env bash
# NCCL's headers and library for the distributed reduce (cascade/distributed.cuh), where neither the
# CUDA toolkit nor the Python has them: the nvidia-nccl-cu13 wheel from PyPI, pinned below,
# downloaded once into .deps/ (ignored by git) and unpacked into .deps/nccl/{include,lib}. Meson finds
# it there (option nccl, auto). A machine without a GPU can compile and link against it; running
# needs a GPU and its driver. scripts/test.sh calls this when no NCCL is found.
#   To move to a newer NCCL: change the version here and run this script.
set -euo pipefail
cd "$(dirname "$0")/.."
version=2.28.9  # the NCCL of CUDA 13.0's toolkit on this project's machines (NCCL_VERSION_CODE 22809)
mkdir -p .deps
if ! ls .deps/nvidia_nccl_cu13-$version-*.whl >/dev/null 2>&1; then
  python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
    --platform manylinux_2_18_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux2014_x86_64 \
    -d .deps "nvidia-nccl-cu13==$version"
fi
wheel=$(ls .deps/nvidia_nccl_cu13-$version-*.whl | head -1)
stamp=.deps/nccl/.unpacked-$version
if [ ! -f "$stamp" ]; then
  rm -rf .deps/nccl .deps/nccl-wheel
  # Only the header and the shared library: the wheel's device-side bitcode is not needed.
  python3 - "$wheel" <<'PY'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
for name in z.namelist():
    if name.startswith('nvidia/nccl/include/') or name == 'nvidia/nccl/lib/libnccl.so.2':
        z.extract(name, '.deps/nccl-wheel')
PY
  mv .deps/nccl-wheel/nvidia/nccl .deps/nccl
  rm -rf .deps/nccl-wheel
  ln -s libnccl.so.2 .deps/nccl/lib/libnccl.so
  touch "$stamp"
fi
grep -m1 "define NCCL_VERSION_CODE" .deps/nccl/include/nccl.h
