// calls.cuh: calls that several files of a program make, their kernels compiled in one (calls.cu)
#pragma once
#include <cascade/cascade.cuh>

using sum_policy = cascade::default_policy;
CASCADE_EXTERN_REDUCE_INTO(sum_policy, double const*, double*, double, cascade::plus);
CASCADE_EXTERN_ARGMIN_INTO(sum_policy, double const*, cascade::indexed<double>*);
