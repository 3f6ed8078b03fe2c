// cascade/detail/runtime/scratch.cuh: temporary device storage for one call.
//
// Memory comes from a per-device CUDA memory pool owned by cascade, created on first use, that keeps
// what it has reserved (release threshold: unlimited), so in steady state a call costs a
// stream-ordered pool sub-allocation, never a cudaMalloc/cudaFree. Allocation and release are ordered
// on the call's stream: calls on different streams never share scratch, and the pool reuses a block
// only once its release has been ordered. The pool is cascade's own: the device's default pool, which
// the user's cudaMallocAsync calls use, keeps its settings.
//
// A captured call's scratch is not a graph memory node (cudaMallocAsync under capture): graphs with
// memory nodes launched at the same time on several streams make the driver grow its graph memory
// again and again, and each growth waits for the whole device, other streams' long kernels included
// (seen on an H100: 25 ms stalls in every thread, graph memory 32 -> 160 MiB in 10 s). Instead the
// block is allocated when the call is captured, from a second pool of cascade's, and the graph owns it
// (a user object): every launch of the graph uses the same block, as it uses the same output, and it
// goes back to the pool once the last graph holding it is destroyed.
//
// A call made with the caller's storage (a memory resource, or CUB-style temporary storage) takes its
// scratch from there instead (scratch_source.cuh), and nothing from these pools.
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "../../error.cuh"
#include "capture.cuh"
#include "device.cuh"
#include "scratch_source.cuh"

namespace cascade::detail {

namespace scratch_impl {

struct device_pools {
  std::once_flag once;
  cudaMemPool_t calls = nullptr;   // scratch of calls made now
  cudaMemPool_t graphs = nullptr;  // scratch that captured graphs own
  cudaStream_t side = nullptr;     // allocates and frees graph-owned blocks, outside any capture
  std::mutex mutex;
  std::vector<void*> released;  // graph-owned blocks whose last graph is gone, to free on `side`
};

// Every device's pools, one per program (a static of an inline function), and never destroyed: a
// graph-owned block's deleter (graph_block below) queues into its device's list whenever the last
// graph holding the block goes, which may be as late as the CUDA runtime's own teardown at exit (a
// graph the program never destroyed). A namespace-scope global, made before main, would be destroyed
// after that teardown (as this array was while cascade compiled into a library); a function-local
// static made on first use, after the runtime set up its exit handling, would be destroyed before it.
// The pools and streams it names live as long as the process in any case.
inline std::array<device_pools, max_devices>& all_pools() {
  static auto* const devices = new std::array<device_pools, max_devices>;
  return *devices;
}

inline cudaMemPool_t make_pool(int ordinal) {
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = ordinal;
  cudaMemPool_t pool = nullptr;
  check_cuda(cudaMemPoolCreate(&pool, &props), "cudaMemPoolCreate");
  std::uint64_t keep_all = UINT64_MAX;
  check_cuda(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_all),
             "cudaMemPoolSetAttribute(cudaMemPoolAttrReleaseThreshold)");
  return pool;  // lives as long as the process; the driver reclaims it at exit
}

// The pools of device `ordinal` (-1: the current device).
inline device_pools& current_pools(int ordinal = -1) {
  if (ordinal < 0) ordinal = current_device().ordinal;
  device_pools& d = all_pools()[ordinal];
  std::call_once(d.once, [&] {
    relaxed_capture_mode relaxed;  // made once, whether or not some thread is capturing
    d.calls = make_pool(ordinal);
    d.graphs = make_pool(ordinal);
    check_cuda(cudaStreamCreateWithFlags(&d.side, cudaStreamNonBlocking), "cudaStreamCreateWithFlags (cascade scratch)");
  });
  return d;
}

inline cudaMemPool_t current_pool(int ordinal = -1) { return current_pools(ordinal).calls; }

// Owned by a captured graph. Its deleter runs on a CUDA thread, which may make no CUDA call: it only
// queues the block, and the next graph-owned allocation frees it.
struct graph_block {
  void* p;
  device_pools* owner;
  ~graph_block() {
    std::lock_guard<std::mutex> lock(owner->mutex);
    owner->released.push_back(p);
  }
};

// Frees the released graph blocks of device d on its side stream (the graphs that used them are gone).
inline cudaError_t free_released(device_pools& d) {
  std::vector<void*> released;
  {
    std::lock_guard<std::mutex> lock(d.mutex);
    released.swap(d.released);
  }
  cudaError_t status = cudaSuccess;
  for (void* p : released) {
    cudaError_t const freed = cudaFreeAsync(p, d.side);
    if (status == cudaSuccess) status = freed;
  }
  return status;
}

// At exit, what graphs destroyed since the last captured call released: made on the first captured
// allocation, after the CUDA runtime has set up its own exit handling, so it runs before the runtime
// tears down (as the page-locked cache does).
struct release_at_exit {
  ~release_at_exit() {
    for (device_pools& d : all_pools())
      if (d.side != nullptr && free_released(d) == cudaSuccess) (void)cudaStreamSynchronize(d.side);
  }
};

// `zeroed`: bytes at the start zeroed here, outside the capture (see scratch_allocate).
inline void* graph_allocate(std::size_t bytes, cudaStream_t capturing, int ordinal = -1, std::size_t zeroed = 0) {
  device_pools& d = current_pools(ordinal);
  static release_at_exit at_exit;  // one per program (a static of an inline function)
  relaxed_capture_mode relaxed;  // the capture forbids allocating and waiting outside it otherwise
  (void)free_released(d);
  void* p = nullptr;
  check_cuda(cudaMallocFromPoolAsync(&p, bytes, d.graphs, d.side), "cudaMallocFromPoolAsync (cascade scratch, captured)");
  cudaError_t ready = zeroed > 0 ? cudaMemsetAsync(p, 0, zeroed, d.side) : cudaSuccess;
  if (ready == cudaSuccess) ready = cudaStreamSynchronize(d.side);  // usable by the graph's first launch
  if (ready != cudaSuccess) {
    (void)cudaFreeAsync(p, d.side);
    throw_cuda_error(ready, "cudaMemsetAsync / cudaStreamSynchronize (cascade scratch, captured)");
  }
  std::unique_ptr<graph_block> owner(new graph_block{p, &d});
  graph_owned(owner, capturing);  // on failure the block is queued for release
  return p;
}

inline std::size_t pool_attribute(cudaMemPoolAttr attribute, char const* name) {
  std::uint64_t bytes = 0;
  check_cuda(cudaMemPoolGetAttribute(current_pool(), attribute, &bytes), name);
  return static_cast<std::size_t>(bytes);
}

}  // namespace scratch_impl

inline void scratch_release(void* p, std::size_t bytes, cudaStream_t stream) noexcept;

// From the caller's storage when this thread's call has some (scratch_source.cuh), else from cascade's
// pool of device `ordinal` (-1: the current device; a call passes the one it read); `user` (a
// strategy's name) is for messages. Throws cuda_error (the source may throw too).
//
// `zeroed`: bytes at the start that are zero when the call's work on `stream` runs, for a kernel that
// leaves them zero when it ends (a ticket, flags: what the stream state holds, stream_state.cuh). A
// block a captured graph owns is zeroed once, as it is allocated, outside the capture: the graph's
// launches run one after another and each leaves it zeroed for the next, and the graph has no memset
// node (a node cost about 2 us of a replay on an H200). Other scratch is zeroed by a memset on `stream`.
inline void* scratch_allocate(std::size_t bytes, cudaStream_t stream, char const* user = "cascade scratch",
                              int ordinal = -1, std::size_t zeroed = 0) {
  if (bytes == 0) bytes = 1;
  void* p = nullptr;
  if (scratch_source const* source = current_scratch_source()) {
    p = source->allocate(source->context, bytes, stream, user);
  } else if (is_capturing(stream)) {
    return scratch_impl::graph_allocate(bytes, stream, ordinal, zeroed);
  } else {
    // This stream is not capturing, but another thread may be, in global mode: it would forbid the
    // allocation (cudaErrorStreamCaptureUnsupported), which touches no captured stream.
    relaxed_capture_mode relaxed;
    check_cuda(cudaMallocFromPoolAsync(&p, bytes, scratch_impl::current_pool(ordinal), stream),
               "cudaMallocFromPoolAsync (cascade scratch)");
  }
  if (zeroed > 0) {
    cudaError_t const cleared = cudaMemsetAsync(p, 0, zeroed, stream);
    if (cleared != cudaSuccess) {
      scratch_release(p, bytes, stream);
      throw_cuda_error(cleared, "cudaMemsetAsync (cascade scratch, zeroed)");
    }
  }
  return p;
}

// `bytes` as allocated; the same source as the allocation (the call that took it is still running).
inline void scratch_release(void* p, std::size_t bytes, cudaStream_t stream) noexcept {
  if (p == nullptr) return;
  if (scratch_source const* source = current_scratch_source()) {
    source->deallocate(source->context, p, bytes == 0 ? 1 : bytes, stream);
    return;
  }
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &status) == cudaSuccess && status != cudaStreamCaptureStatusNone)
    return;  // the capturing graph owns it (graph_allocate)
  relaxed_capture_mode relaxed;  // as in scratch_allocate
  (void)cudaFreeAsync(p, stream);
}

// Bytes the current device's pool holds from the driver.
inline std::size_t scratch_reserved_bytes() {
  return scratch_impl::pool_attribute(cudaMemPoolAttrReservedMemCurrent,
                                      "cudaMemPoolGetAttribute(cudaMemPoolAttrReservedMemCurrent)");
}

// Bytes of the current device's pool handed out and not yet released.
inline std::size_t scratch_used_bytes() {
  return scratch_impl::pool_attribute(cudaMemPoolAttrUsedMemCurrent,
                                      "cudaMemPoolGetAttribute(cudaMemPoolAttrUsedMemCurrent)");
}

// Gives the current device's pool memory not in use back to the driver (the tests' leak checks).
inline void scratch_trim() {
  scratch_impl::device_pools& d = scratch_impl::current_pools();
  check_cuda(scratch_impl::free_released(d), "cudaFreeAsync (cascade scratch, captured)");
  check_cuda(cudaStreamSynchronize(d.side), "cudaStreamSynchronize (cascade scratch)");
  check_cuda(cudaMemPoolTrimTo(d.calls, 0), "cudaMemPoolTrimTo (cascade scratch)");
  check_cuda(cudaMemPoolTrimTo(d.graphs, 0), "cudaMemPoolTrimTo (cascade scratch, captured)");
}

// What memory/scratch_pool.cuh reports and sets: both pools of the current device, the calls' and the graphs'.
inline std::size_t scratch_pools_bytes(cudaMemPoolAttr attribute, char const* name) {
  scratch_impl::device_pools& d = scratch_impl::current_pools();
  std::uint64_t calls = 0, graphs = 0;
  check_cuda(cudaMemPoolGetAttribute(d.calls, attribute, &calls), name);
  check_cuda(cudaMemPoolGetAttribute(d.graphs, attribute, &graphs), name);
  return static_cast<std::size_t>(calls + graphs);
}

inline void set_scratch_pools_release_threshold(std::uint64_t bytes) {
  scratch_impl::device_pools& d = scratch_impl::current_pools();
  for (cudaMemPool_t pool : {d.calls, d.graphs})
    check_cuda(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &bytes),
               "cudaMemPoolSetAttribute(cudaMemPoolAttrReleaseThreshold)");
}

inline std::uint64_t scratch_pools_release_threshold() {
  std::uint64_t bytes = 0;
  check_cuda(cudaMemPoolGetAttribute(scratch_impl::current_pool(), cudaMemPoolAttrReleaseThreshold, &bytes),
             "cudaMemPoolGetAttribute(cudaMemPoolAttrReleaseThreshold)");
  return bytes;
}

class scratch_buffer {
 public:
  // `zeroed`: as scratch_allocate's.
  scratch_buffer(std::size_t bytes, cudaStream_t stream, char const* user = "cascade scratch", int ordinal = -1,
                 std::size_t zeroed = 0)
      : ptr_(scratch_allocate(bytes, stream, user, ordinal, zeroed)), bytes_(bytes), stream_(stream) {}
  scratch_buffer() : ptr_(nullptr), bytes_(0), stream_(nullptr) {}  // none (a call being sized)
  ~scratch_buffer() { scratch_release(ptr_, bytes_, stream_); }
  scratch_buffer(scratch_buffer const&) = delete;
  scratch_buffer& operator=(scratch_buffer const&) = delete;

  template <class T>
  T* as() const { return static_cast<T*>(ptr_); }

 private:
  void* ptr_;
  std::size_t bytes_;
  cudaStream_t stream_;
};

}  // namespace cascade::detail
