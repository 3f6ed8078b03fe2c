// expect: cub::DeviceReduce assumes a commutative op
#include <cascade/cascade.cuh>
#include <cascade/cross_check.cuh>
struct concat {
  __host__ __device__ int operator()(int a, int b) const { return a * 31 + b; }
};
bool f(int const* d) {
  return cascade::cross_check(cascade::default_policy{}, d, d + 1, 0, cascade::non_commutative(concat{})).agree;
}
int main() { return 0; }
