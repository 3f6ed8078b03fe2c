// expect: start every rank but 0 from the op's identity; give the op one (cascade::monoid(op, identity))
#include <cascade/distributed/segmented.cuh>
#include <cascade/segment/warp.cuh>
#include <cascade/tree/shuffle.cuh>
struct longest {
  __host__ __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};
using p = cascade::policy<256, 4, cascade::tree::shuffle, cascade::segment::warp<8>>;
void f(cascade::communicator const& c, int const* d, int* out) {
  cascade::batched_reduce_into(c, p{}, d, 10, 4, out, 0, longest{});
}
int main() { return 0; }
