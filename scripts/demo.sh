#!/usr/bin/env bash
# The main job: builds cascade-demo and runs it. It reduces 2^28 random floats and ints with several
# policies and the default, checks each against cub::DeviceReduce and prints a table. Without a GPU
# it builds, then says in one line that a CUDA GPU is required.
#   scripts/demo.sh [log2 n]
set -euo pipefail
cd "$(dirname "$0")/.."
# A release build of its own: scripts/test.sh leaves build/ unoptimized and PTX-only on a machine
# without a GPU, and the demo's numbers would be meaningless from it.
build_dir=${CASCADE_BUILD_DIR:-build-demo}
command -v nvcc >/dev/null 2>&1 || export PATH="/usr/local/cuda/bin:$PATH"
for tool in meson ninja nvcc; do
  command -v $tool >/dev/null 2>&1 || { echo "scripts/demo.sh: $tool not found; run scripts/test.sh once (it installs what is missing)"; exit 1; }
done
log=$(mktemp); trap 'rm -f "$log"' EXIT
if [ ! -f "$build_dir/build.ninja" ]; then
  meson setup "$build_dir" --buildtype=release -Db_ndebug=true >"$log" 2>&1 ||
    { cat "$log"; echo "scripts/demo.sh: meson setup $build_dir failed (above)"; exit 1; }
fi
ninja -C "$build_dir" cascade-demo >"$log" 2>&1 ||
  { tail -40 "$log"; echo "scripts/demo.sh: building cascade-demo in $build_dir failed (above)"; exit 1; }
exec "$build_dir/cascade-demo" "$@"
