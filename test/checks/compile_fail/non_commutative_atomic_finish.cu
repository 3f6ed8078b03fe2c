// expect: combines block results out of order, and the op is cascade::non_commutative
// expect: Rejected=cascade::finish::atomic, Alternatives=<cascade::finish::recursive, cascade::finish::host, cascade::finish::two_pass, cascade::finish::last_block, cascade::finish::flagged, cascade::finish::cooperative, cascade::finish::cluster>
#include <cascade/cascade.cuh>
struct concat {
  __host__ __device__ int operator()(int a, int b) const { return a * 31 + b; }
};
using p = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::atomic>;
int f(int const* d) { return cascade::reduce(p{}, d, d + 1, 0, cascade::non_commutative(concat{})); }
int main() { return 0; }
