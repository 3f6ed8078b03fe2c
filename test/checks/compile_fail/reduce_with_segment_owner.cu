// expect: the policy names a segment owner, which segmented_reduce and batched_reduce take
#include <cascade/cascade.cuh>
// A segmented policy (a segment owner in the fourth place) given to reduce.
using rows = cascade::policy<256, 4, cascade::tree::shuffle, cascade::segment::warp<8>>;
float f(float const* d, long long n) { return cascade::reduce(rows{}, d, d + n, 0.0f); }
int main() { return 0; }
