// cascade/memory/prepare.cuh: loads, ahead of time, every kernel that reduce or reduce_into may launch for
// ranges of up to a given length, without launching any.
//
//   cascade::prepare(my_policy{}, d, d + n, 0.0f, cascade::plus{});  // at start-up, device idle
//   ...                                                               // later, beside other streams:
//   cascade::reduce_into(my_policy{}.on(a), d, d + m, d_out, 0.0f, cascade::plus{});  // m <= n: no load
//
// Why: CUDA loads a kernel the first time it is used (lazy loading, the default since CUDA 12.2), and
// loading synchronizes the context, so a reduction's first call with a policy waits for every kernel
// already running on other streams (docs/streams.md, "Concurrency"). prepare() takes that wait up front.
//
// How: it captures the call, on a stream of its own, into graphs it never launches, at every size of
// 0..n whose call takes a path the others do not (one tile, several tiles, 64-bit offsets, and for
// default_policy each tuned size range), then loads every kernel those graphs name
// (cudaFuncGetAttributes). The input is not read and nothing is written. prepare itself waits for the
// device as each kernel loads: call it before starting work it should not wait for. It covers the
// calls whose argument types match: prepare() those of reduce(policy, first, last, init, op) and of
// reduce_into to a `T*`, prepare_into() those of reduce_into to the given output iterator's type. It
// also makes the policy's stream's own state (finish::last_block, finish::flagged) and a page-locked
// block for reduce()'s result, which a first call would otherwise make.
// With CUDA_MODULE_LOADING=EAGER every kernel loads at start-up and prepare() finds nothing to do.
#pragma once

#include <cuda_runtime_api.h>

#include <cuda/std/cstdint>

#include <vector>

#include "../detail/runtime/capture.cuh"
#include "../detail/dispatch.cuh"
#include "../detail/runtime/pinned.cuh"
#include "../detail/runtime/scratch.cuh"
#include "../detail/runtime/stream_state.cuh"
#include "../error.cuh"
#include "../policy/policy.cuh"
#include "../reduce.cuh"

namespace cascade {

namespace detail {

// Loads every kernel `graph` launches; where the runtime cannot name one (it always can for kernels
// launched through the runtime API), instantiating the graph loads them instead.
inline void load_graph_kernels(cudaGraph_t graph) {
  std::size_t count = 0;
  check_cuda(cudaGraphGetNodes(graph, nullptr, &count), "cudaGraphGetNodes");
  std::vector<cudaGraphNode_t> nodes(count);
  check_cuda(cudaGraphGetNodes(graph, nodes.data(), &count), "cudaGraphGetNodes");
  bool named_all = true;
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType type{};
    check_cuda(cudaGraphNodeGetType(node, &type), "cudaGraphNodeGetType");
    if (type != cudaGraphNodeTypeKernel) continue;
    cudaKernelNodeParams params{};
    cudaFuncAttributes attributes{};
    if (cudaGraphKernelNodeGetParams(node, &params) != cudaSuccess || params.func == nullptr ||
        cudaFuncGetAttributes(&attributes, params.func) != cudaSuccess) {
      (void)cudaGetLastError();
      named_all = false;
    }
  }
  if (named_all) return;
  cudaGraphExec_t exec = nullptr;
  check_cuda(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate (cascade::prepare)");
  check_cuda(cudaGraphExecDestroy(exec), "cudaGraphExecDestroy (cascade::prepare)");
}

class owned_stream {
 public:
  owned_stream() { check_cuda(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreateWithFlags"); }
  ~owned_stream() { (void)cudaStreamDestroy(stream_); }
  owned_stream(owned_stream const&) = delete;
  owned_stream& operator=(owned_stream const&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

// Captures `call(stream, size)` at each size into a graph that is loaded, never launched.
template <class Call>
void prepare_sizes(std::vector<cuda::std::int64_t> const& sizes, cudaStream_t stream, Call call) {
  for (cuda::std::int64_t const size : sizes) {
    // Relaxed: the capture must not forbid other threads' calls while it lasts.
    check_cuda(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed), "cudaStreamBeginCapture (cascade::prepare)");
    cudaGraph_t graph = nullptr;
    try {
      call(size);
    } catch (...) {
      if (cudaStreamEndCapture(stream, &graph) == cudaSuccess && graph != nullptr) (void)cudaGraphDestroy(graph);
      (void)cudaGetLastError();
      throw;
    }
    check_cuda(cudaStreamEndCapture(stream, &graph), "cudaStreamEndCapture (cascade::prepare)");
    try {
      load_graph_kernels(graph);
    } catch (...) {
      (void)cudaGraphDestroy(graph);
      throw;
    }
    check_cuda(cudaGraphDestroy(graph), "cudaGraphDestroy (cascade::prepare)");
  }
}

// The one-time set-up a first call on the policy's stream would do: the stream's own state (single-
// pass finishes) and a page-locked block for reduce()'s result.
inline void prepare_stream(cudaStream_t stream) {
  if (is_capturing(stream)) return;
  (void)stream_state_of(stream);
  pinned_release(pinned_acquire(64));
}

template <class Policy, class It, class OutIt, class T, class Op>
void prepare_into_n(Policy const& policy, It first, cuda::std::int64_t n, OutIt d_out, T init, Op op) {
  current_device();  // a clear cuda_error when there is no device
  prepare_stream(policy.stream());
  owned_stream const stream;
  prepare_sizes(path_sizes<It, T, Op>(policy, n), stream.get(), [&](cuda::std::int64_t size) {
    dispatch_reduce_into(policy.on(stream.get()), first, size, d_out, init, op);
  });
}

template <class Policy, class It, class T, class Op>
void prepare_n(Policy const& policy, It first, cuda::std::int64_t n, T init, Op op) {
  current_device();
  owned_stream const stream;
  scratch_buffer out(sizeof(T), stream.get());  // a device address for reduce_into's T* (never written)
  prepare_into_n(policy, first, n, out.as<T>(), init, op);
  prepare_into_n(policy, first, n, host_result<T>{nullptr, nullptr}, init, op);  // reduce()'s output type
}

}  // namespace detail

// Loads the kernels of reduce(policy, first, last', init, op) and of reduce_into to a T* for every
// last' in [first, last]. Errors as reduce: std::invalid_argument, cascade::cuda_error.
template <class Policy, class It, class T, class Op>
  requires is_policy_v<Policy>
void prepare(Policy const& policy, It first, It last, T init, Op op) {
  detail::prepare_n(policy, first, detail::checked_size(first, last, "cascade::prepare"), init, op);
}

// As prepare(policy, first, last, init, plus{}), or with an op that has an identity, as reduce takes it.
template <class Policy, class It, class X>
  requires is_policy_v<Policy>
void prepare(Policy const& policy, It first, It last, X init_or_op) {
  if constexpr (detail::is_identity_op_v<X, It>) {
    using V = detail::input_value_t<It>;
    prepare(policy, first, last, detail::identity_of<V>(init_or_op), init_or_op);
  } else {
    prepare(policy, first, last, init_or_op, plus{});
  }
}

// Loads the kernels of reduce_into(policy, first, last', d_out, init, op) for every last' in
// [first, last], for d_out's type. *d_out is not written.
template <class Policy, class It, class OutIt, class T, class Op>
  requires is_policy_v<Policy>
void prepare_into(Policy const& policy, It first, It last, OutIt d_out, T init, Op op) {
  detail::prepare_into_n(policy, first, detail::checked_size(first, last, "cascade::prepare_into"), d_out, init, op);
}

}  // namespace cascade
