// cascade's temporary storage: one CUDA memory pool per device, created on first use, that keeps
// the memory it reserves (release threshold: unlimited). A call's scratch is a stream-ordered
// sub-allocation from it, so steady state makes no cudaMalloc/cudaFree, and concurrent calls on
// different streams get disjoint blocks. The pool is cascade's own: the device's default pool, which
// the user's cudaMallocAsync calls use, keeps its settings.
#include <cascade/detail/capture.cuh>
#include <cascade/detail/device.cuh>
#include <cascade/detail/scratch.cuh>
#include <cascade/error.cuh>

#include <array>
#include <cstdint>
#include <mutex>

namespace cascade::detail {

namespace {

constexpr int max_devices = 64;

struct pool_slot {
  std::once_flag once;
  cudaMemPool_t pool = nullptr;
};

std::array<pool_slot, max_devices> pools;

cudaMemPool_t current_pool() {
  int const ordinal = current_device().ordinal;
  pool_slot& slot = pools[ordinal];
  std::call_once(slot.once, [&] {
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = ordinal;
    cudaMemPool_t pool = nullptr;
    relaxed_capture_mode relaxed;  // made once, whether or not some thread is capturing
    check_cuda(cudaMemPoolCreate(&pool, &props), "cudaMemPoolCreate");
    std::uint64_t keep_all = UINT64_MAX;
    check_cuda(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_all),
               "cudaMemPoolSetAttribute(cudaMemPoolAttrReleaseThreshold)");
    slot.pool = pool;  // lives as long as the process; the driver reclaims it at exit
  });
  return slot.pool;
}

}  // namespace

void* scratch_allocate(std::size_t bytes, cudaStream_t stream) {
  void* p = nullptr;
  if (is_capturing(stream)) {
    // Captured into a graph: a graph memory node from the device's default pool, the allocation
    // capture supports; cascade's own pool is made and used outside captures only.
    check_cuda(cudaMallocAsync(&p, bytes == 0 ? 1 : bytes, stream), "cudaMallocAsync (cascade scratch, captured)");
    return p;
  }
  // This stream is not capturing, but another thread may be, in global mode: it would forbid the
  // allocation (cudaErrorStreamCaptureUnsupported), which touches no captured stream.
  relaxed_capture_mode relaxed;
  check_cuda(cudaMallocFromPoolAsync(&p, bytes == 0 ? 1 : bytes, current_pool(), stream),
             "cudaMallocFromPoolAsync (cascade scratch)");
  return p;
}

void scratch_release(void* p, cudaStream_t stream) noexcept {
  if (p == nullptr) return;
  relaxed_capture_mode relaxed;  // as in scratch_allocate
  (void)cudaFreeAsync(p, stream);
}

namespace {
std::size_t pool_attribute(cudaMemPoolAttr attribute, char const* name) {
  std::uint64_t bytes = 0;
  check_cuda(cudaMemPoolGetAttribute(current_pool(), attribute, &bytes), name);
  return static_cast<std::size_t>(bytes);
}
}  // namespace

std::size_t scratch_reserved_bytes() {
  return pool_attribute(cudaMemPoolAttrReservedMemCurrent, "cudaMemPoolGetAttribute(cudaMemPoolAttrReservedMemCurrent)");
}

std::size_t scratch_used_bytes() {
  return pool_attribute(cudaMemPoolAttrUsedMemCurrent, "cudaMemPoolGetAttribute(cudaMemPoolAttrUsedMemCurrent)");
}

void scratch_trim() { check_cuda(cudaMemPoolTrimTo(current_pool(), 0), "cudaMemPoolTrimTo (cascade scratch)"); }

}  // namespace cascade::detail
