#!/usr/bin/env bash
# Runs cascade-rivals (built against the toolkit's CCCL) and cascade-rivals-newest (built against the
# newest CCCL, scripts/fetch-cccl.sh) on the GPU, NVBench programs both, each writing
# bench/results/rivals-<gpu>-<date>-cccl<version>.json (and .txt: NVBench's tables) through
# scripts/nvbench-run.sh, then checks the bar (scripts/rivals_bar.py). An argument names the output
# folder; extra options after it go to both programs (e.g. --families reduce -a Elements[pow2]=[10:24:2]).
# Before committing the results, xz -9e the files over 200 KiB (test/checks/results_cited.py).
set -euo pipefail
cd "$(dirname "$0")/.."
# A build of its own, as users ship theirs: NDEBUG (no CCCL or libstdc++ assertions, in cascade's
# kernels or CUB's; Meson's default b_ndebug=false enables both), no tests.
build_dir=${CASCADE_BUILD_DIR:-build-bench}
command -v nvcc >/dev/null 2>&1 || export PATH="/usr/local/cuda/bin:$PATH"
source scripts/use-deps.sh  # nlohmann-json and the newest CCCL, from .deps/ where there is no network
bash scripts/fetch-nvbench.sh >/dev/null  # NVBench (unpacked from the carried wheel where there is no network)
[ -f "$build_dir/build.ninja" ] || meson setup "$build_dir" --buildtype=release -Db_ndebug=true -Dtests=false >/dev/null
# cascade-rivals-newest exists only where the newest CCCL's headers were there when Meson configured
# (.deps/cccl; scripts/fetch-cccl.sh): without them only the toolkit's CUB is measured, and it says so.
programs=(cascade-rivals)
if ninja -C "$build_dir" -t targets all 2>/dev/null | grep -q '^bench/cascade-rivals-newest:'; then
  programs=(cascade-rivals-newest cascade-rivals)
else
  echo "scripts/rivals.sh: no newest CCCL in $build_dir (run scripts/fetch-cccl.sh, then meson setup --reconfigure)"
fi
ninja -C "$build_dir" "${programs[@]/#/bench/}" >"$build_dir/rivals-build.log" 2>&1 ||
  { tail -40 "$build_dir/rivals-build.log"; exit 1; }
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-' | sed 's/^nvidia-//')
commit=${CASCADE_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
dir=${1:-bench/results}
shift || true
day=$(date -u +%Y-%m-%d)
mkdir -p "$dir"
files=()
for program in "${programs[@]}"; do
  version=$("$build_dir/bench/$program" --versions | python3 -c 'import json, sys; print(json.load(sys.stdin)["cccl"])')
  out="$dir/rivals-$gpu-$day-cccl$version"
  CASCADE_COMMIT=$commit scripts/nvbench-run.sh "$build_dir/bench/$program" "$out.json" "$@" | tee "$out.txt" || true
  files+=("$out.json")
done
python3 scripts/rivals_bar.py "${files[@]}" || true
