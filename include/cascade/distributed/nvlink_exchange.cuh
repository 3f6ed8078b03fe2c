// cascade/distributed/nvlink_exchange.cuh: collective::nvlink's exchange, inside the local reduce's
// kernel. The rank's partial is written through nvlink_sink, an output iterator: every finish stores
// its result once, from one thread, with `*out = value` (detail/kernel/sinks.cuh), so the exchange
// rides in whichever finish the policy names, after the rank's own reduction is complete.
//
// That thread stores the partial into slot `rank` of every rank's window, 4 bytes of it in each
// 8-byte word beside the call's sequence number (st.relaxed.sys: the word lands whole, so a reader
// that sees the number sees the data: no fence, no barrier), then polls its own window until every
// slot carries the number, folds the partials in rank order and stores the result. Two buffers by
// the number's parity suffice: a rank writes call k + 2 only after reading every rank's call k + 1,
// which each rank sends only after it has read call k. A deadline (%globaltimer) and the window's
// stop word end the wait: the thread records why in the status word and stores nothing more.
#pragma once

#include <cuda/std/type_traits>

#include "../detail/kernel/sinks.cuh"
#include "nvlink_window.cuh"

namespace cascade::detail {

__device__ __forceinline__ void nvlink_store(unsigned long long* at, unsigned data, unsigned seq) {
#if __CUDA_ARCH__ >= 700
  asm volatile("st.relaxed.sys.v2.u32 [%0], {%1, %2};" ::"l"(at), "r"(data), "r"(seq) : "memory");
#else
  asm volatile("st.volatile.v2.u32 [%0], {%1, %2};" ::"l"(at), "r"(data), "r"(seq) : "memory");
#endif
}

__device__ __forceinline__ uint2 nvlink_load(unsigned long long const* at) {
  uint2 v;
#if __CUDA_ARCH__ >= 700
  asm volatile("ld.relaxed.sys.v2.u32 {%0, %1}, [%2];" : "=r"(v.x), "=r"(v.y) : "l"(at) : "memory");
#else
  asm volatile("ld.volatile.v2.u32 {%0, %1}, [%2];" : "=r"(v.x), "=r"(v.y) : "l"(at) : "memory");
#endif
  return v;
}

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// The words of one partial of P.
template <class P>
inline constexpr unsigned nvlink_words = (sizeof(P) + 3) / 4;

// Writes op-folded partials of every rank, in rank order, through result into out (if store).
template <class P, class Fold, class Result, class OutIt>
struct nvlink_sink {
  static_assert(cuda::std::is_trivially_copyable_v<P>, "cascade: collective::nvlink moves partials as bytes");
  static constexpr unsigned words = nvlink_words<P>;

  nvlink_link link;
  Fold fold;
  Result result;
  OutIt out;
  bool store;

  struct proxy {
    nvlink_sink const& to;
    __device__ proxy const& operator=(P const& mine) const {
      to.exchange(mine);
      return *this;
    }
  };
  __device__ proxy operator*() const { return {*this}; }

  __device__ void exchange(P const& mine) const {
    unsigned const stopped = *link.stop;  // (loaded beside the counter: no added latency)
    unsigned seq = *link.seq + 1;
    if (stopped != 0u) {  // aborted: the peers' windows may be gone; store nothing
      *link.status = nvlink_aborted;
      __threadfence_system();
      return;
    }
    if (seq == 0) seq = 2;  // 0 is what the zeroed window holds; 2 keeps the parity alternating
    *link.seq = seq;
    unsigned bits[words] = {};
    memcpy(bits, &mine, sizeof(P));
    unsigned long long const buffer = (seq & 1u) * static_cast<unsigned long long>(link.half_words);
    for (int k = 0; k < link.nranks; ++k) {
      int const peer = (link.rank + k) % link.nranks;  // the others first, in a different order on each rank
      unsigned long long* const slot = link.peers[peer] + buffer + static_cast<unsigned long long>(link.rank) * words;
      for (unsigned w = 0; w < words; ++w) nvlink_store(slot + w, bits[w], seq);
    }
    unsigned long long const start = global_ns();
    P acc;
    for (int r = 0; r < link.nranks; ++r) {
      unsigned long long const* const slot = link.own + buffer + static_cast<unsigned long long>(r) * words;
      constexpr unsigned batch = words < 8 ? words : 8;  // loads in flight together
      for (unsigned w0 = 0; w0 < words; w0 += batch) {
        for (unsigned spins = 1;; ++spins) {
          bool ready = true;
#pragma unroll
          for (unsigned j = 0; j < batch; ++j) {
            if (w0 + j < words) {
              uint2 const v = nvlink_load(slot + w0 + j);
              bits[w0 + j] = v.x;
              ready = ready && v.y == seq;
            }
          }
          if (ready) break;
          if (spins % 256 == 0) {
            unsigned const why = *link.stop != 0u ? nvlink_aborted
                                 : global_ns() - start > link.timeout_ns ? nvlink_timed_out
                                                                          : nvlink_ok;
            if (why != nvlink_ok) {
              *link.status = why;
              __threadfence_system();
              return;
            }
          }
        }
      }
      P p;
      memcpy(&p, bits, sizeof(P));
      acc = r == 0 ? p : static_cast<P>(fold(acc, p));
    }
    if (store) store_value(out, result(acc));
  }
};

}  // namespace cascade::detail
