// A kernel fault (an illegal address) is a sticky error: the CUDA context is lost and every later
// call fails. cascade must report it as cascade::cuda_error carrying the fault's code, whichever of
// its calls meets it first, and never return a number as if nothing happened. Its own program,
// since nothing can use the GPU in this process afterwards.
#include <doctest/doctest.h>

#include <cascade/cascade.cuh>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>

#include <string>

namespace {

using two_pass = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::two_pass>;
using flagged = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::flagged>;

__global__ void write_to(int* p) { *p = 1; }

void check_reports_fault(auto call, char const* what) {
  INFO(what);
  try {
    call();
    FAIL("no exception: the fault was swallowed");
  } catch (cascade::cuda_error const& e) {
    CHECK(e.code() == cudaErrorIllegalAddress);
    CHECK(std::string(e.what()).find("cudaErrorIllegalAddress") != std::string::npos);
  }
}

}  // namespace

TEST_SUITE("gpu") {

TEST_CASE("a sticky error from an earlier kernel is reported by the next call, not swallowed") {
  // Raw allocations, never freed: after the fault every CUDA call fails, and thrust's containers
  // would throw from their destructors.
  long long const n = 1 << 20;
  int* d = nullptr;
  int* d_out = nullptr;
  REQUIRE(cudaMalloc(&d, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&d_out, sizeof(int)) == cudaSuccess);
  thrust::fill_n(thrust::device, d, n, 1);
  int const* p = d;
  REQUIRE(cascade::reduce(flagged{}, p, p + n, 0) == n);  // everything set up before the fault
  REQUIRE(cascade::reduce(two_pass{}, p, p + n, 0) == n);
  cascade::reduce_into(two_pass{}, p, p + n, d_out, 0, cascade::plus{});
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);

  write_to<<<1, 1>>>(reinterpret_cast<int*>(0x8));  // an address no allocation holds
  // at once, maybe before the fault has happened: reduce waits for its result, so it must see it
  check_reports_fault([&] { (void)cascade::reduce(flagged{}, p, p + n, 0); }, "reduce right after the fault");
  // and every call after, the fault having happened
  check_reports_fault([&] { (void)cascade::reduce(two_pass{}, p, p + n, 0); }, "reduce, two_pass");
  check_reports_fault([&] { cascade::reduce_into(two_pass{}, p, p + n, d_out, 0, cascade::plus{}); },
                      "reduce_into, two_pass");
  check_reports_fault([&] { cascade::reduce_into(flagged{}, p, p + n, d_out, 0, cascade::plus{}); },
                      "reduce_into, flagged");
  check_reports_fault([&] { (void)cascade::reduce(p, p + n, 0); }, "reduce, default_policy");
  MESSAGE("[figures] sticky error: 5 calls after an illegal-address fault, each raised cuda_error "
          "(cudaErrorIllegalAddress)");
}

}  // TEST_SUITE("gpu")
