#!/usr/bin/env bash
# Runs cascade-ladder on the GPU and writes bench/results/ladder-<gpu>-<date>.json.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${CASCADE_BUILD_DIR:-build}
command -v nvcc >/dev/null 2>&1 || export PATH="/usr/local/cuda/bin:$PATH"
[ -f "$build_dir/build.ninja" ] || meson setup "$build_dir" --buildtype=release >/dev/null
ninja -C "$build_dir" bench/cascade-ladder >/dev/null
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-' | sed 's/^nvidia-//')
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
commit=${CASCADE_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}  # the device copy may have no .git
out=${1:-bench/results/ladder-$gpu-$(date -u +%Y-%m-%d).json}
mkdir -p "$(dirname "$out")"
"$build_dir/bench/cascade-ladder" --out "$out" --commit "$commit" --driver "$driver"
