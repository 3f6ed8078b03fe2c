// expect: finish::atomic combines block results in whatever order they arrive
#include <cascade/cascade.cuh>
struct concat {
  __host__ __device__ int operator()(int a, int b) const { return a * 31 + b; }
};
using p = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::atomic>;
int f(int const* d) { return cascade::reduce(p{}, d, d + 1, 0, cascade::non_commutative(concat{})); }
int main() { return 0; }
