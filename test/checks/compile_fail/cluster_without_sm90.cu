// arch: -arch=sm_80
// expect: the policy's finish needs a newer architecture than every target this file is compiled for (finish::cluster: 9.0)
#include <cascade/cascade.cuh>
using p = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::cluster>;
int f(int const* d) { return cascade::reduce(p{}, d, d + 1, 0); }
int main() { return 0; }
