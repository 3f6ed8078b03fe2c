// The "gpu" test suites' rule, for every test program's main (test_main.cpp, and the programs with a
// main of their own): without a CUDA device the suite is filtered out and doctest counts its cases as
// skipped, unless CASCADE_REQUIRE_GPU=1 (scripts/gpu-check.sh) turns a missing device into a failure.
#pragma once

#include <doctest/doctest.h>

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cascade_test {

enum class gpu_state { present, absent, required_but_absent };

inline gpu_state filter_gpu_suite(doctest::Context& context) {
  int count = 0;
  bool const gpu = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
  (void)cudaGetLastError();
  if (gpu) return gpu_state::present;
  char const* require = std::getenv("CASCADE_REQUIRE_GPU");
  if (require != nullptr && std::strcmp(require, "1") == 0) {
    std::fprintf(stderr, "[cascade] CASCADE_REQUIRE_GPU=1 but no CUDA device is available\n");
    return gpu_state::required_but_absent;
  }
  std::printf("[cascade] no CUDA device: GPU test cases are skipped\n");
  context.addFilter("test-suite-exclude", "gpu");
  return gpu_state::absent;
}

}  // namespace cascade_test
