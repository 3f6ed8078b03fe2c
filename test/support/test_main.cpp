// The doctest main shared by every test program. GPU test cases live in test suites named "gpu";
// without a CUDA device they are filtered out, and doctest counts them as skipped.
// CASCADE_REQUIRE_GPU=1 (set by scripts/gpu-check.sh) turns a missing device into a failure.
#define DOCTEST_CONFIG_IMPLEMENT
#include "gpu_suite.hpp"

int main(int argc, char** argv) {
  doctest::Context context;
  if (cascade_test::filter_gpu_suite(context) == cascade_test::gpu_state::required_but_absent) return 1;
  context.applyCommandLine(argc, argv);
  return context.run();
}
