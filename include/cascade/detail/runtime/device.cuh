// cascade/detail/runtime/device.cuh: the current device's properties, read once per device and cached for
// the life of the process, so the per-call path makes no cudaGetDeviceProperties call (far too slow
// for it).
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <atomic>
#include <mutex>

#include "../../error.cuh"

namespace cascade::detail {

// Devices with ordinals [0, max_devices) get the per-device caches (properties, scratch pools,
// per-stream state).
inline constexpr int max_devices = 64;

struct device_info {
  int ordinal;
  int sm_count;
  int max_grid_x;
  int cc_major;
  int cc_minor;
  bool cooperative_launch;
  bool pageable_memory_access;  // the device reads pageable host memory (HMM, ATS)
  int memory_gbs;               // peak memory bandwidth, GB/s (peak_memory_gbs)
  int max_threads_per_sm;       // resident threads an SM holds (2048 on Hopper, 1536 on an L4/RTX 40)
};

// Peak memory bandwidth in GB/s from what cudaDevAttrMemoryClockRate (kHz) and
// cudaDevAttrGlobalMemoryBusWidth (bits) report: two transfers a clock (DDR) across the bus. 3352 on
// an H100 SXM (2619 MHz, 5120 bits).
constexpr int peak_memory_gbs(int clock_khz, int bus_bits) {
  return static_cast<int>(2.0 * clock_khz * 1e3 * (bus_bits / 8) / 1e9 + 0.5);
}

// The current device's info. Throws cascade::cuda_error when no CUDA device is available, with a
// message that says so.
inline device_info const& current_device() {
  struct device_slot {
    std::once_flag once;
    device_info info{};
  };
  // One per program (a static of an inline function). Constant-initialized and trivially
  // destructible: usable at any time, exit included.
  static std::array<device_slot, max_devices> slots;

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
    device_info info{ordinal, 0, 0, 0, 0, false, false, 0, 0};
    check_cuda(cudaDeviceGetAttribute(&info.sm_count, cudaDevAttrMultiProcessorCount, ordinal),
               "cudaDeviceGetAttribute(cudaDevAttrMultiProcessorCount)");
    check_cuda(cudaDeviceGetAttribute(&info.max_grid_x, cudaDevAttrMaxGridDimX, ordinal),
               "cudaDeviceGetAttribute(cudaDevAttrMaxGridDimX)");
    check_cuda(cudaDeviceGetAttribute(&info.max_threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, ordinal),
               "cudaDeviceGetAttribute(cudaDevAttrMaxThreadsPerMultiProcessor)");
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
    int clock_khz = 0, bus_bits = 0;
    check_cuda(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, ordinal),
               "cudaDeviceGetAttribute(cudaDevAttrMemoryClockRate)");
    check_cuda(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, ordinal),
               "cudaDeviceGetAttribute(cudaDevAttrGlobalMemoryBusWidth)");
    info.memory_gbs = peak_memory_gbs(clock_khz, bus_bits);
    slot.info = info;
  });
  return slot.info;
}

// The architecture (x 10) whose code `kernel` runs as on the current device: the virtual
// architecture its image was compiled from, which is __CUDA_ARCH__ as that code saw it (SASS for 8.0
// on a 9.0 device: 80; PTX for 9.0 compiled by the driver for 10.0: 90). A strategy whose own path
// needs an architecture (finish::cluster: 9.0) asks this once per device, never the device's
// compute capability alone: an sm_80 image running on an H100 has no cluster code.
template <class Kernel>
int kernel_arch(Kernel* kernel) {
  cudaFuncAttributes attributes{};
  check_cuda(cudaFuncGetAttributes(&attributes, kernel), "cudaFuncGetAttributes");
  return attributes.ptxVersion > 0 && attributes.ptxVersion < attributes.binaryVersion ? attributes.ptxVersion
                                                                                      : attributes.binaryVersion;
}

// A value found once per device and kept for the process: find() runs on a device's first call (two
// threads may both run it; they find the same). Each `find` has its own cache: a lambda's type is
// its own, one per template instantiation of the function it is written in.
template <class Find>
unsigned once_per_device(device_info const& device, Find&& find) {
  static std::array<std::atomic<unsigned>, max_devices> cache{};  // the value + 1; 0: not found yet
  unsigned const cached = cache[device.ordinal].load(std::memory_order_relaxed);
  if (cached != 0) return cached - 1;
  unsigned const value = find();
  cache[device.ordinal].store(value + 1, std::memory_order_relaxed);
  return value;
}

}  // namespace cascade::detail
