#!/usr/bin/env bash
# For a machine with a network, before carrying the tree to a GPU machine without one: downloads into
# .deps/ (ignored by git) what the build needs and that machine lacks. gpu-check.sh unpacks it there.
#   nlohmann-json3-dev: the JSON library of the bench's and the tuner's results files.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .deps
cd .deps
ls nlohmann-json3-dev_*.deb >/dev/null 2>&1 || apt-get download nlohmann-json3-dev
ls -la
