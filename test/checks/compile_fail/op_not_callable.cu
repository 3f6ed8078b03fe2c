// expect: cascade: the op must be callable as op(T, T), T being init's type
#include <cascade/finish/recursive.cuh>
#include <cascade/reduce.cuh>
#include <cascade/tree/shuffle.cuh>
struct point { float x, y; };
struct add_points {  // takes points, but init is a float
  __host__ __device__ point operator()(point a, point b) const { return {a.x + b.x, a.y + b.y}; }
};
using p = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::recursive>;
float f(point const* d) { return cascade::reduce(p{}, d, d + 1, 0.0f, add_points{}); }
int main() { return 0; }
