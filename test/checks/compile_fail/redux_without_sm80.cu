// arch: -arch=sm_75
// expect: the policy's tree needs a newer architecture than every target this file is compiled for (tree::redux: 8.0)
#include <cascade/cascade.cuh>
using p = cascade::policy<256, 4, cascade::tree::redux, cascade::finish::recursive>;
int f(int const* d) { return cascade::reduce(p{}, d, d + 1, 0); }
int main() { return 0; }
