// expect: tree::cub_block's is in <cascade/tree/cub_block.cuh>
// alone: tests a missing include, which the shared compile's includes would supply
#include <cascade/cascade.cuh>
// cascade.cuh has tree::cub_block's tag (the registry lists it) but not its code, cub::BlockReduce,
// so that including cascade pulls in nothing of CUB: naming it asks for its header.
using cub_tree = cascade::policy<256, 4, cascade::tree::cub_block, cascade::finish::recursive>;
float f(float const* d, long long n) { return cascade::reduce(cub_tree{}, d, d + n, 0.0f); }
int main() { return 0; }
