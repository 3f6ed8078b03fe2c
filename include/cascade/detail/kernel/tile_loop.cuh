// cascade/detail/kernel/tile_loop.cuh: the tile loop. Each thread folds its items, CoarseFactor per load
// batch, before the block's tree combines the threads' values. Items are converted to the
// accumulator type T as they are read.
//
// Two layouts of a grid's work (BlockSize B, CoarseFactor C; a tile is B*C consecutive items):
//  - striped, for commutative ops (the fast path): thread t of a tile takes items t, t + B, ...,
//    t + (C-1)*B (with vector loads: vectors t, t + B, ...), so every load is coalesced across the
//    block (PMPP Fig 10.15, the slides' kernel 7); block b owns tiles b, b + grid, ...
//  - blocked, for non-commutative ops: block b owns one contiguous run of tiles and thread t one
//    contiguous run of items inside it, read C at a time, so a thread's fold, then the tree in thread
//    order, then the finish in block order is exactly the left-to-right fold.
// Either way the threads holding items are a prefix [0, num_valid) of the block.
#pragma once

#include <cuda/std/concepts>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include "../../ops/idempotent.cuh"
#include "../../ops/non_commutative.cuh"
#include "../meta/known_op.cuh"
#include "../meta/math.cuh"
#include "vector_load.cuh"

namespace cascade::detail {

// What reading an item gives, as a value: X itself, or for a proxy reference (thrust::device_ptr's
// and device_vector's iterators read as thrust::device_reference<T>) the value it refers to.
template <class X>
struct item_value {
  using type = cuda::std::remove_cvref_t<X>;
};
template <class X>
  requires requires { typename cuda::std::remove_cvref_t<X>::value_type; } &&
           (!cuda::std::is_same_v<cuda::std::remove_cvref_t<X>, typename cuda::std::remove_cvref_t<X>::value_type>) &&
           cuda::std::is_convertible_v<X, typename cuda::std::remove_cvref_t<X>::value_type> &&
           cuda::std::is_arithmetic_v<cuda::std::remove_cv_t<typename cuda::std::remove_cvref_t<X>::value_type>>
struct item_value<X> {
  using type = cuda::std::remove_cv_t<typename cuda::std::remove_cvref_t<X>::value_type>;
};
template <class X>
using item_value_t = typename item_value<X>::type;

// An op may take items as they are read instead of converting each to the accumulator first:
// op.deposit(acc, x). exact_plus's state (exact/exact_sum.cuh) takes a float in a few additions, where
// converting it to a state and merging would take dozens.
template <class Op, class T, class X>
concept deposits = requires(Op const& op, T& acc, X const& x) { op.deposit(acc, x); };

// What a thread holds an item as between reading and folding it: as read for a depositing op, else T.
template <class T, class Op, class X>
using item_t = cuda::std::conditional_t<deposits<Op, T, item_value_t<X>>, item_value_t<X>, T>;

// acc = acc op items[0] op ... op items[N-1], or items[0] op ... when `fresh` (no value yet).
template <class T, class I, int N, class Op>
__device__ void fold_in_order(T& acc, bool fresh, I const (&items)[N], Op op) {
  if constexpr (deposits<Op, T, I>) {
    if (fresh) acc = T{};
    if constexpr (requires { op.deposit_all(acc, items); }) {
      op.deposit_all(acc, items);  // a batch at a time: one test of the batch, then no branch per item
    } else {
#pragma unroll
      for (int k = 0; k < N; ++k) op.deposit(acc, items[k]);
    }
  } else {
    int k0 = 0;
    if (fresh) {
      acc = items[0];
      k0 = 1;
    }
#pragma unroll
    for (int k = 0; k < N; ++k)
      if (k >= k0) acc = static_cast<T>(op(acc, items[k]));
  }
}

template <class T, class Op, class X>
__device__ void fold_one(T& acc, bool fresh, X const& x, Op op) {
  if constexpr (!cuda::std::is_same_v<item_value_t<X>, X> && deposits<Op, T, item_value_t<X>>) {
    fold_one(acc, fresh, static_cast<item_value_t<X>>(x), op);  // a proxy reference, read once
  } else if constexpr (deposits<Op, T, X>) {
    if (fresh) acc = T{};
    op.deposit(acc, x);
  } else {
    acc = fresh ? static_cast<T>(x) : static_cast<T>(op(acc, static_cast<T>(x)));
  }
}

// Items a scalar batch reads before it folds them: all CoarseFactor when T is small, fewer when each
// takes several registers (argmin's 16-byte {index, value}), so that a batch holds at most about 32
// registers. A kernel's register count is that of its largest path, these rare ones included (input
// not 16-byte aligned, iterators without vector loads), and it bounds the blocks resident on the
// fast path: 32 of argmin's items took int8 argmin's kernel to 89 registers and 69% of the read
// ceiling.
// The largest power of two of items at most CoarseFactor and at most MaxBytes of T.
template <class T, int CoarseFactor, int MaxBytes>
inline constexpr int batch_within = [] {
  int b = 1;
  while (b * 2 <= CoarseFactor && b * 2 * static_cast<int>(sizeof(T)) <= MaxBytes) b *= 2;
  return b;
}();
template <class T, int CoarseFactor>
inline constexpr int scalar_batch = batch_within<T, CoarseFactor, 128>;

// acc op first[at(0)] op ... op first[at(CoarseFactor - 1)], scalar_batch loads at a time.
template <int CoarseFactor, class T, class It, class At, class Op>
__device__ void fold_batched(T& acc, bool fresh, It const& first, At at, Op op) {
  using I = item_t<T, Op, decltype(first[at(0)])>;
  constexpr int batch = scalar_batch<I, CoarseFactor>;
#pragma unroll
  for (int k0 = 0; k0 < CoarseFactor; k0 += batch) {
    I items[batch];
#pragma unroll
    for (int j = 0; j < batch; ++j)
      if (k0 + j < CoarseFactor) items[j] = static_cast<I>(first[at(k0 + j)]);
#pragma unroll
    for (int j = 0; j < batch; ++j)
      if (k0 + j < CoarseFactor) fold_one(acc, fresh && k0 + j == 0, items[j], op);
  }
}

// Loads the Count vectors of a thread's batch, all before the first use (so that all are in flight),
// vector k at item i + k * step.
template <int Count, class It, class Offset>
__device__ void load_batch(typename vector_input<It>::raw_type (&raws)[Count], It const& first, Offset i,
                           Offset step) {
#pragma unroll
  for (int k = 0; k < Count; ++k) raws[k] = vector_input<It>::load(first, i + Offset(k) * step);
}

// acc op v[0] op ... op v[width-1], v[j] being item i + j. An input view may fold a vector its own
// way (vector_input<It>::fold: argmin's first-smallest scan), with the same result.
template <class T, class It, class Offset, class Op>
__device__ void fold_vector(T& acc, bool fresh, It const& first, typename vector_input<It>::raw_type const& v,
                            Offset i, Op op) {
  if constexpr (requires { vector_input<It>::fold(acc, fresh, v, i, op); }) {
    vector_input<It>::fold(acc, fresh, v, i, op);
  } else {
    constexpr int width = vector_input<It>::width;
    using I = item_t<T, Op, decltype(vector_input<It>::item(first, v, 0, i))>;
    I items[width];
#pragma unroll
    for (int j = 0; j < width; ++j) items[j] = static_cast<I>(vector_input<It>::item(first, v, j, i + Offset(j)));
    fold_in_order(acc, fresh, items, op);
  }
}

// Items a batch of an op's deposit_all holds, of the Total a thread's tile reads: up to 16 (32 took
// <512, 32>'s reproducible_plus from 15 to 25 us at 2^22 floats on an H200, registers), fewer where
// the op caps a batch's bytes (max_batch_bytes: exact::op, whose per-item spill test holds registers
// for a call).
template <class Op, class I, int Total>
inline constexpr int batch_items = [] {
  int per = 16;
  if constexpr (requires { Op::max_batch_bytes; }) per = Op::max_batch_bytes / static_cast<int>(sizeof(I));
  per = per < 1 ? 1 : per > Total ? Total : per;
  while (Total % per != 0) --per;
  return per;
}();

// Folds the Count vectors of a thread's batch, vector k at item i + k * step. An op that takes a
// batch of items (deposit_all: exact_plus, reproducible_plus) gets the Count * width items in as few
// batches as it allows: its per-batch work (the window's constants, the batch test, adding the
// batch's sums to the state) is then paid once a tile, not once a vector (4 floats, 2 doubles).
template <int Count, class T, class It, class Offset, class Op>
__device__ void fold_vectors(T& acc, bool fresh, It const& first,
                             typename vector_input<It>::raw_type const (&raws)[Count], Offset i, Offset step, Op op) {
  constexpr int width = vector_input<It>::width;
  using I = item_t<T, Op, decltype(vector_input<It>::item(first, raws[0], 0, i))>;
  constexpr int per = batch_items<Op, I, Count * width>;
  I batch[per];
  if constexpr (!requires { vector_input<It>::fold(acc, fresh, raws[0], i, op); } &&
                requires { op.deposit_all(acc, batch); }) {
#pragma unroll
    for (int b0 = 0; b0 < Count * width; b0 += per) {
#pragma unroll
      for (int j = 0; j < per; ++j) {
        int const k = (b0 + j) / width, w = (b0 + j) % width;
        batch[j] = static_cast<I>(vector_input<It>::item(first, raws[k], w, i + Offset(k) * step + Offset(w)));
      }
      fold_in_order(acc, fresh && b0 == 0, batch, op);
    }
  } else {
#pragma unroll
    for (int k = 0; k < Count; ++k) fold_vector(acc, fresh && k == 0, first, raws[k], i + Offset(k) * step, op);
  }
}

// An input that may end its threads' loops early (any_of's: detail/kernel/input_iterators.cuh):
// raised() is nonzero once another thread has settled the answer, settled(acc) says this thread's
// fold has, announce() tells the others. A thread that stops holds the fold of the tiles it read, T{}
// if none (0: the input's accumulator must have T{} as its op's identity). Striped layout only.
template <class It, class T>
concept stops_early = requires(It const& in, T const& acc) {
  { in.raised() } -> cuda::std::same_as<unsigned>;
  { in.settled(acc) } -> cuda::std::same_as<bool>;
  in.announce();
};

// ---- striped ---------------------------------------------------------------------------------

// The rare paths of the striped loop (a tile that is not full, input that is not 16-byte aligned)
// are out of line (__noinline__), so that the common one, full aligned tiles, is straight-line code:
// in a one-tile kernel each jump to code not yet fetched shows in the time (about 0.15 us of 3.4 at
// 4096 items on an H200). They take and return the accumulator by value, keeping it in registers.
template <int BlockSize, int CoarseFactor, class T, class It, class Offset, class Op>
__device__ __noinline__ T fold_full_tile_scalar(T acc, bool fresh, It first, Offset base, Op op) {
  Offset const mine = base + Offset(threadIdx.x);
  fold_batched<CoarseFactor>(acc, fresh, first, [mine](int k) { return mine + Offset(k) * BlockSize; }, op);
  return acc;
}

// loaded() runs once the tile's loads are issued (on the vector path) or before the fold: what it
// reads is then in flight beside them (any_of's flag, below).
struct nothing_between {
  __device__ void operator()() const {}
};

template <int BlockSize, int CoarseFactor, class T, class It, class Offset, class Op, class Loaded = nothing_between>
__device__ void fold_full_tile(T& acc, bool fresh, It first, Offset base, Op op, bool aligned, Loaded loaded = {}) {
  if constexpr (vectorizable<It, CoarseFactor>) {
    if (aligned) {
      // Every load of the tile first, so that all are in flight before the first use.
      constexpr int width = vector_input<It>::width, count = CoarseFactor / width;
      typename vector_input<It>::raw_type raws[count];
      Offset const mine = base + Offset(threadIdx.x) * width;  // then constant steps: no address math per load
      load_batch<count>(raws, first, mine, Offset(BlockSize) * width);
      loaded();
      fold_vectors(acc, fresh, first, raws, mine, Offset(BlockSize) * width, op);
      return;
    }
    loaded();
    acc = fold_full_tile_scalar<BlockSize, CoarseFactor>(acc, fresh, first, base, op);
  } else {
    loaded();
    Offset const mine = base + Offset(threadIdx.x);
    fold_batched<CoarseFactor>(acc, fresh, first, [mine](int k) { return mine + Offset(k) * BlockSize; }, op);
  }
}

// Whether a partial tile may go to the op as full batches, the missing items zero: a depositing op
// whose sum a zero item leaves as it is (exact_plus, reproducible_plus). A one-tile call is a partial
// tile (2^10 floats with <256, 8>), and item by item its deposits were half a kernel's instructions.
template <class Op, class T, class It>
concept pads_partial_tiles = requires { requires Op::zero_items_add_nothing; } &&
                             deposits<Op, T, item_t<T, Op, decltype(cuda::std::declval<It const&>()[0])>>;

template <int BlockSize, int CoarseFactor, class T, class It, class Offset, class Op>
__device__ __noinline__ T fold_partial_tile(T acc, bool fresh, It first, Offset base, Offset n, Op op) {
  if constexpr (pads_partial_tiles<Op, T, It>) {
    using I = item_t<T, Op, decltype(first[base])>;
    constexpr int per = batch_items<Op, I, CoarseFactor>;
#pragma unroll
    for (int k0 = 0; k0 < CoarseFactor; k0 += per) {
      I batch[per];
#pragma unroll
      for (int j = 0; j < per; ++j) {
        Offset const i = base + threadIdx.x + Offset(k0 + j) * BlockSize;
        batch[j] = i < n ? static_cast<I>(first[i]) : I{};
      }
      fold_in_order(acc, fresh && k0 == 0, batch, op);
    }
  } else if constexpr (is_idempotent_v<Op>) {
    // Every item of a batch at once, as in a full tile: a thread's items past the end read its last
    // one again, which an idempotent op folds without change (item by item, <256, 8> over 1024 floats
    // waited for four L2 round trips in a row, the compiler keeping a branch around each load and its
    // fold). Batches of at most 64 bytes, and none past the thread's last item, to keep registers.
    using I = item_t<T, Op, decltype(first[base])>;
    constexpr int batch = batch_within<I, CoarseFactor, 64>;
    Offset const mine = base + Offset(threadIdx.x);  // < n: the thread holds an item
    Offset const last = mine + (n - 1 - mine) / BlockSize * BlockSize;
#pragma unroll
    for (int k0 = 0; k0 < CoarseFactor; k0 += batch) {
      if (mine + Offset(k0) * BlockSize > last) break;
      I items[batch];
#pragma unroll
      for (int j = 0; j < batch; ++j) {
        Offset const i = mine + Offset(k0 + j) * BlockSize;
        if (k0 + j < CoarseFactor) items[j] = static_cast<I>(first[i < last ? i : last]);
      }
#pragma unroll
      for (int j = 0; j < batch; ++j)
        if (k0 + j < CoarseFactor) fold_one(acc, fresh && k0 + j == 0, items[j], op);
    }
  } else {
#pragma unroll(scalar_batch<T, CoarseFactor>)  // fully unrolled, all CoarseFactor predicated loads would be in flight
    for (int k = 0; k < CoarseFactor; ++k) {
      Offset const i = base + threadIdx.x + Offset(k) * BlockSize;
      if (i < n) {
        fold_one(acc, fresh, first[i], op);  // the caller guarantees k == 0 exists
        fresh = false;
      }
    }
  }
  return acc;
}

template <int BlockSize, int CoarseFactor, class T, class It, class Offset, class Op>
__device__ T fold_striped(It first, Offset n, Op op, int& num_valid, unsigned block, unsigned grid) {
  constexpr Offset tile = Offset(BlockSize) * CoarseFactor;
  T acc{};
  if constexpr (vectorizable<It, CoarseFactor>) {
    // Exactly one full aligned tile (a one-tile kernel at n = tile; the grid never exceeds the tile
    // count, so this is block 0 of 1): the loads first, nothing else before them.
    if (n == tile && is_vector_aligned(first)) {
      num_valid = BlockSize;
      fold_full_tile<BlockSize, CoarseFactor>(acc, true, first, Offset(0), op, true);
      return acc;
    }
  }
  Offset base = Offset(block) * tile;
  Offset const stride = Offset(grid) * tile;
  Offset const remaining = n - base;  // >= 1: the grid never exceeds the tile count
  num_valid = remaining < Offset(BlockSize) ? static_cast<int>(remaining) : BlockSize;

  if (static_cast<int>(threadIdx.x) >= num_valid) return acc;
  bool const aligned = is_vector_aligned(first);
  bool fresh = true;
  if constexpr (stops_early<It, T>) {
    // The flag is read after the tile's loads are issued and tested after its fold, so that its
    // latency hides behind theirs (read before them, and tested there, it cost 11% of the read).
    // Tested with every one of a thread's first 8 tiles, then with every (k / 8)th after its k-th:
    // a hit early in the input stops the grid within a round of tiles, one far in within an eighth
    // of what was read before it, and a call with no hit tests the flag at a few dozen of its tiles
    // (each test cost about 5% of a tile's read: docs/notes/family.md).
    unsigned raised = first.raised();
    unsigned round = 0, next_test = 0;
    for (; base < n && raised == 0; base += stride) {
      bool const test = round == next_test;
      auto const read_flag = [&] {
        if (test) raised = first.raised();
      };
      if (n - base >= tile) {
        fold_full_tile<BlockSize, CoarseFactor>(acc, fresh, first, base, op, aligned, read_flag);
      } else {
        read_flag();
        acc = fold_partial_tile<BlockSize, CoarseFactor>(acc, fresh, first, base, n, op);
      }
      if (test) next_test = round + 1 + round / 8;
      ++round;
      fresh = false;
      if (first.settled(acc)) {
        first.announce();
        break;
      }
    }
  } else {
    for (; base < n; base += stride) {
      if (n - base >= tile) fold_full_tile<BlockSize, CoarseFactor>(acc, fresh, first, base, op, aligned);
      else acc = fold_partial_tile<BlockSize, CoarseFactor>(acc, fresh, first, base, n, op);
      fresh = false;
    }
  }
  return acc;
}

// ---- blocked ---------------------------------------------------------------------------------

// Folds [i, i + CoarseFactor) of contiguous input, in order.
template <int CoarseFactor, class T, class It, class Offset, class Op>
__device__ void fold_run(T& acc, bool fresh, It first, Offset i, Op op, bool aligned) {
  if constexpr (vectorizable<It, CoarseFactor>) {
    if (aligned) {
      constexpr int width = vector_input<It>::width, count = CoarseFactor / width;
      typename vector_input<It>::raw_type raws[count];
      load_batch<count>(raws, first, i, Offset(width));
      fold_vectors(acc, fresh, first, raws, i, Offset(width), op);
      return;
    }
  }
  fold_batched<CoarseFactor>(acc, fresh, first, [i](int k) { return i + Offset(k); }, op);
}

template <int BlockSize, int CoarseFactor, class T, class It, class Offset, class Op>
__device__ T fold_blocked(It first, Offset n, Op op, int& num_valid, unsigned block, unsigned grid) {
  constexpr Offset tile = Offset(BlockSize) * CoarseFactor;
  // Tiles split as evenly as possible, every block at least one (the grid never exceeds the tiles).
  Offset const tiles = ceil_div(n, tile);
  Offset const per_block = tiles / grid, extra = tiles % grid;
  Offset const b = block;
  Offset const first_tile = b * per_block + (b < extra ? b : extra);
  Offset const block_tiles = per_block + (b < extra ? 1 : 0);
  Offset const lo = first_tile * tile;
  Offset const hi = n - lo < block_tiles * tile ? n : lo + block_tiles * tile;
  Offset const run = block_tiles * CoarseFactor;  // items per thread, whole batches of CoarseFactor
  Offset const threads = ceil_div(hi - lo, run);
  num_valid = threads < Offset(BlockSize) ? static_cast<int>(threads) : BlockSize;

  T acc{};
  if (static_cast<int>(threadIdx.x) >= num_valid) return acc;
  Offset i = lo + Offset(threadIdx.x) * run;
  Offset const end = hi - i < run ? hi : i + run;
  bool const aligned = is_vector_aligned(first);  // runs start at multiples of CoarseFactor
  bool fresh = true;
  for (; end - i >= Offset(CoarseFactor); i += CoarseFactor) {
    fold_run<CoarseFactor>(acc, fresh, first, i, op, aligned);
    fresh = false;
  }
  for (; i < end; ++i) {
    fold_one(acc, fresh, first[i], op);
    fresh = false;
  }
  return acc;
}

// ---- the entry point -------------------------------------------------------------------------

// What a thread holds after its block's tile loop: the fold of its items, and how many threads of
// the block hold one (always a prefix [0, num_valid)); threads outside it hold an unspecified value.
// Every thread of the block runs the tile loop (an op's align_block may synchronize the block).
template <class T>
struct thread_partial {
  T value;
  int num_valid;
};

// What a thread folds its items in: T, or int (unsigned int) for a minimum or maximum of 1- and
// 2-byte signed (unsigned) integers, narrowed once after the loop. Widening keeps the order, so the
// value is the same; in T itself every step sign-extends its result again (int8 minimum in int8:
// 205 byte permutes in <512, 32>'s flagged kernel against 23 in int32, and 40 registers against 36).
template <class T, class Op>
inline constexpr bool widens_in_thread =
    cuda::std::is_integral_v<T> && !cuda::std::is_same_v<T, bool> && sizeof(T) < sizeof(int) &&
    (cuda::std::is_same_v<Op, minimum> || cuda::std::is_same_v<Op, maximum> ||
     cuda::std::is_same_v<Op, minimum_number> || cuda::std::is_same_v<Op, maximum_number>);
template <class T, class Op>
using thread_value_t =
    cuda::std::conditional_t<widens_in_thread<T, Op>, cuda::std::conditional_t<cuda::std::is_signed_v<T>, int, unsigned>,
                             T>;

// The tile loop over [first, first + n) (CUB's AgentReduce, moderngpu's get_tile): built once per
// kernel, run by every thread of block `block` of `grid` (blockIdx.x of gridDim.x, or 0 of 1 for a
// block that folds a whole range alone, as the last block of a single-pass finish does).
template <int BlockSize, int CoarseFactor, class T, class It, class Offset, class Op>
struct tile_loop {
  It first;
  Offset n;
  Op op;

  __device__ thread_partial<T> run(unsigned block, unsigned grid) const {
    thread_partial<T> out;
    using held = thread_value_t<T, Op>;
    if constexpr (is_commutative_v<Op>)
      out.value = static_cast<T>(fold_striped<BlockSize, CoarseFactor, held>(first, n, op, out.num_valid, block, grid));
    else
      out.value = static_cast<T>(fold_blocked<BlockSize, CoarseFactor, held>(first, n, op, out.num_valid, block, grid));
    // An op whose merges may have side effects lines its values up for the tree (exact_plus's spill).
    if constexpr (requires(T& v) { op.align_block(v, true); })
      op.align_block(out.value, static_cast<int>(threadIdx.x) < out.num_valid);
    return out;
  }
};

}  // namespace cascade::detail
