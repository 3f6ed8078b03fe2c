#!/usr/bin/env bash
# Runs the bench programs on the GPU: cascade-bench (bench/results/bench-<gpu>-<date>.json, the full
# sweep), cascade-ladder (ladder-<gpu>-<date>.json) and cascade-finishes (finishes-<gpu>-<date>.json),
# then checks the bar (scripts/bar.py). An argument names the output folder; before committing the
# results, xz -9e the files over 200 KiB (test/checks/results_cited.py). The tuner is separate:
#   build/cascade-tune --all --table include/cascade/tuning/sm90_<gpu>.cuh --out bench/results/tune-<gpu>-<date>.json
set -euo pipefail
cd "$(dirname "$0")/.."
# A build of its own, as users ship theirs: NDEBUG (no CCCL or libstdc++ assertions, in cascade's
# kernels or CUB's; Meson's default b_ndebug=false enables both), no tests.
build_dir=${CASCADE_BUILD_DIR:-build-bench}
command -v nvcc >/dev/null 2>&1 || export PATH="/usr/local/cuda/bin:$PATH"
bash scripts/fetch-nvbench.sh >/dev/null  # the three are NVBench programs
[ -f "$build_dir/build.ninja" ] || meson setup "$build_dir" --buildtype=release -Db_ndebug=true -Dtests=false >/dev/null
ninja -C "$build_dir" bench/cascade-bench bench/cascade-ladder bench/cascade-finishes >/dev/null
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-' | sed 's/^nvidia-//')
commit=${CASCADE_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}  # the device copy may have no .git
dir=${1:-bench/results}
day=$(date -u +%Y-%m-%d)
mkdir -p "$dir"
export CASCADE_COMMIT=$commit
scripts/nvbench-run.sh "$build_dir/bench/cascade-bench" "$dir/bench-$gpu-$day.json" | tee "$dir/bench-$gpu-$day.txt"
python3 scripts/bar.py "$dir/bench-$gpu-$day.json" || true  # reports, does not stop the other benches
scripts/nvbench-run.sh "$build_dir/bench/cascade-ladder" "$dir/ladder-$gpu-$day.json"
scripts/nvbench-run.sh "$build_dir/bench/cascade-finishes" "$dir/finishes-$gpu-$day.json"
