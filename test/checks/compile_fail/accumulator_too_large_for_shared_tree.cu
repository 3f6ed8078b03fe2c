// expect: the accumulator is too large for a shared-memory tree
#include <cascade/finish/two_pass.cuh>
#include <cascade/reduce.cuh>
#include <cascade/tree/sequential.cuh>
struct histogram { unsigned bins[512]; };  // 2 KB: not even 32 of them fit in a block's shared memory
struct merge {
  __host__ __device__ histogram operator()(histogram const& a, histogram const& b) const {
    histogram r;
    for (int i = 0; i < 512; ++i) r.bins[i] = a.bins[i] + b.bins[i];
    return r;
  }
};
using p = cascade::policy<64, 1, cascade::tree::sequential, cascade::finish::two_pass>;
histogram f(histogram const* d) { return cascade::reduce(p{}, d, d + 1, histogram{}, merge{}); }
int main() { return 0; }
