// expect: cascade::device_count / device_value: exact_plus and reproducible_plus keep accumulators
#include <cascade/device_values.cuh>
#include <cascade/finish/last_block.cuh>
#include <cascade/tree/shuffle.cuh>
using p = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::last_block>;
void f(float const* d, float const* d_init, float* out) {
  cascade::reduce_into(p{}, d, d + 100, out, cascade::device_value(d_init), cascade::exact_plus{});
}
int main() { return 0; }
