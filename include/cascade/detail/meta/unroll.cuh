// cascade/detail/meta/unroll.cuh: CASCADE_UNROLL, `#pragma unroll` where the device compiler reads it.
// In __host__ __device__ code the host compiler sees the loop too, and `#pragma unroll` there is a
// -Wunknown-pragmas warning in every translation unit that includes the header.
#pragma once

#include "config.cuh"

#ifdef __CUDA_ARCH__
#define CASCADE_UNROLL _Pragma("unroll")
#else
#define CASCADE_UNROLL
#endif
