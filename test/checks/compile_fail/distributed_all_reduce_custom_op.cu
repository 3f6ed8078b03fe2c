// expect: collective::all_reduce needs an accumulator (init's type) and op that NCCL reduces itself
#include <cascade/distributed/reduce.cuh>
#include <cascade/finish/recursive.cuh>
#include <cascade/tree/shuffle.cuh>
struct longest {
  __host__ __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};
using p = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::recursive>;
int f(cascade::communicator const& c, int const* d) {
  return cascade::reduce(c, p{}, d, d + 1, 0, longest{}, cascade::collective::all_reduce{});
}
int main() { return 0; }
