// The control: a valid policy and call compile, so the failures above are the asserts at work.
#include <cascade/cascade.cuh>
cascade::policy<32, 1, cascade::tree::sequential, cascade::finish::recursive> p;
int f(int const* d) { return cascade::reduce(p, d, d + 1, 0); }
int main() { return 0; }
