#!/usr/bin/env bash
# The main job: builds cascade-demo and runs it. It reduces 2^28 random floats and ints with several
# policies and the default, checks each against cub::DeviceReduce and prints a table. Without a GPU
# it builds, then says in one line that a CUDA GPU is required.
#   scripts/demo.sh [log2 n]
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${CASCADE_BUILD_DIR:-build}
command -v nvcc >/dev/null 2>&1 || export PATH="/usr/local/cuda/bin:$PATH"
for tool in meson ninja nvcc; do
  command -v $tool >/dev/null 2>&1 || { echo "scripts/demo.sh: $tool not found; run scripts/test.sh once (it installs what is missing)"; exit 1; }
done
[ -f "$build_dir/build.ninja" ] || meson setup "$build_dir" --buildtype=release >/dev/null
ninja -C "$build_dir" cascade-demo >/dev/null
exec "$build_dir/cascade-demo" "$@"
