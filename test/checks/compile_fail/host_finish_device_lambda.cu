// expect: a __device__ lambda cannot run there
#include <cascade/cascade.cuh>
using p = cascade::policy<256, 1, cascade::tree::shuffle, cascade::finish::host>;
int f(int const* d) { return cascade::reduce(p{}, d, d + 1, 0, [] __device__(int a, int b) { return a + b; }); }
int main() { return 0; }
