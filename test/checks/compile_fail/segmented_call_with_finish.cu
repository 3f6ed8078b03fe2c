// expect: the policy needs a segment owner where reduce's name a finish
#include <cascade/cascade.cuh>
// A reduce policy (a finish in the fourth place) given to a segmented call.
using reduce_policy = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::last_block>;
void f(float const* d, int const* offsets, float* out) {
  cascade::segmented_reduce_into(reduce_policy{}, d, offsets, offsets + 1, 3, out, 0.0f, cascade::plus{});
}
int main() { return 0; }
