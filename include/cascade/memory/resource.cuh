// cascade/memory/resource.cuh: memory resources a call can take its temporary device storage from,
// instead of cascade's own pool.
//
//   cudaMemPool_t mine = ...;                              // a pool the program already has
//   cascade::memory_pool_resource pool{mine};
//   cascade::reduce_into(policy{}.on(s), d, d + n, d_out, 0.0f, cascade::plus{}, pool);
//
// stream_ordered_resource accepts the two shapes CCCL has given stream-ordered resources: CCCL 3.0's
// allocate_async(bytes, alignment, cuda::stream_ref) / deallocate_async(p, bytes, alignment, stream)
// (rmm's device_memory_resource has them too) and CCCL 3.1's allocate(cuda::stream_ref, bytes,
// alignment) / deallocate(stream, p, bytes, alignment); a resource with both is called through the
// newer. A call uses the resource by reference, never a copy, and only while it runs (a temporary
// works): it allocates on the policy's stream with alignment 256 and deallocates there, stream-ordered,
// before it returns, so every allocation has its deallocation. The resource's memory must be device
// memory the policy's device can use.
#pragma once

#include <cuda_runtime_api.h>

#include <cuda/stream_ref>

#include <concepts>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "../detail/runtime/capture.cuh"
#include "../detail/runtime/scratch_source.cuh"
#include "../error.cuh"

namespace cascade {

namespace detail {

template <class R>
concept resource_since_cccl_3_1 = requires(R& r, void* p, std::size_t bytes, std::size_t alignment, cuda::stream_ref s) {
  { r.allocate(s, bytes, alignment) } -> std::same_as<void*>;
  { r.deallocate(s, p, bytes, alignment) } -> std::same_as<void>;
};

template <class R>
concept resource_of_cccl_3_0 = requires(R& r, void* p, std::size_t bytes, std::size_t alignment, cuda::stream_ref s) {
  { r.allocate_async(bytes, alignment, s) } -> std::same_as<void*>;
  { r.deallocate_async(p, bytes, alignment, s) } -> std::same_as<void>;
};

}  // namespace detail

// A stream-ordered memory resource, in either CCCL shape (see above). R may be const-qualified when
// its allocation functions are const.
template <class R>
concept stream_ordered_resource = detail::resource_since_cccl_3_1<R> || detail::resource_of_cccl_3_0<R>;

// The stream-ordered allocator of a cudaMemPool_t the program owns (cudaMallocFromPoolAsync,
// cudaFreeAsync). It holds the handle only: the pool must outlive the calls that use it, and its
// settings (release threshold, access) stay the program's. Both CCCL shapes.
class memory_pool_resource {
 public:
  explicit memory_pool_resource(cudaMemPool_t pool) noexcept : pool_(pool) {}

  // CUDA's allocations start at multiples of 256 bytes. Throws cuda_error, and std::invalid_argument
  // for an alignment that is not a power of two up to 256.
  void* allocate(cuda::stream_ref stream, std::size_t bytes, std::size_t alignment) {
    if (alignment == 0 || alignment > detail::scratch_alignment || (alignment & (alignment - 1)) != 0)
      throw std::invalid_argument("cascade::memory_pool_resource: alignment must be a power of two up to 256");
    detail::relaxed_capture_mode relaxed;  // another thread's global-mode capture would forbid it
    void* p = nullptr;
    detail::check_cuda(cudaMallocFromPoolAsync(&p, bytes, pool_, stream.get()),
                       "cudaMallocFromPoolAsync (cascade::memory_pool_resource)");
    return p;
  }
  void deallocate(cuda::stream_ref stream, void* p, std::size_t, std::size_t) noexcept {
    detail::relaxed_capture_mode relaxed;
    (void)cudaFreeAsync(p, stream.get());
  }

  void* allocate_async(std::size_t bytes, std::size_t alignment, cuda::stream_ref stream) {
    return allocate(stream, bytes, alignment);
  }
  void deallocate_async(void* p, std::size_t bytes, std::size_t alignment, cuda::stream_ref stream) noexcept {
    deallocate(stream, p, bytes, alignment);
  }

  cudaMemPool_t pool() const noexcept { return pool_; }
  friend bool operator==(memory_pool_resource const&, memory_pool_resource const&) = default;

 private:
  cudaMemPool_t pool_;
};

namespace detail {

// `resource` as a scratch_source (detail/runtime/scratch_source.cuh) for the length of one call.
template <stream_ordered_resource R>
scratch_source resource_scratch_source(R& resource) {
  using resource_type = std::remove_cv_t<R>;
  auto const allocate = [](void* context, std::size_t bytes, cudaStream_t stream, char const* user) -> void* {
    R& r = *static_cast<resource_type*>(context);
    void* p = nullptr;
    if constexpr (resource_since_cccl_3_1<R>) p = r.allocate(cuda::stream_ref(stream), bytes, scratch_alignment);
    else p = r.allocate_async(bytes, scratch_alignment, cuda::stream_ref(stream));
    if (p == nullptr)
      throw cuda_error(cudaErrorMemoryAllocation,
                       std::string("cascade: the memory resource returned null for ") + user + "'s scratch");
    return p;
  };
  auto const deallocate = [](void* context, void* p, std::size_t bytes, cudaStream_t stream) noexcept {
    R& r = *static_cast<resource_type*>(context);
    try {
      if constexpr (resource_since_cccl_3_1<R>) r.deallocate(cuda::stream_ref(stream), p, bytes, scratch_alignment);
      else r.deallocate_async(p, bytes, scratch_alignment, cuda::stream_ref(stream));
    } catch (...) {
      // Runs as a scratch buffer goes out of scope, where nothing may throw; the resource keeps the block.
    }
  };
  return {const_cast<resource_type*>(&resource), allocate, deallocate};
}

// call() with every piece of its scratch taken from `resource`: what each entry point's memory-resource
// form does around its plain form.
template <class R, class Call>
void with_resource(R& resource, Call&& call) {
  scratch_source const source = resource_scratch_source(resource);
  scoped_scratch_source const use(source);
  call();
}

}  // namespace detail

}  // namespace cascade
