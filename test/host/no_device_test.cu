// With no CUDA device visible, cascade says so through cascade::cuda_error. meson runs this program
// with CUDA_VISIBLE_DEVICES="" so that it runs, and means the same, on GPU machines and off them.
#include <doctest/doctest.h>

#include <cascade/cascade.cuh>
#include <thrust/iterator/counting_iterator.h>

using policy = cascade::policy<256, 8, cascade::tree::sequential, cascade::finish::recursive>;

TEST_CASE("without a CUDA device, reduce and reduce_into throw cuda_error saying so") {
  thrust::counting_iterator<int> c(0);
  CHECK_THROWS_WITH_AS(cascade::reduce(policy{}, c, c + 100, 0), doctest::Contains("no CUDA device"),
                       cascade::cuda_error);
  CHECK_THROWS_WITH_AS(cascade::reduce(c, c + 100, 0), doctest::Contains("no CUDA device"), cascade::cuda_error);
  int* d_out = nullptr;
  CHECK_THROWS_WITH_AS(cascade::reduce_into(policy{}, c, c + 100, d_out, 0, cascade::plus{}),
                       doctest::Contains("no CUDA device"), cascade::cuda_error);
  try {
    cascade::reduce(policy{}, c, c + 100, 0);
  } catch (cascade::cuda_error const& e) {
    CHECK((e.code() == cudaErrorNoDevice || e.code() == cudaErrorInsufficientDriver));
  }
}
