// expect: Finish must be a tag from cascade::finish
#include <cascade/cascade.cuh>
cascade::policy<256, 1, cascade::tree::sequential, cascade::tree::sequential> p;
int main() { return 0; }
