#!/usr/bin/env bash
# The distributed reduce on every visible GPU (or --ranks N of them), both ways a program runs on
# several GPUs: one process driving them all (communicator::init_all; the tests' one-rank forms run one
# thread per GPU), and one process per GPU (scripts/launch-ranks.sh: init_rank from an id shared through
# a file). Runs test/distributed_test and the docs' examples each way, then with --bench the scaling
# bench, whose results go to bench/results/distributed-<gpu>x<N>-<date>.json. On one GPU everything
# runs as one rank. On two or more: the tests again with NCCL's network transport forced (P2P and
# shared memory off: the socket transport between the ranks, as between hosts), and the kill check.
# Where Meson found MPI (-Dmpi), the MPI communicator's test under mpirun, a rank a GPU. NVLink multicast stays off (NCCL_NVLS_ENABLE=0), as the GPU machines require.
#   scripts/multi-gpu-check.sh [--ranks N] [--bench] [--bench-args "..."]
# CASCADE_BUILD_DIR names the build folder (default build-gpu); CASCADE_SKIP_BUILD=1 runs the programs
# already there (built elsewhere and unpacked into it) without Meson or Ninja.
set -uo pipefail
cd "$(dirname "$0")/.."
build_dir=${CASCADE_BUILD_DIR:-build-gpu}
ranks=; bench=0; bench_args=
while [ $# -gt 0 ]; do
  case $1 in
    --ranks) ranks=$2; shift ;;
    --ranks=*) ranks=${1#--ranks=} ;;
    --bench) bench=1 ;;
    --bench-args) bench_args=$2; shift ;;
    *) echo "unknown option $1"; exit 2 ;;
  esac
  shift
done
export NCCL_NVLS_ENABLE=0
command -v nvcc >/dev/null 2>&1 || export PATH="/usr/local/cuda/bin:$PATH"
source scripts/use-deps.sh
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
[ "${gpus:-0}" -ge 1 ] || { echo "no GPU visible"; exit 1; }
n=${ranks:-$gpus}
echo "== $gpus GPU(s): $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sort | uniq -c | xargs)"
[ -n "${CASCADE_SKIP_BUILD:-}" ] || [ -f "$build_dir/build.ninja" ] || meson setup "$build_dir" --buildtype=release -Dnccl=enabled >/dev/null || exit 1
targets=(test/distributed_test test/docs_distributed_test)
{ grep -qs "test/distributed_mpi_test:" "$build_dir/build.ninja" || [ -x "$build_dir/test/distributed_mpi_test" ]; } &&
  targets+=(test/distributed_mpi_test)  # -Dmpi found MPI
[ $bench = 1 ] && targets+=(bench/cascade-distributed)
start=$SECONDS
if [ -n "${CASCADE_SKIP_BUILD:-}" ]; then  # programs built elsewhere (scripts/bundle.sh) and unpacked here
  for t in "${targets[@]}"; do [ -x "$build_dir/$t" ] || { echo "CASCADE_SKIP_BUILD: no $build_dir/$t"; exit 1; }; done
  echo "== prebuilt: ${targets[*]}"
else
  ninja -C "$build_dir" -j "$(nproc)" "${targets[@]}" >"$build_dir/multi-gpu-build.log" 2>&1 ||
    { tail -40 "$build_dir/multi-gpu-build.log"; exit 1; }
  echo "== built ($((SECONDS - start)) s)"
fi

results=()
run() {  # run NAME COMMAND...: the command's last doctest summary line, and its status
  local name=$1; shift
  local log="$build_dir/multi-gpu-$name.log"
  "$@" >"$log" 2>&1
  local rc=$?
  grep -E "test cases:|FAILED|ERROR|replay|rank\(s\)" "$log" | tail -n 12
  results+=("$name: $([ $rc = 0 ] && echo ok || echo "FAILED ($rc)")")
  return $rc
}
echo "== one process, $n GPU(s)"
CASCADE_REQUIRE_GPU=1 CASCADE_TEST_RANKS=$n run one-process "$build_dir/test/distributed_test"
CASCADE_REQUIRE_GPU=1 CASCADE_TEST_RANKS=$n run one-process-docs "$build_dir/test/docs_distributed_test"
echo "== one process, $n GPU(s), NCCL's network transport (NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1)"
NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 CASCADE_REQUIRE_GPU=1 CASCADE_TEST_RANKS=$n run network "$build_dir/test/distributed_test"
echo "== one process per GPU, $n rank(s)"
CASCADE_REQUIRE_GPU=1 run per-gpu bash scripts/launch-ranks.sh "$n" "$build_dir/test/distributed_test"
CASCADE_REQUIRE_GPU=1 run per-gpu-docs bash scripts/launch-ranks.sh "$n" "$build_dir/test/docs_distributed_test"
if [ -x "$build_dir/test/distributed_mpi_test" ] && command -v mpirun >/dev/null 2>&1; then
  echo "== MPI: mpirun -np $n, a rank a GPU (communicator_from_mpi)"
  CASCADE_REQUIRE_GPU=1 run mpi mpirun --allow-run-as-root --oversubscribe -np "$n" -x NCCL_NVLS_ENABLE=0 \
    -x CASCADE_REQUIRE_GPU -x LD_LIBRARY_PATH "$build_dir/test/distributed_mpi_test"
fi
if [ "$n" -ge 2 ]; then
  # The kill check: 20 launches, in each the last rank dies mid-loop (distributed_test's "kill" case).
  echo "== kill: 20 rounds, one process per GPU, the last rank dying mid-loop"
  killed_ok=0
  for round in $(seq 0 19); do
    CASCADE_TEST_KILL=$round CASCADE_LAUNCH_TIMEOUT=60 bash scripts/launch-ranks.sh "$n" "$build_dir/test/distributed_test" \
      -tc="kill*" >"$build_dir/multi-gpu-kill-$round.log" 2>&1 && killed_ok=$((killed_ok + 1))
    grep -hE "threw in|memory free|FAILED|ERROR" "$build_dir/multi-gpu-kill-$round.log" | sed 's/^/  /' | head -n 6
  done
  results+=("kill: $killed_ok of 20 rounds $([ $killed_ok = 20 ] && echo ok || echo FAILED)")
fi
if [ $bench = 1 ]; then
  gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/NVIDIA //; s/ .*//' | tr 'A-Z' 'a-z')
  out="bench/results/distributed-${gpu}x${n}-$(date -u +%Y-%m-%d).json"
  driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
  echo "== bench -> $out"
  ranks_list=$(python3 -c "n=$n; r=1; l=[]
while r <= n: l.append(str(r)); r *= 2
print(','.join(l))")
  "$build_dir/bench/cascade-distributed" --ranks "$ranks_list" --out "$out" --commit "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
    --driver "$driver" $bench_args | tee "$build_dir/multi-gpu-bench.log"
  results+=("bench: $([ ${PIPESTATUS[0]} = 0 ] && echo ok || echo FAILED)")
fi
echo "== summary"
for r in "${results[@]}"; do echo "$r"; done
[[ "${results[*]}" != *FAILED* ]]
