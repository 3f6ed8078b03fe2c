// The control: a valid policy and call compile, so the failures above are the asserts at work.
#include <cascade/cascade.cuh>
cascade::policy<32, 1, cascade::tree::sequential, cascade::finish::recursive> p;
int f(int const* d) { return cascade::reduce(p, d, d + 1, 0); }

// An order-preserving policy and default_policy accept a non-commutative op.
struct concat {
  __host__ __device__ int operator()(int a, int b) const { return a * 31 + b; }
};
int g(int const* d) {
  using ordered = cascade::policy<128, 4, cascade::tree::interleaved, cascade::finish::last_block>;
  return cascade::reduce(ordered{}, d, d + 1, 0, cascade::non_commutative(concat{})) +
         cascade::reduce(cascade::default_policy{}, d, d + 1, 0, cascade::non_commutative(concat{}));
}
int main() { return 0; }
