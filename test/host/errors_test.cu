// Error paths that need no GPU: bad ranges and the error type.
#include <doctest/doctest.h>

#include <cascade/cascade.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <stdexcept>
#include <string>
#include <vector>

using policy = cascade::policy<256, 8, cascade::tree::sequential, cascade::finish::recursive>;

TEST_CASE("last < first throws std::invalid_argument before touching the device") {
  // Host addresses never dereferenced: the range check comes first.
  std::vector<int> h(16, 1);
  int const* first = h.data() + 8;
  int const* last = h.data();
  CHECK_THROWS_AS(cascade::reduce(policy{}, first, last, 0), std::invalid_argument);
  CHECK_THROWS_AS(cascade::reduce(first, last, 0, cascade::plus{}), std::invalid_argument);
  int* d_out = nullptr;
  CHECK_THROWS_AS(cascade::reduce_into(policy{}, first, last, d_out, 0, cascade::plus{}), std::invalid_argument);
  thrust::counting_iterator<long long> c(10);
  CHECK_THROWS_WITH_AS(cascade::reduce(policy{}, c, c - 1, 0ll), doctest::Contains("last < first"),
                       std::invalid_argument);
  CHECK(h == std::vector<int>(16, 1));
}

TEST_CASE("cuda_error carries the code and names the failing call") {
  try {
    CASCADE_CUDA_CHECK(cudaErrorInvalidValue);
    FAIL("no exception");
  } catch (cascade::cuda_error const& e) {
    CHECK(e.code() == cudaErrorInvalidValue);
    std::string const what = e.what();
    CHECK(what.find("cudaErrorInvalidValue") != std::string::npos);
    CHECK(what.find("cascade: cudaErrorInvalidValue failed") == 0);  // the "call" is the expression
  }
  static_assert(std::is_base_of_v<std::runtime_error, cascade::cuda_error>);
  CHECK_NOTHROW(CASCADE_CUDA_CHECK(cudaSuccess));
}
