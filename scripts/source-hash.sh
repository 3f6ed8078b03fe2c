#!/usr/bin/env bash
# One hash of everything a build reads (headers, sources, tests, build files), for scripts/bundle.sh
# and scripts/gpu-check.sh --prebuilt to check that carried programs match the tree. Not bench/results/:
# data, not read by any build, and left behind where the tree must travel light (a GPU machine's copy).
set -euo pipefail
cd "$(dirname "$0")/.."
find include src test bench meson.build meson_options.txt -type f ! -name '*.pyc' ! -path 'bench/results/*' | LC_ALL=C sort |
  xargs sha256sum | sha256sum | cut -c1-16
