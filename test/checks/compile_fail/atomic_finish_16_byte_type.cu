// expect: the accumulator type (init's type) must be 1, 2, 4 or 8 bytes
#include <cascade/cascade.cuh>
struct wide { double a, b; };
struct wide_op { __host__ __device__ wide operator()(wide x, wide y) const { return {x.a + y.a, x.b + y.b}; } };
using p = cascade::policy<256, 1, cascade::tree::shuffle, cascade::finish::atomic>;
wide f(wide const* d) { return cascade::reduce(p{}, d, d + 1, wide{}, wide_op{}); }
int main() { return 0; }
