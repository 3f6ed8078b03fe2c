// expect: CoarseFactor (items each thread folds before the tree) must be >= 1
#include <cascade/cascade.cuh>
cascade::policy<256, 0, cascade::tree::sequential, cascade::finish::recursive> p;
int main() { return 0; }
