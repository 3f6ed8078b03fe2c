#!/usr/bin/env bash
# Starts N copies of a program, one per GPU, as the ranks of one NCCL communicator: what mpirun would
# do on one machine, with no MPI. Each copy gets
#   CASCADE_RANK (0 .. N-1), CASCADE_NRANKS (N), CASCADE_DEVICE (its GPU: the rank, modulo the GPUs),
#   CASCADE_NCCL_ID_FILE (a fresh path in a private directory: rank 0 writes NCCL's id there and the
#   others read it, cascade::share_unique_id), CASCADE_TEST_SEED (one seed for all, so that test data
#   agree), and NCCL_NVLS_ENABLE=0 (NVLink multicast off, as the GPU machines require).
# Output lines are prefixed with the rank. When one copy fails the others are stopped (they would wait
# in a collective for it), and every copy is stopped after CASCADE_LAUNCH_TIMEOUT seconds (600).
# The exit status is 0 when every copy exits 0.
#   scripts/launch-ranks.sh N program [args...]
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: $0 N program [args...]" >&2; exit 2; }
n=$1; shift
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "$0: N must be a positive number, not '$n'" >&2; exit 2; }
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
[ "${gpus:-0}" -ge 1 ] || gpus=1
dir=$(mktemp -d "${TMPDIR:-/tmp}/cascade-ranks.XXXXXX")
trap 'rm -rf "$dir"' EXIT
seed=${CASCADE_TEST_SEED:-$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')}
echo "== $n rank(s) on $gpus GPU(s), CASCADE_TEST_SEED=$seed"
pids=()
for ((r = 0; r < n; ++r)); do
  CASCADE_RANK=$r CASCADE_NRANKS=$n CASCADE_DEVICE=$((r % gpus)) CASCADE_NCCL_ID_FILE="$dir/nccl.id" \
  CASCADE_TEST_SEED=$seed NCCL_NVLS_ENABLE=0 \
    timeout "${CASCADE_LAUNCH_TIMEOUT:-600}" "$@" > >(sed -u "s/^/[rank $r] /") 2>&1 &
  pids+=($!)
done
status=0
declare -A live=()
for p in "${pids[@]}"; do live[$p]=1; done
while [ ${#live[@]} -gt 0 ]; do
  finished=
  wait -n -p finished "${!live[@]}" 2>/dev/null
  rc=$?
  [ -n "${finished:-}" ] || break
  unset "live[$finished]"
  if [ $rc -ne 0 ] && [ $status -eq 0 ]; then
    status=$rc
    echo "== a rank exited with $rc: stopping the others"
    for p in "${!live[@]}"; do pkill -TERM -P "$p" 2>/dev/null; kill "$p" 2>/dev/null; done
  fi
done
wait 2>/dev/null
echo "== $n rank(s): $([ $status -eq 0 ] && echo ok || echo "FAILED ($status)")"
exit $status
