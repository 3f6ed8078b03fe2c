// expect: tree::sequential (sequential addressing, x[i] op x[i + s]) reorders operands
#include <cascade/cascade.cuh>
struct concat {
  __host__ __device__ int operator()(int a, int b) const { return a * 31 + b; }
};
using p = cascade::policy<256, 4, cascade::tree::sequential, cascade::finish::recursive>;
int f(int const* d) { return cascade::reduce(p{}, d, d + 1, 0, cascade::non_commutative(concat{})); }
int main() { return 0; }
