// calls.cu: the one file that compiles the kernels of the calls calls.cuh names
#include "calls.cuh"

CASCADE_INSTANTIATE_REDUCE_INTO(sum_policy, double const*, double*, double, cascade::plus);
CASCADE_INSTANTIATE_ARGMIN_INTO(sum_policy, double const*, cascade::indexed<double>*);
