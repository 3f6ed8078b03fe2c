// expect: the op must be callable as op(T, T) on a const op
#include <cascade/finish/recursive.cuh>
#include <cascade/reduce.cuh>
#include <cascade/tree/shuffle.cuh>
struct counting_plus {  // Thrust's tests have such ops; threads share one copy, so it cannot count
  int calls = 0;
  __host__ __device__ int operator()(int a, int b) { ++calls; return a + b; }
};
using p = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::recursive>;
int f(int const* d) { return cascade::reduce(p{}, d, d + 1, 0, counting_plus{}); }
int main() { return 0; }
