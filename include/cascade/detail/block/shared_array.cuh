// cascade/detail/block/shared_array.cuh: shared-memory storage for N values of any trivially copyable T.
// Raw bytes, not T[N]: __shared__ variables cannot have constructors, and T need not be 4 bytes.
#pragma once

#include "../meta/config.cuh"

namespace cascade::detail {

template <class T, int N>
struct shared_array {
  alignas(T) unsigned char bytes[sizeof(T) * N];
  __device__ T* data() { return reinterpret_cast<T*>(bytes); }
};

}  // namespace cascade::detail
