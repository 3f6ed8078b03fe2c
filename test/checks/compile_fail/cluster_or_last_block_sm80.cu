// arch: -arch=sm_80
// Compiles: compiled_or_t picks finish::last_block where no target has finish::cluster, and
// default_policy (whose sm_90 tables name cluster) compiles for any architecture.
#include <cascade/cascade.cuh>
using p = cascade::policy<256, 4, cascade::tree::shuffle,
                          cascade::compiled_or_t<cascade::finish::cluster, cascade::finish::last_block>>;
static_assert(std::is_same_v<p::finish_type, cascade::finish::last_block>);
int f(int const* d) { return cascade::reduce(p{}, d, d + 1, 0) + cascade::reduce(cascade::default_policy{}, d, d + 1, 0); }
int main() { return 0; }
