// expect: tree::none) sends every thread's value straight to the finish
// expect: Alternatives=<cascade::finish::atomic>
#include <cascade/cascade.cuh>
using p = cascade::policy<256, 1, cascade::tree::none, cascade::finish::last_block>;
int f(int const* d) { return cascade::reduce(p{}, d, d + 1, 0); }
int main() { return 0; }
