#!/usr/bin/env bash
# Runs one of cascade's NVBench programs (bench/) and writes its results file: NVBench's JSON
# whole under "nvbench", under "environment" what a results file records that NVBench's does not (the
# driver, the CUDA runtime and CCCL the program reports with --versions, the commit and the date), and
# under "notes" the program's rows that are not timings (--notes). scripts/results_io.py reads it. Its exit status is the program's (1: a result
# disagreed with its reference; the file is written all the same).
#   scripts/nvbench-run.sh PROGRAM OUT.json [NVBench's options: -b, -a, --stopping-criterion, ...]
set -euo pipefail
cd "$(dirname "$0")/.."
program=$1 out=$2
shift 2
raw=$(mktemp --suffix=.json)
trap 'rm -f "$raw" "$raw.notes"' EXIT
status=0
"$program" --json "$raw" --notes "$raw.notes" "$@" || status=$?
[ -s "$raw" ] || { echo "nvbench-run.sh: $program wrote no JSON (exit status $status)" >&2; exit "${status/#0/1}"; }
versions=$("$program" --versions)
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
commit=${CASCADE_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}  # the device copy may have no .git
python3 - "$raw" "$out" "$versions" "$commit" "$driver" "$(date -u +%Y-%m-%d)" <<'PY'
import json, sys
sys.path.insert(0, 'scripts')
from results_io import wrap_nvbench
raw, out, versions, commit, driver, date = sys.argv[1:]
try:
    with open(raw + '.notes') as f:
        notes = json.load(f)
except FileNotFoundError:
    notes = []
with open(raw) as f:
    doc = wrap_nvbench(json.load(f), json.loads(versions), commit, driver, date, notes)
with open(out, 'w') as f:
    json.dump(doc, f, indent=1)
    f.write('\n')
PY
exit "$status"
