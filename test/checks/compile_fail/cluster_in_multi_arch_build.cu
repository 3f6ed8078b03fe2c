// arch: -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90,code=sm_90
// Compiles: one of the targets (9.0) has finish::cluster; an 8.x GPU runs it as finish::last_block.
#include <cascade/cascade.cuh>
using p = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::cluster>;
static_assert(std::is_same_v<cascade::compiled_or_t<cascade::finish::cluster, cascade::finish::last_block>,
                             cascade::finish::cluster>);
int f(int const* d) { return cascade::reduce(p{}, d, d + 1, 0); }
int main() { return 0; }
