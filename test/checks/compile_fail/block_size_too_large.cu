// expect: BlockSize must be a power of two in [32, 1024]
#include <cascade/cascade.cuh>
cascade::policy<2048, 1, cascade::tree::sequential, cascade::finish::recursive> p;
int main() { return 0; }
