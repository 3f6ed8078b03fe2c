#!/usr/bin/env bash
# For a GPU machine: what a reduction waits for beside a busy stream (bench/concurrency.cu), every
# case in a fresh process so that "first call" means first. Writes
# bench/results/concurrency-<gpu>-<date>.json (or --out FILE) and prints the rows.
#   scripts/concurrency.sh [--build-dir DIR] [--out FILE] [--busy-ms MS] [--commit SHA]
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${CASCADE_BUILD_DIR:-build-gpu}; out=""; busy=50; commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
while [ $# -gt 0 ]; do
  case $1 in
    --build-dir) build_dir=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --busy-ms) busy=$2; shift 2 ;;
    --commit) commit=$2; shift 2 ;;
    *) echo "unknown option $1 (options: --build-dir DIR --out FILE --busy-ms MS --commit SHA)"; exit 2 ;;
  esac
done
exe=$build_dir/bench/cascade-concurrency
[ -x "$exe" ] || ninja -C "$build_dir" bench/cascade-concurrency >/dev/null
rows=$(mktemp)
for f in recursive atomic host two_pass last_block flagged cooperative cluster default; do
  "$exe" --first $f --busy-ms "$busy" | grep '^row ' >>"$rows"
  "$exe" --first $f --prepared --busy-ms "$busy" | grep '^row ' >>"$rows"
  CUDA_MODULE_LOADING=EAGER "$exe" --first $f --busy-ms "$busy" | grep '^row ' >>"$rows"
done
"$exe" --busy-ms "$busy" | grep '^row ' >>"$rows"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
cuda=$(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')
cccl=$(grep -h '#define CCCL_VERSION ' "$(dirname "$(command -v nvcc)")/../include/cccl/cuda/std/__cccl/version.h" \
  "$(dirname "$(command -v nvcc)")/../targets/x86_64-linux/include/cccl/cuda/std/__cccl/version.h" 2>/dev/null |
  head -1 | awk '{print $3}')
date=$(date -u +%Y-%m-%d)
[ -n "$out" ] || out="bench/results/concurrency-$(echo "$gpu" | tr 'A-Z ' 'a-z-' | sed 's/nvidia-//')-$date.json"
python3 - "$rows" "$out" "$gpu" "$driver" "$cuda" "${cccl:-unknown}" "$commit" "$date" <<'PY'
import json, sys
rows_file, out, gpu, driver, cuda, cccl, commit, date = sys.argv[1:]
rows = [json.loads(l[4:]) for l in open(rows_file) if l.startswith("row ")]
doc = {"program": "cascade-concurrency", "gpu": gpu, "driver": driver, "cuda": cuda, "cccl": cccl,
       "commit": commit, "date": date, "rows": rows}
open(out, "w").write(json.dumps(doc, indent=1) + "\n")
for r in rows:
    extra = "".join(f" {k}={r[k]}" for k in ("grid", "resident_grid", "prepare_ms") if k in r)
    print(f"{r['case']:<62} {r['finish']:<12} {r['mode']:<11} {r['module_loading']:<15} {r['ms']:9.3f} ms"
          f"  other still busy: {str(r['other_stream_still_busy']).lower()}{extra}")
print("wrote", out)
PY
rm -f "$rows"
