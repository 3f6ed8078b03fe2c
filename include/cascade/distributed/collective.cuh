// cascade/distributed/collective.cuh: how the ranks' partial results become one: the last, optional
// argument of the distributed reduce.
//
//   cascade::reduce(comm, policy{}, d, d + n, 0.0f, cascade::plus{});                          // automatic
//   cascade::reduce(comm, policy{}, d, d + n, 0.0f, cascade::plus{}, cascade::collective::all_gather{});
//
// Each rank first reduces its own shard with the policy (rank 0 starts from init, the others from the
// op's identity), into a slot of its own; then:
//   all_reduce  NCCL's all-reduce (ncclReduce for the root forms) of the slots with NCCL's own op:
//               cascade::plus, multiplies, minimum, maximum (and CCCL's functors of those names) over
//               8-, 32- and 64-bit integers, __half, float, double and __nv_bfloat16 (NCCL's types).
//               Any other type or op does not compile with it.
//   all_gather  NCCL's all-gather of the slots (their bytes, in rank order) and, on each rank, one
//               thread folding them left to right with the op: any type and op, non-commutative ones
//               in rank order, and the same bits on every rank.
//   nvlink      no NCCL collective: the local reduce's last store sends the partial into every rank's
//               window over NVLink (or PCIe peer access) and folds all of them in rank order, in the
//               same kernel (nvlink_exchange.cuh): any type and op, the same bits on every rank, a
//               microsecond or two instead of NCCL's latency. Every rank on one host with peer access
//               (NCCL's LSA team) and NCCL 2.28+; else the call throws std::invalid_argument.
//   automatic   nvlink where the communicator has its window (made on the first call on a communicator
//               cascade made, where the ranks can use one), else all_reduce where the type and op
//               allow it, else all_gather (the default).
// all_reduce and all_gather move one value per rank: a collective of a few bytes, whose cost is
// NCCL's latency.
#pragma once

#include <cuda/std/type_traits>

#include "../detail/meta/type_list.cuh"

namespace cascade::collective {

struct tag {};

struct automatic : tag {
  static constexpr char const* name = "collective::automatic";
};

struct all_reduce : tag {
  static constexpr char const* name = "collective::all_reduce";
};

struct all_gather : tag {
  static constexpr char const* name = "collective::all_gather";
};

struct nvlink : tag {
  static constexpr char const* name = "collective::nvlink";
};

// registry:begin
using all = cascade::detail::type_list<automatic, all_reduce, all_gather, nvlink>;
// registry:end

template <class C>
inline constexpr bool is_collective_v = cuda::std::is_base_of_v<tag, C>;

}  // namespace cascade::collective
