// The algorithms on reduce with a policy of their own: argmin, transform_reduce, the counts, positions,
// predicates and device-held sizes pull in what reduce does and nothing more. lean.py checks (nvcc -M) as for one_policy.cu.
#include <cascade/algorithm/count.cuh>
#include <cascade/algorithm/element.cuh>
#include <cascade/algorithm/inner_product.cuh>
#include <cascade/algorithm/predicates.cuh>
#include <cascade/arg_reduce.cuh>
#include <cascade/device_values.cuh>
#include <cascade/finish/last_block.cuh>
#include <cascade/policy/policy.cuh>
#include <cascade/transform_reduce.cuh>
#include <cascade/tree/shuffle.cuh>

using my_policy = cascade::policy<256, 8, cascade::tree::shuffle, cascade::finish::last_block>;

struct square {
  __host__ __device__ float operator()(float x) const { return x * x; }
};

float both(float const* d, long long n) {
  auto const m = cascade::argmin(my_policy{}, d, d + n);
  return m.value + cascade::transform_reduce(my_policy{}, d, d + n, 0.0f, cascade::plus{}, square{});
}
