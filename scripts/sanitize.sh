#!/usr/bin/env bash
# For a GPU machine: compute-sanitizer's memcheck (with leak check), racecheck, synccheck and initcheck
# over the GPU test programs: every tree, every finish, the differential fuzz, the reduce, ops, API,
# preset, docs and semantics tests, and the distributed reduce's (where NCCL was found). Sizes are capped
# (CASCADE_TEST_MAX_N) so that it ends in minutes and still
# covers partial tiles, several blocks and blocks that loop over tiles. Left out: faults_test and
# sticky_error_test (they exhaust memory and fault on purpose) and soak_test (time-bound; it runs the
# kernels the others check). Runs 8 at a time; a log per run in the build folder.
#   scripts/sanitize.sh [--tools memcheck,racecheck,synccheck,initcheck] [--only "prog ..."]
# The last lines are "sanitizer <tool>: clean|FAILED (N programs)"; the exit status is 0 only if all are clean.
set -uo pipefail
cd "$(dirname "$0")/.."
build_dir=${CASCADE_BUILD_DIR:-build-gpu}
tools=memcheck,racecheck,synccheck,initcheck
only=${CASCADE_SANITIZE_ONLY:-}
while [ $# -gt 0 ]; do
  case $1 in
    --tools) tools=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    *) echo "unknown option $1"; exit 2 ;;
  esac
done
command -v nvcc >/dev/null 2>&1 || export PATH="/usr/local/cuda/bin:$PATH"
command -v compute-sanitizer >/dev/null 2>&1 || { echo "compute-sanitizer not found"; exit 1; }

[ -f "$build_dir/build.ninja" ] || meson setup "$build_dir" --buildtype=release >/dev/null || exit 1
targets=(); for t in $only; do targets+=("test/$t"); done
# CASCADE_SKIP_BUILD=1: gpu-check.sh --prebuilt has built everything already (and carried some)
[ "${CASCADE_SKIP_BUILD:-0}" = 1 ] || ninja -C "$build_dir" -j "$(nproc)" "${targets[@]}" >"$build_dir/sanitize-build.log" 2>&1 ||
  { tail -50 "$build_dir/sanitize-build.log"; exit 1; }

if [ -n "$only" ]; then
  programs=($only)
else
  programs=($(cd "$build_dir/test" && ls reduce_*_test tree_*_test finish_*_test non_commutative_*_test ops_*_test \
              fuzz_*_test family_*_test by_key_test algorithms_test single_pass_test concurrency_test presets_test docs_test distributed_test \
              semantics_test 2>/dev/null))
fi

# One run: tool, program. Prints "tool program ok|FAILED".
sanitize_one() {
  local tool=$1 t=$2 args=() extra=() cap=70000 env=()
  case $t in
    reduce_api_test) args=(-tce="*beyond 2^32*,*steady state*") ;;
    non_commutative_*|algorithms_test|presets_test|reduce_*_test) args=(-tce="*beyond 2^32*") ;;
    family_fuzz_test) env=(CASCADE_FUZZ_CASES=60) ;;
    family_*|by_key_test) args=(-tce="*beyond 2^32*,*stops early*,*beyond 2^31*") ;;
    finish_*) args=(-tce="*beyond 2^32*,*20 runs*,*streams*"); cap=2100 ;;  # still several blocks a policy
    single_pass_test) args=(-tce="*8 host threads*") ;;
    segmented_test) args=(-tce="*more than 2^31*"); cap=5000 ;;  # one thread a segment: the longest serially
    tree_*) cap=9000 ;;  # still partial tiles of every tile size, and several passes
    fuzz_*) cap=140000; env=(CASCADE_FUZZ_CASES=60 CASCADE_FUZZ_SPECIAL_CASES=60) ;;
    concurrency_test) env=(CASCADE_TEST_REPLAYS=20) ;;
    distributed_test) cap=3000; env=(NCCL_NVLS_ENABLE=0) ;;  # one rank per visible GPU; NCCL's kernels too
  esac
  [ $tool = memcheck ] && extra=(--leak-check full)
  # the errors example calls cudaSetDevice with a bad ordinal on purpose
  [ $t = docs_test ] && extra+=(--report-api-errors no)
  # NCCL's init probes its kernels for every architecture and gets cudaErrorNoKernelImageForDevice for
  # the others (enqueue.cc); cascade's own API errors throw, which the test would report
  [ $t = distributed_test ] && extra+=(--report-api-errors no)
  # kernels run one at a time under the sanitizers: nothing can run beside a busy stream
  if env CASCADE_REQUIRE_GPU=1 CASCADE_TEST_NO_TIMING=1 CASCADE_TEST_MAX_N=$cap "${env[@]}" compute-sanitizer --tool $tool "${extra[@]}" \
       --error-exitcode 99 "$build_dir/test/$t" "${args[@]}" >"$build_dir/sanitize-$tool-$t.log" 2>&1; then
    echo "$tool $t ok"
  else
    echo "$tool $t FAILED"
  fi
}
export -f sanitize_one
export build_dir

IFS=, read -r -a tool_list <<<"$tools"
echo "== compute-sanitizer: ${tool_list[*]} over ${#programs[@]} programs (8 at a time)"
start=$SECONDS
results=$(for tool in "${tool_list[@]}"; do for t in "${programs[@]}"; do echo "$tool $t"; done; done |
          xargs -P 8 -L 1 bash -c 'sanitize_one "$0" "$1"')
echo "$results" | grep FAILED | while read -r tool t _; do
  echo "  $tool $t: FAILED"; grep -m 20 -E "=========|ERROR|failed" "$build_dir/sanitize-$tool-$t.log"
done
status=0
for tool in "${tool_list[@]}"; do
  runs=$(echo "$results" | grep -c "^$tool ")
  if echo "$results" | grep -q "^$tool .* FAILED"; then state=FAILED; status=1; else state=clean; fi
  echo "sanitizer $tool: $state ($runs programs)"
done
echo "($((SECONDS - start)) s)"
exit $status
