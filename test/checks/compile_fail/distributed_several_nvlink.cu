// expect: collective::nvlink moves one value a rank; for several use collective::automatic
#include <cascade/distributed/segmented.cuh>
#include <cascade/segment/warp.cuh>
#include <cascade/tree/shuffle.cuh>
using p = cascade::policy<256, 4, cascade::tree::shuffle, cascade::segment::warp<8>>;
void f(cascade::communicator const& c, float const* d, float* out) {
  cascade::batched_reduce_into(c, p{}, d, 10, 4, out, 0.0f, cascade::plus{}, cascade::collective::nvlink{});
}
int main() { return 0; }
