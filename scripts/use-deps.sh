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
