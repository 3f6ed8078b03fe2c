# Sourced by the scripts that build on a GPU machine (gpu-check.sh, rivals.sh): what .deps/ carries
# (scripts/fetch-deps.sh, scripts/fetch-cccl.sh) made usable where there is no network.
#   nlohmann-json (the bench's and tuner's results files): the Debian package unpacked beside it, on
#   the include path, when the machine lacks it.
if [ ! -f /usr/include/nlohmann/json.hpp ] && ls .deps/nlohmann-json3-dev_*.deb >/dev/null 2>&1; then
  [ -f .deps/json/usr/include/nlohmann/json.hpp ] || dpkg -x .deps/nlohmann-json3-dev_*.deb .deps/json
  export CPLUS_INCLUDE_PATH="$PWD/.deps/json/usr/include${CPLUS_INCLUDE_PATH:+:$CPLUS_INCLUDE_PATH}"
fi
#   The newest CCCL's headers (cascade-rivals-newest), unpacked from the carried wheel.
if ls .deps/nvidia_cuda_cccl-*.whl >/dev/null 2>&1; then bash scripts/fetch-cccl.sh >/dev/null; fi
#   NCCL (the distributed reduce): the Python's nvidia-nccl-cu13 library on the loader's path, for
#   programs linked elsewhere against another copy (scripts/bundle.sh builds against the toolkit's).
nccl_lib=$(python3 -c 'import os, nvidia.nccl as m; print(os.path.join(list(m.__path__)[0], "lib"))' 2>/dev/null || true)
if [ -n "$nccl_lib" ] && [ -d "$nccl_lib" ]; then
  export LD_LIBRARY_PATH="$nccl_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
