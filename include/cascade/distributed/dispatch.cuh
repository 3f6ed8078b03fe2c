// cascade/distributed/dispatch.cuh: the steps of a distributed reduce on each rank, and the two ways
// of running them: one rank per call (one process or thread per GPU), or every rank from one call
// (one process driving all GPUs, the collectives in one NCCL group).
//
// A plan (plans.cuh) says what a rank reduces and how partials combine:
//   using partial = P; using result_type = R;
//   static constexpr bool all_reduce;          // NCCL's op (then also nccl_type(), nccl_op()), else all-gather
//   template <class Policy> void local(Policy const&, int rank, P* slot) const;
//   fold_op(), result()                        // the all-gather path's ordered fold, and P -> R
// The steps, on the communicator's device and stream:
//   local       the rank's shard reduced with the policy into its slot (cascade's scratch);
//   collective  NCCL's all-reduce / reduce of the slot, or all-gather of every rank's slot;
//   finish      one thread folds the gathered slots in rank order and stores the result in d_out
//               (all_reduce: copies the slot there, unless NCCL could write d_out itself).
#pragma once

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "../detail/runtime/capture.cuh"
#include "../detail/runtime/device.cuh"
#include "../detail/host_result.cuh"
#include "../detail/runtime/memory_check.cuh"
#include "../detail/runtime/pinned.cuh"
#include "../detail/runtime/scoped_device.cuh"
#include "../detail/runtime/scratch.cuh"
#include "../error.cuh"
#include "communicator.cuh"
#include "nccl_error.cuh"
#include "partial.cuh"

namespace cascade::detail {

// root < 0: every rank gets the result.
inline void check_root(communicator const& comm, int root, char const* who) {
  if (root >= comm.size())
    throw std::invalid_argument(std::string(who) + ": root " + std::to_string(root) + " is not a rank of a communicator of " +
                                std::to_string(comm.size()));
}

template <class OutIt>
bool nccl_can_write(OutIt const& d_out, communicator const& comm) {
  if constexpr (std::is_pointer_v<OutIt>) {
    cudaPointerAttributes a{};
    check_cuda(cudaPointerGetAttributes(&a, d_out), "cudaPointerGetAttributes");
    return a.type == cudaMemoryTypeDevice && a.device == comm.device();
  } else {
    return false;
  }
}

template <class Plan>
class rank_call {
 public:
  using partial = typename Plan::partial;

  rank_call(communicator const& comm, Plan const& plan)
      : comm_(comm),
        plan_(plan),
        buffer_(sizeof(partial) * (Plan::all_reduce ? 1 : comm.size()), comm.stream(),
                "cascade distributed reduce (the ranks' partials)") {}

  template <class Policy>
  void local(Policy const& policy) const {
    plan_.local(policy.on(comm_.stream()), comm_.rank(), own_slot());
  }

  template <class OutIt>
  void collective(int root, OutIt const& d_out) {
    ncclComm_t const c = comm_.get();
    if constexpr (Plan::all_reduce) {
      partial* receive = slots();
      if constexpr (std::is_same_v<OutIt, partial*>) {
        if ((root < 0 || root == comm_.rank()) && nccl_can_write(d_out, comm_)) {
          receive = d_out;
          wrote_out_ = true;
        }
      }
      if (root < 0)
        check_nccl(ncclAllReduce(slots(), receive, 1, Plan::nccl_type(), Plan::nccl_op(), c, comm_.stream()),
                   "ncclAllReduce (the ranks' partials)", c);
      else
        check_nccl(ncclReduce(slots(), receive, 1, Plan::nccl_type(), Plan::nccl_op(), root, c, comm_.stream()),
                   "ncclReduce (the ranks' partials)", c);
    } else {
      // In place: rank r's slot is already where the gathered array keeps it.
      check_nccl(ncclAllGather(own_slot(), slots(), sizeof(partial), ncclUint8, c, comm_.stream()),
                 "ncclAllGather (the ranks' partials)", c);
    }
  }

  template <class OutIt>
  void finish(int root, OutIt const& d_out) const {
    if (root >= 0 && root != comm_.rank()) return;
    if constexpr (Plan::all_reduce) {
      if (!wrote_out_) launch_fold_ranks(slots(), 1, plan_.fold_op(), plan_.result(), d_out, comm_.stream());
    } else {
      launch_fold_ranks(slots(), comm_.size(), plan_.fold_op(), plan_.result(), d_out, comm_.stream());
    }
  }

 private:
  partial* slots() const { return buffer_.template as<partial>(); }
  partial* own_slot() const { return slots() + (Plan::all_reduce ? 0 : comm_.rank()); }

  communicator comm_;
  Plan plan_;
  scratch_buffer buffer_;
  bool wrote_out_ = false;
};

// Waits for the flag as reduce() does (host_result.cuh), and also asks NCCL at each of its checks
// whether the communicator failed (a peer that died leaves the collective waiting forever).
inline void wait_for_ranks(unsigned volatile const* ready, communicator const& comm) {
  wait_for_result(ready, comm.stream(), [&] {
    ncclResult_t state = ncclSuccess;
    check_nccl(ncclCommGetAsyncError(comm.get(), &state), "ncclCommGetAsyncError", comm.get());
    if (state != ncclSuccess && state != ncclInProgress)
      throw nccl_error(state, nccl_error_text(state, "the distributed reduce's collective", comm.get()) +
                                  "; the communicator is unusable: abort it (ncclCommAbort)");
  });
}

inline void refuse_capture(cudaStream_t stream) {
  if (is_capturing(stream))
    throw std::logic_error(
        "cascade::reduce (distributed) returns its result to the host, which a stream being captured into a graph "
        "cannot do; capture cascade::reduce_into (the result to device memory) instead");
}

// ---- one rank per call ---------------------------------------------------------------------------------

template <class Policy, class Plan, class OutIt>
void run_rank(communicator const& comm, int root, Policy const& policy, Plan const& plan, OutIt d_out, char const* who) {
  check_root(comm, root, who);
  scoped_device const on(comm.device());
  current_device();
  if (root < 0 || root == comm.rank()) check_device_accessible(d_out, "the output (d_out)");
  rank_call<Plan> call(comm, plan);
  call.local(policy);
  call.collective(root, d_out);
  call.finish(root, d_out);
}

// The result on the host of every rank (root < 0) or of the root (nothing elsewhere).
template <class Policy, class Plan>
std::optional<typename Plan::result_type> run_rank_to_host(communicator const& comm, int root, Policy const& policy,
                                                           Plan const& plan, char const* who) {
  using R = typename Plan::result_type;
  check_root(comm, root, who);
  if (root >= 0 && root != comm.rank()) {
    run_rank(comm, root, policy, plan, static_cast<R*>(nullptr), who);
    return std::nullopt;
  }
  scoped_device const on(comm.device());
  current_device();
  refuse_capture(comm.stream());
  host_slot<R> slot;
  try {
    {
      rank_call<Plan> call(comm, plan);
      call.local(policy);
      call.collective(root, slot.out());
      call.finish(root, slot.out());
    }
    wait_for_ranks(slot.ready(), comm);
  } catch (nccl_error const&) {
    slot.abandon();  // a collective that failed may never end: do not wait for the stream
    throw;
  } catch (...) {
    (void)cudaStreamSynchronize(comm.stream());  // enqueued work may still write the block
    throw;
  }
  return slot.value();
}

// ---- every rank from one call ----------------------------------------------------------------------------

// Every rank of one communicator, comms[i] being rank i: what a group call needs (a rank left out
// would leave the others waiting).
inline void check_ranks(std::span<communicator const> comms, std::size_t shards, std::size_t outputs, char const* who) {
  if (comms.empty()) throw std::invalid_argument(std::string(who) + ": the list of communicators is empty");
  if (shards != comms.size() || outputs != comms.size())
    throw std::invalid_argument(std::string(who) + ": " + std::to_string(comms.size()) + " communicators, " +
                                std::to_string(shards) + " shards and " + std::to_string(outputs) +
                                " outputs; pass one of each per rank");
  for (std::size_t i = 0; i < comms.size(); ++i)
    if (comms[i].rank() != static_cast<int>(i) || comms[i].size() != static_cast<int>(comms.size()))
      throw std::invalid_argument(std::string(who) + ": communicator " + std::to_string(i) + " is rank " +
                                  std::to_string(comms[i].rank()) + " of " + std::to_string(comms[i].size()) +
                                  "; pass every rank of one communicator, rank i at position i (as init_all makes them)");
}

// A rank's call, released on its own device.
template <class Plan>
struct held_call {
  int device;
  std::optional<rank_call<Plan>> call;
  explicit held_call(int d) : device(d) {}
  ~held_call() {
    int previous = device;
    bool const switched = cudaGetDevice(&previous) == cudaSuccess && previous != device && cudaSetDevice(device) == cudaSuccess;
    call.reset();
    if (switched) (void)cudaSetDevice(previous);
  }
};

class nccl_group {
 public:
  nccl_group() { check_nccl(ncclGroupStart(), "ncclGroupStart"); }
  ~nccl_group() {
    if (open_) (void)ncclGroupEnd();
  }
  void end() {
    open_ = false;
    check_nccl(ncclGroupEnd(), "ncclGroupEnd (the ranks' collectives)");
  }
  nccl_group(nccl_group const&) = delete;
  nccl_group& operator=(nccl_group const&) = delete;

 private:
  bool open_ = true;
};

// plans[i] on comms[i]; out(i, f) calls f with rank i's output iterator.
template <class Policy, class Plan, class Out>
void run_ranks(std::span<communicator const> comms, int root, Policy const& policy, std::vector<Plan> const& plans,
               Out const& out) {
  std::vector<std::unique_ptr<held_call<Plan>>> calls;
  calls.reserve(comms.size());
  for (std::size_t i = 0; i < comms.size(); ++i) {
    scoped_device const on(comms[i].device());
    current_device();
    if (root < 0 || root == static_cast<int>(i)) out(i, [](auto const& d_out) { check_device_accessible(d_out, "the output (d_out)"); });
    calls.push_back(std::make_unique<held_call<Plan>>(comms[i].device()));
    calls.back()->call.emplace(comms[i], plans[i]);
    calls.back()->call->local(policy);
  }
  {
    nccl_group group;
    for (std::size_t i = 0; i < comms.size(); ++i) {
      scoped_device const on(comms[i].device());
      out(i, [&](auto const& d_out) { calls[i]->call->collective(root, d_out); });
    }
    group.end();
  }
  for (std::size_t i = 0; i < comms.size(); ++i) {
    scoped_device const on(comms[i].device());
    out(i, [&](auto const& d_out) { calls[i]->call->finish(root, d_out); });
  }
}

// Every rank's result in d_outs[i].
template <class Policy, class Plan, class OutIts>
void run_ranks_into(std::span<communicator const> comms, Policy const& policy, std::vector<Plan> const& plans,
                    OutIts const& d_outs) {
  run_ranks(comms, -1, policy, plans, [&](std::size_t i, auto const& f) { f(d_outs[i]); });
}

// The result on the host, from rank 0 (the others write nothing).
template <class Policy, class Plan>
typename Plan::result_type run_ranks_to_host(std::span<communicator const> comms, Policy const& policy,
                                             std::vector<Plan> const& plans) {
  using R = typename Plan::result_type;
  scoped_device const on(comms[0].device());
  current_device();
  for (communicator const& c : comms) refuse_capture(c.stream());
  host_slot<R> slot;
  try {
    run_ranks(comms, 0, policy, plans, [&](std::size_t i, auto const& f) {
      if (i == 0) f(slot.out());
      else f(static_cast<R*>(nullptr));
    });
    wait_for_ranks(slot.ready(), comms[0]);
  } catch (nccl_error const&) {
    slot.abandon();
    throw;
  } catch (...) {
    (void)cudaStreamSynchronize(comms[0].stream());
    throw;
  }
  return slot.value();
}

}  // namespace cascade::detail
