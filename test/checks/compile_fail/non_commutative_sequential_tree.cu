// expect: reorders operands, and the op is cascade::non_commutative
// expect: Rejected=cascade::tree::sequential, Alternatives=<cascade::tree::interleaved, cascade::tree::interleaved_strided, cascade::tree::shuffle, cascade::tree::redux, cascade::tree::cub_block>
#include <cascade/cascade.cuh>
struct concat {
  __host__ __device__ int operator()(int a, int b) const { return a * 31 + b; }
};
using p = cascade::policy<256, 4, cascade::tree::sequential, cascade::finish::recursive>;
int f(int const* d) { return cascade::reduce(p{}, d, d + 1, 0, cascade::non_commutative(concat{})); }
int main() { return 0; }
