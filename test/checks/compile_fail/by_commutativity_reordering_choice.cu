// expect: serves non-commutative ops and must preserve operand order
// expect: Rejected=cascade::tree::sequential, Alternatives=<cascade::tree::interleaved,
#include <cascade/cascade.cuh>
using t = cascade::tree::by_commutativity<cascade::tree::shuffle, cascade::tree::sequential>;
using p = cascade::policy<256, 4, t, cascade::finish::recursive>;
int f(int const* d) { return cascade::reduce(p{}, d, d + 1, 0); }
int main() { return 0; }
