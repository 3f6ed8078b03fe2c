// expect: cascade::device_count: the count must be an integer type
#include <cascade/device_values.cuh>
#include <cascade/finish/last_block.cuh>
#include <cascade/tree/shuffle.cuh>
using p = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::last_block>;
void f(float const* d, double const* d_n, float* out) {  // a count of double type
  cascade::reduce_into(p{}, d, cascade::device_count(d_n, 100), out, 0.0f, cascade::plus{});
}
int main() { return 0; }
