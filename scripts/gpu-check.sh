#!/usr/bin/env bash
# For a GPU machine (H100/H200 with nvcc, meson, ninja and doctest; no network needed): builds
# everything, runs every test with the GPU required (a missing GPU fails instead of skipping), and
# prints a short summary. With --sanitize it also runs compute-sanitizer's memcheck, racecheck,
# synccheck and initcheck over the GPU tests (sizes capped so that it ends in minutes).
#   scripts/gpu-check.sh [--sanitize] [--demo] [--no-tests]   (--no-tests: sanitizers and demo only)
# CASCADE_SANITIZE_ONLY="single_pass_test finish_last_block_test" with --no-tests --sanitize builds only
# those test programs and runs every tool over them: a quick recheck after a change to a few kernels.
set -uo pipefail
cd "$(dirname "$0")/.."
build_dir=${CASCADE_BUILD_DIR:-build-gpu}
sanitize=0; demo=0; tests=1
for a in "$@"; do case $a in --sanitize) sanitize=1 ;; --demo) demo=1 ;; --no-tests) tests=0 ;; *) echo "unknown option $a"; exit 2 ;; esac; done
command -v nvcc >/dev/null 2>&1 || export PATH="/usr/local/cuda/bin:$PATH"

echo "== device"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || { echo "no GPU visible"; exit 1; }
nvcc --version | tail -1
[ -f "$build_dir/build.ninja" ] || meson setup "$build_dir" --buildtype=release >/dev/null || exit 1
echo "== build"
only=${CASCADE_SANITIZE_ONLY:-}
[ -n "$only" ] && [ $tests = 1 ] && { echo "CASCADE_SANITIZE_ONLY needs --no-tests"; exit 2; }
targets=(); for t in $only; do targets+=("test/$t"); done
ninja -C "$build_dir" -j "$(nproc)" "${targets[@]}" >"$build_dir/build.log" 2>&1 || { tail -50 "$build_dir/build.log"; exit 1; }
echo "ok"

test_rc=0; summary="tests not run (--no-tests)"
if [ $tests = 1 ]; then
  echo "== tests (GPU required)"
  CASCADE_REQUIRE_GPU=1 meson test -C "$build_dir" --print-errorlogs --num-processes 4 >"$build_dir/test.log" 2>&1
  test_rc=$?
  grep -E "^\s*[0-9]+/[0-9]+ " "$build_dir/test.log"
  [ $test_rc = 0 ] || grep -E "ERROR|FAILED|CHECK|REQUIRE|replay" "$build_dir/test.log" | head -40
  summary=$(python3 scripts/summarize_tests.py "$build_dir/meson-logs/testlog.json" $test_rc | tail -1)
fi

sanitizer_lines=()
# One compute-sanitizer run: tool, test program. Prints "tool test ok|FAILED".
sanitize_one() {
  local tool=$1 t=$2 args=() extra=() cap=70000
  [ $t = reduce_api_test ] && args=(-tce="*beyond 2^32*,*steady state*")
  [[ $t == non_commutative_* || $t == algorithms_test ]] && args=(-tce="*beyond 2^32*")
  [[ $t == finish_* ]] && args=(-tce="*beyond 2^32*,*20 runs*,*streams*")
  [ $t = single_pass_test ] && args=(-tce="*8 host threads*")
  [[ $t == tree_* ]] && cap=9000    # still partial tiles of every tile size, and several passes
  [[ $t == finish_* ]] && cap=2100  # still several blocks for every policy shape
  [ $tool = memcheck ] && extra=(--leak-check full)
  if CASCADE_REQUIRE_GPU=1 CASCADE_TEST_MAX_N=$cap compute-sanitizer --tool $tool "${extra[@]}" --error-exitcode 99 \
       "$build_dir/test/$t" "${args[@]}" >"$build_dir/sanitize-$tool-$t.log" 2>&1; then
    echo "$tool $t ok"
  else
    echo "$tool $t FAILED"
  fi
}
export -f sanitize_one
export build_dir
if [ $sanitize = 1 ]; then
  echo "== compute-sanitizer (runs in parallel)"
  # every finish and the reduce tests under every tool; every tree under racecheck and synccheck
  # (the trees are where shared memory and barriers live)
  base=(reduce_int32_test reduce_uint8_test reduce_double_test reduce_api_test algorithms_test single_pass_test
        $(cd "$build_dir/test" && ls finish_*_test non_commutative_*_test ops_*_test))
  trees=($(cd "$build_dir/test" && ls tree_*_test 2>/dev/null))
  if [ -n "$only" ]; then base=($only); trees=(); fi
  jobs_list=$( { for tool in memcheck racecheck synccheck initcheck; do
                   for t in "${base[@]}"; do echo "$tool $t"; done
                   case $tool in racecheck|synccheck) for t in "${trees[@]}"; do echo "$tool $t"; done ;; esac
                 done; } )
  results=$(echo "$jobs_list" | xargs -P 8 -L 1 bash -c 'sanitize_one "$0" "$1"')
  echo "$results" | grep FAILED | while read -r tool t _; do
    echo "  $tool $t: FAILED"; grep -m 20 -E "=========|ERROR|failed" "$build_dir/sanitize-$tool-$t.log"
  done
  for tool in memcheck racecheck synccheck initcheck; do
    runs=$(echo "$results" | grep -c "^$tool ")
    if echo "$results" | grep -q "^$tool .* FAILED"; then status=FAILED; else status=clean; fi
    echo "  $tool: $status ($runs programs)"
    sanitizer_lines+=("$tool: $status ($runs programs)")
  done
fi

if [ $demo = 1 ]; then
  echo "== demo"
  "$build_dir/cascade-demo" || summary="$summary (demo: FAILED)"
fi

echo "== summary"
nvidia-smi --query-gpu=name --format=csv,noheader
for l in "${sanitizer_lines[@]}"; do echo "sanitizer $l"; done
echo "$summary"
{ [ $tests = 0 ] || [[ $summary == *" 0 failed"* ]]; } && [ $test_rc = 0 ] && [[ "${sanitizer_lines[*]}" != *FAILED* ]]
