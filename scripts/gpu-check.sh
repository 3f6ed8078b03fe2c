#!/usr/bin/env bash
# For a GPU machine (H100/H200 with nvcc, meson, ninja and doctest; no network needed): builds
# everything, runs every test with the GPU required (a missing GPU fails instead of skipping), and
# prints a short summary, with the reliability figures the fuzz, fault and soak tests report. With
# --sanitize it also runs scripts/sanitize.sh: compute-sanitizer's memcheck, racecheck, synccheck and
# initcheck over the GPU tests (--sanitize=memcheck,initcheck for some of them).
#   scripts/gpu-check.sh [--sanitize[=tools]] [--demo] [--no-tests] [--prebuilt=FILE [--tests-only|--only-carried]]
#   (--no-tests: sanitizers and demo only)
# CASCADE_SANITIZE_ONLY="single_pass_test finish_last_block_test" with --no-tests --sanitize builds only
# those test programs and runs every tool over them: a quick recheck after a change to a few kernels.
# --prebuilt=FILE takes the programs in FILE (made by scripts/bundle.sh on a machine without a GPU,
# from the same sources: it checks) instead of compiling them, and builds the rest; with --tests-only
# the rest is only what meson test runs (the bench programs, which CI builds too, are left out); with
# --only-carried nothing is built and only the tests of the carried programs run (a bundle split in
# parts, each under what one call may carry: run once a part).
set -uo pipefail
cd "$(dirname "$0")/.."
build_dir=${CASCADE_BUILD_DIR:-build-gpu}
sanitize=0; demo=0; tests=1; sanitize_tools=memcheck,racecheck,synccheck,initcheck; prebuilt=; tests_only=0; only_carried=0
for a in "$@"; do
  case $a in
    --sanitize) sanitize=1 ;;
    --sanitize=*) sanitize=1; sanitize_tools=${a#--sanitize=} ;;
    --demo) demo=1 ;;
    --no-tests) tests=0 ;;
    --prebuilt=*) prebuilt=$(realpath "${a#--prebuilt=}") ;;
    --tests-only) tests_only=1 ;;
    --only-carried) only_carried=1 ;;
    *) echo "unknown option $a"; exit 2 ;;
  esac
done
command -v nvcc >/dev/null 2>&1 || export PATH="/usr/local/cuda/bin:$PATH"
source scripts/use-deps.sh  # nlohmann-json and the newest CCCL, from .deps/ where there is no network

echo "== device"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || { echo "no GPU visible"; exit 1; }
nvcc --version | tail -1
[ -f "$build_dir/build.ninja" ] || meson setup "$build_dir" --buildtype=release >/dev/null || exit 1
echo "== build"
only=${CASCADE_SANITIZE_ONLY:-}
[ -n "$only" ] && [ $tests = 1 ] && { echo "CASCADE_SANITIZE_ONLY needs --no-tests"; exit 2; }
targets=(); for t in $only; do targets+=("test/$t"); done
rebuild=()
if [ -n "$prebuilt" ]; then
  unpacked=$(mktemp -d); trap 'rm -rf "$unpacked"' EXIT
  python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$prebuilt" "$unpacked" || exit 1
  tree_hash=$(bash scripts/source-hash.sh)
  [ "$(cat "$unpacked/bundle.sha")" = "$tree_hash" ] ||
    { echo "$prebuilt was built from other sources ($(cat "$unpacked/bundle.sha"), this tree $tree_hash)"; exit 1; }
  carried=$(cd "$unpacked" && find . -type f ! -name bundle.sha | sed 's|^\./||' | sort)
  dest=$(realpath "$build_dir"); (cd "$unpacked" && cp --parents $carried "$dest/")
  echo "prebuilt: $(echo $carried)"
  # every other program; meson test and sanitize.sh must not rebuild the carried ones
  # (--tests-only: only the programs meson test runs; the bench programs and tools are left unbuilt)
  [ -n "$only" ] || [ $only_carried = 1 ] || mapfile -t targets < <(meson introspect "$build_dir" --targets | python3 -c '
import json, os, subprocess, sys
build, carried, tests_only = os.path.realpath(sys.argv[1]), set(sys.argv[2].split()), sys.argv[3] == "1"
run = {os.path.realpath(t["cmd"][0]) for t in json.loads(subprocess.run(["meson", "introspect", build, "--tests"],
       capture_output=True, text=True, check=True).stdout)} if tests_only else None
for t in json.load(sys.stdin):
    if t["type"] != "executable": continue  # libraries only feed programs; carried ones need none
    for f in t["filename"]:
        rel = os.path.relpath(f, build)
        if rel not in carried and (run is None or os.path.realpath(f) in run): print(rel)' "$build_dir" "$carried" $tests_only)
  names=()
  if [ $only_carried = 1 ]; then
    mapfile -t names < <(meson introspect "$build_dir" --tests | python3 -c '
import json, os, sys
build, carried = os.path.realpath(sys.argv[1]), set(sys.argv[2].split())
for t in json.load(sys.stdin):
    if os.path.relpath(os.path.realpath(t["cmd"][0]), build) in carried: print(t["name"])' "$build_dir" "$carried")
    echo "only the carried programs' ${#names[@]} tests"
  fi
  rebuild=(--no-rebuild)
  export CASCADE_SKIP_BUILD=1
fi
start=$SECONDS
# with every program carried there is nothing to build (a bare ninja would build them all again)
if [ -z "$prebuilt" ] || [ -n "$only" ] || [ ${#targets[@]} -gt 0 ]; then
  ninja -C "$build_dir" -j "$(nproc)" "${targets[@]}" >"$build_dir/build.log" 2>&1 || { tail -50 "$build_dir/build.log"; exit 1; }
fi
echo "ok ($((SECONDS - start)) s)"

test_rc=0; summary="tests not run (--no-tests)"
if [ $tests = 1 ]; then
  echo "== tests (GPU required)"
  start=$SECONDS
  CASCADE_REQUIRE_GPU=1 meson test -C "$build_dir" "${rebuild[@]}" --print-errorlogs --num-processes 4 ${names[@]+"${names[@]}"} \
    >"$build_dir/test.log" 2>&1
  test_rc=$?
  grep -E "^\s*[0-9]+/[0-9]+ " "$build_dir/test.log"
  [ $test_rc = 0 ] || grep -E "ERROR|FAILED|CHECK|REQUIRE|replay" "$build_dir/test.log" | head -40
  summary=$(python3 scripts/summarize_tests.py "$build_dir/meson-logs/testlog.json" $test_rc | tail -1)
  echo "(tests took $((SECONDS - start)) s)"
  echo "== reliability figures"
  grep -ho "\[figures\].*" "$build_dir/meson-logs/testlog.txt" | sort | uniq
fi

sanitizer_lines=()
if [ $sanitize = 1 ]; then
  # scripts/sanitize.sh: every tool over the GPU test programs (or CASCADE_SANITIZE_ONLY's)
  out=$(CASCADE_BUILD_DIR=$build_dir bash scripts/sanitize.sh --tools "$sanitize_tools")
  echo "$out"
  while read -r l; do sanitizer_lines+=("${l#sanitizer }"); done < <(echo "$out" | grep "^sanitizer ")
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
