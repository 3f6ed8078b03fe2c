// cascade/distributed/partial.cuh: what a rank contributes to a distributed reduce (its partial), the
// op that folds partials in rank order, and the kernel that folds them.
//
//   value partial  T: the rank's reduction of its shard, from init (rank 0) or the op's identity.
//   maybe<T>       for an op with no identity: a value or none (an empty shard on a rank but 0).
//   ranked<T>      argmin / argmax: the shard's best {index in the shard, value} and the shard's size,
//                  so that the fold turns shard indices into global ones (rank order is data order).
#pragma once

#include <cuda_runtime_api.h>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include "../detail/kernel/kernels.cuh"
#include "../detail/kernel/sinks.cuh"
#include "../ops/identity.cuh"
#include "../ops/indexed.cuh"
#include "../ops/non_commutative.cuh"

namespace cascade::detail {

// ---- maybe<T>: partials of ops without an identity ---------------------------------------------

template <class T>
struct maybe {
  T value;
  bool has;
};

// Folds maybe<T>s with Op, skipping the empty ones: associative as Op is, and as order-keeping.
template <class Op>
struct maybe_op {
  Op op;
#pragma nv_exec_check_disable
  template <class T>
  __host__ __device__ constexpr maybe<T> operator()(maybe<T> const& a, maybe<T> const& b) const {
    if (!a.has) return b;
    if (!b.has) return a;
    return {static_cast<T>(op(a.value, b.value)), true};
  }
};

template <class Op>
struct is_commutative<maybe_op<Op>> : is_commutative<Op> {};

template <class Op>
struct identity_source<maybe_op<Op>> {
  template <class M>
  __host__ __device__ static constexpr M get(maybe_op<Op> const&) {
    return M{};  // has == false
  }
};

// An item, converted to the accumulator type as reduce converts it, as a present value.
template <class T>
struct to_maybe {
  template <class X>
  __host__ __device__ constexpr maybe<T> operator()(X const& x) const {
    return {static_cast<T>(x), true};
  }
};

// ---- ranked<T>: argmin / argmax partials ---------------------------------------------------------

template <class T>
struct ranked {
  indexed<T> best;           // index within the shard (no_index: the shard is empty)
  cuda::std::int64_t count;  // the shard's size
};

// a then b, b's shard following a's: b's index moves past a's items. Associative, not commutative.
template <class ArgOp>
struct ranked_op {
  ArgOp op;
  template <class T>
  __host__ __device__ constexpr ranked<T> operator()(ranked<T> const& a, ranked<T> const& b) const {
    indexed<T> moved = b.best;
    if (moved.index != no_index) moved.index += a.count;
    return {op(a.best, moved), a.count + b.count};
  }
};

// Where a rank's local argmin writes: its slot (a ranked<T>*, or any output iterator of them), with
// the shard's size beside the best pair.
template <class T, class Slot = ranked<T>*>
struct ranked_writer {
  Slot slot;
  cuda::std::int64_t count;
  struct proxy {
    Slot slot;
    cuda::std::int64_t count;
    __device__ proxy const& operator=(indexed<T> const& best) const {
      store_value(slot, ranked<T>{best, count});
      return *this;
    }
  };
  __device__ proxy operator*() const { return {slot, count}; }
};

// The fold's result: the global best, {-1, the op's identity's value} when every shard was empty.
struct ranked_result {
  template <class T>
  __host__ __device__ constexpr indexed<T> operator()(ranked<T> const& r) const {
    return r.best.index == no_index ? indexed<T>{-1, r.best.value} : r.best;
  }
};

// ---- what the fold returns --------------------------------------------------------------------------

struct as_is {
  template <class P>
  __host__ __device__ constexpr P operator()(P const& p) const {
    return p;
  }
};

// Rank 0's partial starts from init, so it is never empty.
struct maybe_value {
  template <class T>
  __host__ __device__ constexpr T operator()(maybe<T> const& m) const {
    return m.value;
  }
};

// ---- the fold ----------------------------------------------------------------------------------------

// slots[0] op slots[1] op ... op slots[count - 1], left to right: the same operations in the same order
// on every rank, so every rank gets the same bits.
template <class P, class Op>
__host__ __device__ P fold_in_order(P const* slots, int count, Op const& op) {
  P acc = slots[0];
  for (int r = 1; r < count; ++r) acc = op(acc, slots[r]);
  return acc;
}

// One thread: the partials are one per rank.
template <class P, class Op, class Result, class OutIt>
__global__ void fold_ranks_kernel(P const* slots, int count, Op op, Result result, OutIt d_out) {
  auto const value = result(fold_in_order(slots, count, op));
  store_value(d_out, value);
}

template <class P, class Op, class Result, class OutIt>
void launch_fold_ranks(P const* slots, int count, Op const& op, Result const& result, OutIt d_out, cudaStream_t stream) {
  launch(&fold_ranks_kernel<P, Op, Result, OutIt>, 1, 1, stream, "fold_ranks_kernel<<<...>>> (launch)", slots, count,
         op, result, d_out);
}

// Several values a rank (distributed/segmented.cuh): slots[r * count + s] is rank r's partial of
// value s; a thread a value folds its ranks in order and stores the result at d_out + s.
template <class P, class Op, class OutIt>
__global__ void fold_ranks_each_kernel(P const* slots, int ranks, long long count, Op op, OutIt d_out) {
  long long const s = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (s >= count) return;
  P acc = slots[s];
  for (int r = 1; r < ranks; ++r) acc = op(acc, slots[r * count + s]);
  store_value(d_out + s, acc);
}

template <class P, class Op, class OutIt>
void launch_fold_ranks_each(P const* slots, int ranks, long long count, Op const& op, OutIt d_out, cudaStream_t stream) {
  constexpr int block = 256;
  launch(&fold_ranks_each_kernel<P, Op, OutIt>, static_cast<unsigned>((count + block - 1) / block), block, stream,
         "fold_ranks_each_kernel<<<...>>> (launch)", slots, ranks, count, op, d_out);
}

}  // namespace cascade::detail
