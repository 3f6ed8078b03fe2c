// Per-device properties, read once per device (cudaGetDeviceProperties is far too slow for the
// per-call path) and cached for the life of the process.
#include <cascade/detail/device.cuh>
#include <cascade/error.cuh>

#include <array>
#include <mutex>

namespace cascade::detail {

namespace {

constexpr int max_devices = 64;

struct device_slot {
  std::once_flag once;
  device_info info{};
};

std::array<device_slot, max_devices> slots;

}  // namespace

device_info const& current_device() {
  int ordinal = 0;
  cudaError_t const code = cudaGetDevice(&ordinal);
  if (code == cudaErrorNoDevice || code == cudaErrorInsufficientDriver) {
    (void)cudaGetLastError();
    throw cuda_error(code, "cascade: no CUDA device is available (" + cuda_error_text(code, "cudaGetDevice") +
                               "); cascade needs a CUDA GPU and its driver");
  }
  check_cuda(code, "cudaGetDevice");
  if (ordinal < 0 || ordinal >= max_devices)
    throw cuda_error(cudaErrorInvalidDevice, "cascade: device ordinal out of the supported range [0, 64)");

  device_slot& slot = slots[ordinal];
  std::call_once(slot.once, [&] {
    device_info info{ordinal, 0, 0, 0, 0, false, false};
    check_cuda(cudaDeviceGetAttribute(&info.sm_count, cudaDevAttrMultiProcessorCount, ordinal),
               "cudaDeviceGetAttribute(cudaDevAttrMultiProcessorCount)");
    check_cuda(cudaDeviceGetAttribute(&info.max_grid_x, cudaDevAttrMaxGridDimX, ordinal),
               "cudaDeviceGetAttribute(cudaDevAttrMaxGridDimX)");
    check_cuda(cudaDeviceGetAttribute(&info.cc_major, cudaDevAttrComputeCapabilityMajor, ordinal),
               "cudaDeviceGetAttribute(cudaDevAttrComputeCapabilityMajor)");
    check_cuda(cudaDeviceGetAttribute(&info.cc_minor, cudaDevAttrComputeCapabilityMinor, ordinal),
               "cudaDeviceGetAttribute(cudaDevAttrComputeCapabilityMinor)");
    int cooperative = 0;
    check_cuda(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, ordinal),
               "cudaDeviceGetAttribute(cudaDevAttrCooperativeLaunch)");
    info.cooperative_launch = cooperative != 0;
    int pageable = 0;
    check_cuda(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, ordinal),
               "cudaDeviceGetAttribute(cudaDevAttrPageableMemoryAccess)");
    info.pageable_memory_access = pageable != 0;
    slot.info = info;
  });
  return slot.info;
}

}  // namespace cascade::detail
