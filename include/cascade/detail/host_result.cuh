// cascade/detail/host_result.cuh: reduce() to the host: the device writes the result into a
// page-locked block and raises a flag there, and the host spins on the flag.
#pragma once

#include <cuda_runtime_api.h>

#include <cuda/std/cstdint>

#include <atomic>
#include <cstring>
#include <stdexcept>
#include <string>

#include "../error.cuh"
#include "runtime/capture.cuh"
#include "runtime/device.cuh"
#include "dispatch.cuh"
#include "runtime/pinned.cuh"

namespace cascade::detail {

// Where reduce() has the device write its result: a page-locked host block (detail/runtime/pinned.cuh) that
// the device writes through the unified address space, [ready flag | result]. The final store of
// every finish goes through this iterator, which writes the value, fences at system scope and then
// raises the flag, so the host can spin on the flag instead of waiting for the stream to drain. An
// iterator rather than T*: finishes that accumulate into a T* output (finish::atomic) keep their
// atomics in device memory and store only the final value here.
template <class T>
struct host_result {
  T* slot;
  unsigned volatile* ready;
  struct writer {
    host_result const& to;
    __device__ writer const& operator=(T const& value) const {
      *to.slot = value;
      __threadfence_system();  // the value reaches the host before the flag does
      *to.ready = 1u;
      return *this;
    }
  };
  __device__ writer operator*() const { return {*this}; }
};

// Waits until the device has raised `ready`, checking the stream now and then so that a kernel that
// faulted (or a stream that drained without writing) raises cuda_error instead of spinning forever.
// `also` runs at each of those checks, before the stream's (the distributed reduce asks NCCL there
// whether the communicator failed, which leaves the stream waiting forever: it throws).
struct no_check {
  void operator()() const {}
};
template <class Check = no_check>
void wait_for_result(unsigned volatile const* ready, cudaStream_t stream, Check const& also = {}) {
  for (unsigned spin = 1; *ready == 0u; ++spin) {
    if (spin % 512 != 0) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
      continue;
    }
    also();
    cudaError_t state;
    {
      relaxed_capture_mode relaxed;  // another thread's global-mode capture would forbid the query
      state = cudaStreamQuery(stream);
    }
    if (state == cudaErrorNotReady) continue;
    check_cuda(state, "cudaStreamQuery (waiting for the result)");
    if (*ready == 0u)
      throw cuda_error(cudaErrorUnknown, "cascade::reduce: the stream drained without the result being written");
  }
  std::atomic_thread_fence(std::memory_order_acquire);
}

// A page-locked [flag | result] block for one result: host_result's slot and flag, given back when it
// goes unless abandoned (the distributed reduce abandons it when a failed collective may still write it).
template <class R>
class host_slot {
 public:
  host_slot() : block_(pinned_acquire(offset + sizeof(R))) {
    ready()[0] = 0u;
  }
  ~host_slot() {
    if (block_ != nullptr) pinned_release(block_);
  }
  host_slot(host_slot const&) = delete;
  host_slot& operator=(host_slot const&) = delete;

  host_result<R> out() const { return {value_slot(), ready()}; }
  unsigned volatile* ready() const { return static_cast<unsigned volatile*>(block_); }
  R value() const {
    R r;
    std::memcpy(&r, value_slot(), sizeof(R));
    return r;
  }
  void abandon() noexcept { block_ = nullptr; }  // the device may still write it: never reused

 private:
  static constexpr std::size_t offset = alignof(R) > sizeof(unsigned) ? alignof(R) : sizeof(unsigned);
  R* value_slot() const { return reinterpret_cast<R*>(static_cast<unsigned char*>(block_) + offset); }
  void* block_;
};

// Runs dispatch(call, out), `out` an iterator into a page-locked slot for one R, and returns what the
// device wrote there: the host side of every algorithm that returns its result. `who` names the call
// in the message for a stream being captured.
template <class R, class Dispatch>
R run_to_host(cudaStream_t stream, char const* who, Dispatch const& dispatch) {
  launch_context const call(stream, current_device());  // a clear cuda_error when there is no device, first
  if (is_capturing(stream))  // before anything is enqueued: the capture stays valid
    throw std::logic_error(std::string(who) +
                           " returns its result to the host, which a stream being captured into a graph cannot "
                           "do; capture " + who + "_into (the result to device memory) instead");
  host_slot<R> slot;
  try {
    dispatch(call, slot.out());
    wait_for_result(slot.ready(), stream);
  } catch (...) {
    (void)cudaStreamSynchronize(stream);  // enqueued work may still write the block
    throw;
  }
  return slot.value();  // the flag was the kernel's last write to the block
}

// reduce over [first, first + n) (n >= 0 checked by the caller): the form the other algorithms
// (argmin, transform_reduce, ...) call with iterators of their own that only need operator[].
template <class Policy, class It, class T, class Op>
T reduce_n(Policy const& policy, It first, cuda::std::int64_t n, T init, Op op, char const* who = "cascade::reduce") {
  if (n == 0) return init;
  return run_to_host<T>(policy.stream(), who, [&](launch_context const& call, auto out) {
    dispatch_reduce_into(call, policy, first, n, out, init, op);
  });
}

}  // namespace cascade::detail
