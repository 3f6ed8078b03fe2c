// expect: Tree must be a tag from cascade::tree
#include <cascade/cascade.cuh>
cascade::policy<256, 1, int, cascade::finish::recursive> p;
int main() { return 0; }
