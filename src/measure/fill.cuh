// src/measure/fill.cuh: the measuring programs' inputs, seeded and reproducible (cascade-bench,
// cascade-tune and cascade-rivals use the same generator, so a results file's sums can be recomputed
// on the host).
#pragma once

#include <cascade/error.cuh>
#include <cuda/std/type_traits>

namespace cascade_measure {

// Item i from splitmix64 of (i + 1) and the seed: integers in [-1000, 1000] ([-100, 100] for 1-byte
// types), floating point in [0, 1) with 24 bits (so many equal values: argmin's ties are real).
template <class T>
__global__ void fill_kernel(T* d, long long n, unsigned long long seed) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    unsigned long long x = (static_cast<unsigned long long>(i) + 1) * 0x9E3779B97F4A7C15ull ^ seed;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x ^= x >> 31;
    if constexpr (cuda::std::is_integral_v<T>)
      d[i] = static_cast<T>(static_cast<long long>(x % (sizeof(T) == 1 ? 201 : 2001)) - (sizeof(T) == 1 ? 100 : 1000));
    else
      d[i] = static_cast<T>(static_cast<float>(x >> 40) / static_cast<float>(1 << 24));
  }
}

template <class T>
void fill(T* d, long long n, unsigned long long seed) {
  fill_kernel<<<4096, 256>>>(d, n, seed);
  CASCADE_CUDA_CHECK(cudaGetLastError());
  CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace cascade_measure
