// expect: specialize cascade::identity<cascade::minimum, T>
#include <cascade/cascade.cuh>
struct key {
  int k;
  __host__ __device__ bool operator<(key const& o) const { return k < o.k; }
};
long long f(key const* d) { return cascade::argmin(cascade::default_policy{}, d, d + 1).index; }
int main() { return 0; }
