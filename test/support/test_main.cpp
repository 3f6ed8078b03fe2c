// The doctest main shared by every test program. GPU test cases live in test suites named "gpu";
// without a CUDA device they are filtered out, and doctest counts them as skipped.
// CASCADE_REQUIRE_GPU=1 (set by scripts/gpu-check.sh) turns a missing device into a failure.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
  int count = 0;
  bool const gpu = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
  (void)cudaGetLastError();
  char const* require = std::getenv("CASCADE_REQUIRE_GPU");
  if (!gpu && require != nullptr && std::strcmp(require, "1") == 0) {
    std::fprintf(stderr, "[cascade] CASCADE_REQUIRE_GPU=1 but no CUDA device is available\n");
    return 1;
  }
  doctest::Context context;
  if (!gpu) {
    std::printf("[cascade] no CUDA device: GPU test cases are skipped\n");
    context.addFilter("test-suite-exclude", "gpu");
  }
  context.applyCommandLine(argc, argv);
  return context.run();
}
