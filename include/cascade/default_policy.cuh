// cascade/default_policy.cuh: the policy reduce(first, last, init[, op]) uses.
//
//   cascade::reduce(cascade::default_policy{}.on(stream), d, d + n, 0.0f);
//
// Not one fixed policy: for each call it looks up the measured tuning table (cascade/tuning/) for the
// device's architecture, the input's item size and the op's kind, and runs the policy that was
// fastest for inputs of that size. Every policy in the tables preserves operand order, so it serves
// non-commutative ops too. Devices of an architecture with no table of its own use the nearest older
// table (the oldest if none is older).
#pragma once

#include <cuda_runtime_api.h>

#include "policy.cuh"
#include "tuning/sm90.cuh"

namespace cascade {

struct default_policy {
  // A copy whose work is ordered on `s`.
  constexpr default_policy on(cudaStream_t s) const {
    default_policy p = *this;
    p.stream_ = s;
    return p;
  }
  constexpr cudaStream_t stream() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;  // the legacy default stream
};

template <>
inline constexpr bool is_policy_v<default_policy> = true;

namespace tuning {
// The architectures with a table, oldest first (compute capability x 10).
template <int... Archs>
struct arch_list {};
using tuned_archs = arch_list<90>;
}  // namespace tuning

}  // namespace cascade
