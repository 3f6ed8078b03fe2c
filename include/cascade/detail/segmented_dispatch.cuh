// cascade/detail/segmented_dispatch.cuh: between segmented_reduce / batched_reduce and the segment
// owners (cascade/segment/). Checks the arguments and the pointers, reads host-side offsets on the
// host (begin > end, or an end beyond the input's allocation, is std::invalid_argument, before any
// launch), copies offsets in pageable memory the GPU cannot read to scratch, and measures what the
// segmented default chooses by (the mean and longest segment). Device-side offsets are not read here.
#pragma once

#include <cuda_runtime_api.h>

#include <cuda/std/type_traits>

#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "../error.cuh"
#include "../policy/policy.cuh"
#include "../segment/tag.cuh"
#include "../tree/tag.cuh"
#include "runtime/allocation.cuh"
#include "runtime/capture.cuh"
#include "runtime/launch_context.cuh"
#include "meta/accumulator.cuh"
#include "meta/known_op.cuh"
#include "runtime/memory_check.cuh"
#include "meta/op_call.cuh"
#include "runtime/scratch.cuh"
#include "kernel/arguments.cuh"
#include "kernel/segments.cuh"

namespace cascade::detail {

// What the host knows of a call's segments: every length when the offsets are host-readable, else
// nothing (-1).
struct segment_stats {
  long long items = -1;    // total items over the segments; -1: unknown
  long long longest = -1;  // -1: unknown
};

// The segmented calls' compile-time checks of input, init and op (kernel/arguments.cuh), and theirs:
// true when all hold, and the caller then instantiates its kernels.
template <class It, class T, class Op>
constexpr bool segmented_arguments_ok() {
  static_assert(is_plain_accumulator_v<Op>,
                "cascade::segmented_reduce / batched_reduce: exact_plus and reproducible_plus are not segmented yet; "
                "reduce each segment with cascade::reduce_into, or use cascade::plus");
  if constexpr (!is_plain_accumulator_v<Op>) return false;
  else return arguments_ok<It, T, Op>();
}

template <class Policy>
constexpr bool segmented_policy_ok() {
  constexpr bool ok = is_segmented_policy_v<Policy> || cuda::std::is_same_v<Policy, default_policy>;
  static_assert(ok,
                "cascade::segmented_reduce / batched_reduce: the policy needs a segment owner where reduce's name a "
                "finish, e.g. cascade::policy<256, 4, cascade::tree::shuffle, cascade::segment::warp<8>>, or "
                "cascade::default_policy");
  return ok;
}

template <class Policy, class Op>
constexpr void check_segmented_tree() {
  using tree = resolve_tree_t<typename Policy::tree_type, Op>;
  static_assert(tree_order_ok<tree, Op>);
}

inline void check_num_segments(long long num_segments, char const* who) {
  if (num_segments < 0)
    throw std::invalid_argument(std::string(who) + ": num_segments is " + std::to_string(num_segments) +
                                "; pass 0 or more");
}

// Offsets the host may read: a pointer into pinned, managed or pageable host memory (after the
// stream's earlier work, which may write them, is done).
enum class offsets_at { device, host_readable, host_only };

template <class It>
offsets_at where_offsets_are(It const& it, launch_context const& call) {
  if constexpr (!std::is_pointer_v<It>) {
    return offsets_at::device;  // a fancy iterator: read on the device only
  } else {
    cudaStream_t const stream = call.stream();
    if (it == nullptr) throw std::invalid_argument("cascade::segmented_reduce: an offsets pointer is null");
    cudaPointerAttributes a{};
    check_cuda(cudaPointerGetAttributes(&a, static_cast<void const*>(it)), "cudaPointerGetAttributes");
    if (a.type == cudaMemoryTypeDevice) return offsets_at::device;
    // Host-side offsets are read on the host when the call is made (their lengths pick the owner, and
    // pageable ones are copied), which a graph's replays would not repeat: refused before anything is
    // enqueued, so the capture stays valid.
    if (is_capturing(stream))
      throw std::logic_error(
          "cascade::segmented_reduce: offsets in host memory are read on the host when the call is made, which a "
          "graph's replays would not repeat; while capturing, pass offsets in device memory (or a fancy iterator)");
    if (a.type == cudaMemoryTypeUnregistered)
      return call.device().pageable_memory_access ? offsets_at::host_readable : offsets_at::host_only;
    check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize (host-side offsets)");
    return offsets_at::host_readable;
  }
}

// Reads host-side offsets: every begin <= end <= input_items (input_items < 0: unknown), else
// std::invalid_argument naming the first segment that is not.
template <class BeginIt, class EndIt>
segment_stats check_host_offsets(BeginIt begins, EndIt ends, long long num_segments, long long input_items) {
  segment_stats st{0, 0};
  for (long long s = 0; s < num_segments; ++s) {
    auto const b = static_cast<long long>(begins[s]);
    auto const e = static_cast<long long>(ends[s]);
    if (b < 0 || b > e)
      throw std::invalid_argument("cascade::segmented_reduce: segment " + std::to_string(s) + " runs from " +
                                  std::to_string(b) + " to " + std::to_string(e) +
                                  "; a segment's begin must be at least 0 and at most its end");
    if (input_items >= 0 && e > input_items)
      throw std::invalid_argument("cascade::segmented_reduce: segment " + std::to_string(s) + " ends at " +
                                  std::to_string(e) + ", beyond the input's " + std::to_string(input_items) +
                                  " items (its allocation's end)");
    st.items += e - b;
    st.longest = e - b > st.longest ? e - b : st.longest;
  }
  return st;
}

// Host-only offsets copied to scratch, so the kernels can read them.
template <class Offset>
struct device_copy {
  scratch_buffer buffer;
  Offset const* ptr = nullptr;
  device_copy(Offset const* host, long long n, launch_context const& call)
      : buffer(call.scratch(sizeof(Offset) * static_cast<std::size_t>(n), "cascade::segmented_reduce (offsets)")) {
    if (call.launches())
      check_cuda(cudaMemcpyAsync(buffer.template as<Offset>(), host, sizeof(Offset) * static_cast<std::size_t>(n),
                                 cudaMemcpyHostToDevice, call.stream()),
                 "cudaMemcpyAsync (host offsets)");
    ptr = buffer.template as<Offset>();
  }
};

// Runs Policy's owner over the segments. An owner of the earlier shape (run(first, ..., op, stream):
// segment/tag.cuh) is called with the stream, for one release.
template <class Policy, class T, class It, class Segments, class OutIt, class Op>
void run_segments(launch_context const& call, It first, Segments segments, long long num_segments, long long longest,
                  OutIt d_out, T init, Op op) {
  check_segmented_tree<Policy, Op>();
  using owner = segment_owner<typename Policy::owner_type>;
  if constexpr (requires { owner::template run<Policy>(call, first, segments, num_segments, longest, d_out, init, op); })
    owner::template run<Policy>(call, first, segments, num_segments, longest, d_out, init, op);
  else if (call.launches())  // (its scratch is its own, not counted)
    owner::template run<Policy>(first, segments, num_segments, longest, d_out, init, op, call.stream());
}

}  // namespace cascade::detail
