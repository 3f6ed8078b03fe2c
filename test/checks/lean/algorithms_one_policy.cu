// The algorithms on reduce with a policy of their own: argmin and transform_reduce pull in what reduce
// does and nothing more. lean.py checks (nvcc -M) as for one_policy.cu.
#include <cascade/arg_reduce.cuh>
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
