// cascade/detail/device.cuh: the current device's properties, read once per device and cached
// (src/device.cpp), so the per-call path makes no cudaGetDeviceProperties call.
#pragma once

namespace cascade::detail {

struct device_info {
  int ordinal;
  int sm_count;
  int max_grid_x;
  int cc_major;
  int cc_minor;
  bool cooperative_launch;
  bool pageable_memory_access;  // the device reads pageable host memory (HMM, ATS)
};

// The current device's info. Throws cascade::cuda_error when no CUDA device is available, with a
// message that says so.
device_info const& current_device();

}  // namespace cascade::detail
