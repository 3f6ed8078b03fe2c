// expect: cascade: init comes before the op: reduce(policy, first, last, init, op)
#include <cascade/finish/recursive.cuh>
#include <cascade/reduce.cuh>
#include <cascade/tree/shuffle.cuh>
using p = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::recursive>;
void f(int const* d, int* out) { cascade::reduce_into(p{}, d, d + 1, out, cascade::plus{}, 0); }  // CUB's order
int main() { return 0; }
