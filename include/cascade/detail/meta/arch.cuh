// cascade/detail/meta/arch.cuh: which architectures a translation unit's device code is compiled for, at
// compile time. A strategy named by hand must have its own code in one of them (detail/dispatch.cuh);
// at run time, what a kernel was compiled as decides (detail/runtime/device.cuh, kernel_arch).
#pragma once

#include "config.cuh"

namespace cascade::detail {

// The newest architecture (compute capability x 10, e.g. 90) this translation unit compiles device
// code for: the largest of nvcc's __CUDA_ARCH_LIST__ (defined in every pass, the host's included, from
// -arch / -gencode: "800,900"); 0 when the compiler does not say. Internal linkage: translation units
// of one program may be compiled for different architectures.
static constexpr int newest_compiled_arch = [] {
#ifdef __CUDA_ARCH_LIST__
  constexpr int list[] = {__CUDA_ARCH_LIST__};
  int newest = 0;
  for (int arch : list) newest = arch > newest ? arch : newest;
  return newest / 10;
#else
  return 0;
#endif
}();

// Whether Strategy (a tree or finish tag) has its own path in some target of this translation unit:
// its native_arch is 0 (every architecture) or at most the newest compiled one.
template <class Strategy>
inline constexpr bool is_compiled_v =
    Strategy::native_arch == 0 || newest_compiled_arch == 0 || Strategy::native_arch <= newest_compiled_arch;

template <class Strategy>
struct is_compiled {
  static constexpr bool value = is_compiled_v<Strategy>;
};

}  // namespace cascade::detail

namespace cascade::detail {

// The architecture whose code of this translation unit a device of compute capability `cc` (x 10) runs:
// the newest compiled one not newer than cc (its machine code, or its PTX compiled by the driver); 0
// when there is none (the device cannot run this code); cc itself when the compiler does not say.
static constexpr int running_arch(int cc) {
#ifdef __CUDA_ARCH_LIST__
  constexpr int list[] = {__CUDA_ARCH_LIST__};
  int running = 0;
  for (int arch : list) running = arch / 10 <= cc && arch / 10 > running ? arch / 10 : running;
  return running;
#else
  return cc;
#endif
}

}  // namespace cascade::detail
