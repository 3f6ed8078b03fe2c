// expect: reorders operands, and the op is cascade::non_commutative
// expect: Rejected=cascade::tree::unrolled, Alternatives=<cascade::tree::interleaved,
#include <cascade/cascade.cuh>
struct concat {
  __host__ __device__ int operator()(int a, int b) const { return a * 31 + b; }
};
using p = cascade::presets::harris_reduce6;
int f(int const* d) { return cascade::reduce(p{}, d, d + 1, 0, cascade::non_commutative(concat{})); }
int main() { return 0; }
