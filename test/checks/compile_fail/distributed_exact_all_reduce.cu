// expect: exact_plus and reproducible_plus meet through collective::all_gather
#include <cascade/distributed/reduce.cuh>
#include <cascade/finish/recursive.cuh>
#include <cascade/tree/shuffle.cuh>
using p = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::recursive>;
float f(cascade::communicator const& c, float const* d) {
  return cascade::reduce(c, p{}, d, d + 1, 0.0f, cascade::exact_plus{}, cascade::collective::all_reduce{});
}
int main() { return 0; }
