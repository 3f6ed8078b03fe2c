// expect: minimum or maximum over those integers (NCCL's floating ones drop NaN)
#include <cascade/distributed/reduce.cuh>
#include <cascade/finish/recursive.cuh>
#include <cascade/tree/shuffle.cuh>
using p = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::recursive>;
float f(cascade::communicator const& c, float const* d) {
  return cascade::reduce(c, p{}, d, d + 1, INFINITY, cascade::minimum{}, cascade::collective::all_reduce{});
}
int main() { return 0; }
