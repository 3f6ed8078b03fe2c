// cascade/finish/host.cuh: block partials copied to the host and folded there (the PMPP lecture notes: "or on the
// CPU").
//
// Stream-ordered, without blocking the calling thread: kernel (one partial per block, a grid that
// fills the device once) -> copy partials to page-locked host memory -> a host callback
// (cudaLaunchHostFunc) folds them in index order with op and applies init -> copy the result back
// to the device -> a second callback returns the host buffer. Launches: 1 kernel, 2 copies, 2 host
// callbacks, whose latency (tens of microseconds) dominates small inputs; an input that fits one tile
// skips the round trip (one block writes the result). Deterministic. Under stream capture the graph
// owns the host buffer and the task (no release callback), so the graph replays any number of times;
// each executable graph must not run concurrently with another instantiated from the same graph,
// since they share that buffer (CUDA already serializes launches of one executable graph). The op must
// be callable on the host (cascade's ops are; a __device__-only lambda is rejected at compile time).
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>

#include <cuda/std/type_traits>

#include "../detail/runtime/capture.cuh"
#include "../detail/kernel/grid.cuh"
#include "../detail/kernel/kernels.cuh"
#include "../detail/runtime/pinned.cuh"
#include "../detail/runtime/launch_context.cuh"
#include "tag.cuh"

namespace cascade::finish {

struct host : tag {
  static constexpr char const* name = "finish::host";
  static constexpr bool preserves_order = true;
  static constexpr bool folds_on_host = true;  // exact_plus cannot run here (detail/dispatch.cuh)
};

}  // namespace cascade::finish

namespace cascade::detail {

// What the host callbacks need, in one heap object that owns its page-locked block. Outside capture
// the stream's last callback deletes it; under capture the graph owns it (graph_owned), since every
// launch of the graph runs the callbacks again.
template <class T, class Op>
struct host_fold_task {
  void* block = nullptr;  // page-locked: [result | partials]
  T* result = nullptr;
  T const* partials = nullptr;
  unsigned count = 0;
  T init;
  Op op;

  host_fold_task(std::size_t bytes, T init_, Op op_) : block(pinned_acquire(bytes)), init(init_), op(op_) {}
  ~host_fold_task() { pinned_release(block); }  // no CUDA call: also runs as a graph's user-object deleter
  host_fold_task(host_fold_task const&) = delete;
  host_fold_task& operator=(host_fold_task const&) = delete;

  static void CUDART_CB fold(void* self) {
    auto* task = static_cast<host_fold_task*>(self);
    T acc = task->partials[0];
    for (unsigned i = 1; i < task->count; ++i) acc = static_cast<T>(task->op(acc, task->partials[i]));
    *task->result = static_cast<T>(task->op(task->init, acc));
  }
  static void CUDART_CB release(void* self) { delete static_cast<host_fold_task*>(self); }
};

template <>
struct finish_dispatch<finish::host> {
  template <class Policy, class It, class Offset, class OutIt, class T, class Op>
  static void run(launch_context const& call, It first, Offset n, OutIt d_out, T init, Op op) {
#ifdef __CUDACC_EXTENDED_LAMBDA__
    static_assert(!__nv_is_extended_device_lambda_closure_type(Op),
                  "cascade::finish::host folds on the host, and a __device__ lambda cannot run there; use a "
                  "__host__ __device__ lambda or functor, or another finish (e.g. finish::two_pass)");
#endif
    unsigned const grid = partials_grid<Policy, T, It, Offset, Op>(call.device(), n);
    // [partials | result] on the device (the page-locked block is cascade's own in every case)
    scratch_buffer const scratch = call.scratch(sizeof(T) * (std::size_t(grid) + 1), finish::host::name);
    if (!call.launches()) return;
    cudaStream_t const stream = call.stream();
    T* d_partials = scratch.as<T>();
    T* d_result = d_partials + grid;
    bool const captured = is_capturing(stream);
    constexpr std::size_t result_bytes = (sizeof(T) + alignof(T) - 1) / alignof(T) * alignof(T);
    auto task = std::make_unique<host_fold_task<T, Op>>(result_bytes + sizeof(T) * std::size_t(grid), init, op);
    task->result = static_cast<T*>(task->block);
    task->partials = reinterpret_cast<T const*>(static_cast<unsigned char*>(task->block) + result_bytes);
    task->count = grid;
    host_fold_task<T, Op>* const raw = task.get();
    if (captured) graph_owned(task, stream);  // lives as long as the graph; replays reuse it
    try {
      launch_reduce_tiles<Policy, T>(first, n, op, store_partial<T>{d_partials}, grid, stream);
      check_cuda(cudaMemcpyAsync(const_cast<T*>(raw->partials), d_partials, sizeof(T) * std::size_t(grid),
                                 cudaMemcpyDeviceToHost, stream),
                 "cudaMemcpyAsync (finish::host partials to host)");
      check_cuda(cudaLaunchHostFunc(stream, &host_fold_task<T, Op>::fold, raw), "cudaLaunchHostFunc (fold)");
      T* const result_target = [&] {
        if constexpr (cuda::std::is_same_v<OutIt, T*>) return d_out;
        else return d_result;
      }();
      check_cuda(cudaMemcpyAsync(result_target, raw->result, sizeof(T), cudaMemcpyHostToDevice, stream),
                 "cudaMemcpyAsync (finish::host result to device)");
      if constexpr (!cuda::std::is_same_v<OutIt, T*>) launch_copy_value(d_out, static_cast<T const*>(d_result), stream);
      if (!captured) {
        check_cuda(cudaLaunchHostFunc(stream, &host_fold_task<T, Op>::release, raw), "cudaLaunchHostFunc (release)");
        task.release();  // the release callback owns it now
      }
    } catch (...) {
      // Nothing after the failed step was enqueued; work already enqueued may still touch the block
      // until the stream drains, so wait before handing it back (under capture nothing ran, and the
      // graph, which the failed capture leaves to the caller, owns the task).
      if (!captured) (void)cudaStreamSynchronize(stream);
      throw;
    }
  }
};

}  // namespace cascade::detail
