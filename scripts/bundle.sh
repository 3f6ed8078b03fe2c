#!/usr/bin/env bash
# On a machine without a GPU: builds the named test programs (the slowest to compile) for cuda-arch
# without PTX and packs them, with a hash of the sources they came from, into one xz archive that
# scripts/gpu-check.sh --prebuilt takes on the GPU machine, so that its time goes to running, not
# compiling. gpu-check refuses a bundle whose sources differ from its own tree.
#   scripts/bundle.sh OUT.tar.xz test/fuzz_host_test test/ops_integers_test ...
# CASCADE_BUNDLE_BUILD_DIR names the build folder (default build-bundle, configured -Dcuda-ptx=false).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: scripts/bundle.sh OUT.tar.xz PROGRAM..."; exit 2; }
out=$(realpath -m "$1"); shift
build_dir=${CASCADE_BUNDLE_BUILD_DIR:-build-bundle}
command -v nvcc >/dev/null 2>&1 || export PATH="/usr/local/cuda/bin:$PATH"
[ -f "$build_dir/build.ninja" ] || meson setup "$build_dir" --buildtype=release -Dcuda-ptx=false >/dev/null
# An object whose entry in ninja's dependency log names no headers (a compile ninja did not record)
# would never be rebuilt when a header changes, and a bundle would carry it stale: remove it first.
ninja -C "$build_dir" -t deps 2>/dev/null | sed -n 's/^\(.*\.o\): #deps 0,.*/\1/p' | while read -r o; do
  if [ -e "$build_dir/$o" ]; then echo "no recorded dependencies, rebuilt: $o"; rm -f "$build_dir/$o"; fi
done
ninja -C "$build_dir" -j "$(nproc)" "$@"
stage=$(mktemp -d); trap 'rm -rf "$stage"' EXIT
bash scripts/source-hash.sh >"$stage/bundle.sha"
(cd "$build_dir" && cp --parents "$@" "$stage/")
(cd "$stage" && strip "$@")  # symbol tables of template instantiations are most of a program's size
mkdir -p "$(dirname "$out")"
# one LZMA window over all programs: much of their code repeats across them
tar -C "$stage" -cf - bundle.sha "$@" | xz -T2 --lzma2=preset=9e,dict=512MiB >"$out"
echo "$out: $(du -h "$out" | cut -f1), $# programs, sources $(cat "$stage/bundle.sha")"
