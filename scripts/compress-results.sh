#!/usr/bin/env bash
# Compresses results files over the threshold in place, NAME -> NAME.xz (xz -9e): JSON results
# shrink 10-25x, and the tracked tree has to fit the 64 MiB copy that carries it to the GPU machines.
# The scripts read either name (scripts/results_io.py); test/results_size.py fails while a tracked
# file under bench/results is over the threshold uncompressed. Run it after a bench run, before
# committing its results:
#   scripts/compress-results.sh [FILE or DIR ...]   (default: bench/results)
set -euo pipefail
threshold=204800  # bytes (200 KiB); test/results_size.py reads this line

if [ $# -eq 0 ]; then cd "$(dirname "$0")/.." && set -- bench/results; fi
count=0
while IFS= read -r -d '' f; do
  if [ -e "$f.xz" ]; then
    echo "scripts/compress-results.sh: $f.xz exists already; left $f as it is" >&2
    continue
  fi
  before=$(stat -c %s "$f")
  # -T1: one block (the best ratio), and the same bytes whatever the number of cores
  xz -9e -T1 -- "$f"
  echo "$f.xz: $before -> $(stat -c %s "$f.xz") bytes"
  count=$((count + 1))
done < <(find "$@" -type f ! -name '*.xz' -size +"$threshold"c -print0 | sort -z)
echo "$count file(s) compressed (over $threshold bytes); stage both names: git add -A -- $*"
