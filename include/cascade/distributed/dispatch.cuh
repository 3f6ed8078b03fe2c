// cascade/distributed/dispatch.cuh: the steps of a distributed reduce on each rank, and the two ways
// of running them: one rank per call (one process or thread per GPU), or every rank from one call
// (one process driving all GPUs, the collectives in one NCCL group).
//
// A plan (plans.cuh) says what a rank reduces and how partials combine:
//   using partial = P; using result_type = R; using collective_type = C;
//   static constexpr bool all_reduce;          // NCCL's op (then also nccl_type(), nccl_op()), else all-gather
//   template <class Policy, class Slot> void local(Policy const&, int rank, Slot slot) const;
//   fold_op(), result()                        // the ordered fold of partials, and P -> R
// The steps, on the communicator's device and stream:
//   local       the rank's shard reduced with the policy into its slot (cascade's scratch), or, through
//               collective::nvlink's window, into an nvlink_sink that exchanges, folds and stores the
//               result in the same kernel (then nothing follows);
//   collective  NCCL's all-reduce / reduce of the slot, or all-gather of every rank's slot;
//   finish      one thread folds the gathered slots in rank order and stores the result in d_out
//               (all_reduce: copies the slot there, unless NCCL could write d_out itself).
#pragma once

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <atomic>
#include <chrono>
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
#include "collective.cuh"
#include "communicator.cuh"
#include "nccl_error.cuh"
#include "nvlink_exchange.cuh"
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

// Aborts the communicator, then throws distributed_error: "<who> on rank R: <what>; the communicator
// is aborted: make a new one". Every way a distributed call gives up ends here.
[[noreturn]] inline void abort_and_throw(communicator const& comm, distributed_error::cause why, std::string const& who,
                                         std::string const& what) {
  comm.abort();
  throw distributed_error(why, comm.rank(), who + " on rank " + std::to_string(comm.rank()) + ": " + what +
                                                "; the communicator is aborted: make a new one");
}

// If an exchange through `window` stopped (it timed out waiting for a rank, or was aborted).
inline void throw_if_exchange_stopped(communicator const& comm, nvlink_window const* window, char const* who) {
  if (window == nullptr) return;
  unsigned const status = window->status();
  if (status == nvlink_ok) return;
  if (status == nvlink_aborted) abort_and_throw(comm, distributed_error::cause::aborted, who, "the exchange was aborted");
  abort_and_throw(comm, distributed_error::cause::timeout, who,
                  "no partial came from some rank within the timeout (" + std::to_string(comm.timeout().count()) +
                      " ms, collective::nvlink)");
}

// check_nccl for a call on a communicator that may be non-blocking (init_rank's): while NCCL says
// ncclInProgress it waits, at most the communicator's timeout (a dead peer can hold a connection's
// setup forever), then aborts the communicator and throws distributed_error.
inline void check_nccl_within(ncclResult_t code, char const* call, communicator const& comm) {
  auto const deadline = std::chrono::steady_clock::now() + comm.timeout();
  while (code == ncclInProgress) {
    if (std::chrono::steady_clock::now() > deadline)
      abort_and_throw(comm, distributed_error::cause::timeout, std::string("cascade: ") + call,
                      "not taken up within the timeout (" + std::to_string(comm.timeout().count()) + " ms)");
    if (ncclCommGetAsyncError(comm.get(), &code) != ncclSuccess) code = ncclInternalError;
  }
  check_nccl(code, call, comm.get());
}

// The window a plan's partials go through: collective::nvlink's (made if need be; none is an
// error), automatic's where the communicator has one or, made by cascade, can make one; else none
// (NCCL's collectives). Throws distributed_error if an earlier exchange on it failed.
template <class Plan>
nvlink_window* exchange_window(communicator const& comm, char const* who) {
  using C = typename Plan::collective_type;
  constexpr bool named = std::is_same_v<C, collective::nvlink>;
  if constexpr (named || std::is_same_v<C, collective::automatic>) {
    bool const fits = static_cast<std::size_t>(comm.size()) * nvlink_words<typename Plan::partial> <= nvlink_window::bytes / 16;
    if (!named && !fits) return comm.nvlink_window(false), nullptr;
    // Made at the first call that wants it, but not into a graph being captured (the setup allocates
    // and synchronizes): automatic then takes NCCL's path on every rank, as every rank captures.
    bool const capturing = !comm.has_nvlink() && is_capturing(comm.stream());  // (asked only until it is made)
    nvlink_window* const w = comm.nvlink_window((named || comm.owns()) && !capturing);
    if constexpr (named) {
      if (w == nullptr && capturing)
        throw std::invalid_argument(std::string(who) +
                                    ": collective::nvlink's window is made at the first call, which a stream being "
                                    "captured cannot make; call communicator::prepare_nvlink (or make one call) first");
      if (w == nullptr)
        throw std::invalid_argument(std::string(who) +
                                    ": collective::nvlink needs every rank on one host with peer access (NCCL's LSA "
                                    "team), NCCL 2.28 or newer with header and library of one version, and neither "
                                    "CASCADE_NVLINK=0 nor NCCL_P2P_DISABLE=1; use collective::automatic, which "
                                    "falls back to NCCL's collectives");
      if (!fits)
        throw std::invalid_argument(std::string(who) + ": collective::nvlink's window holds " +
                                    std::to_string(nvlink_window::bytes / 16 / 4) + " bytes of partials a call; " +
                                    std::to_string(comm.size()) + " of " + std::to_string(sizeof(typename Plan::partial)) +
                                    " bytes do not fit: use collective::all_gather");
    }
    throw_if_exchange_stopped(comm, w, who);  // an earlier call's (reduce_into does not wait)
    return w;
  } else {
    (void)comm.nvlink_window(false);  // (throws if the communicator was aborted)
    return nullptr;
  }
}

template <class Plan>
class rank_call {
 public:
  using partial = typename Plan::partial;

  rank_call(communicator const& comm, Plan const& plan, nvlink_window* window)
      : comm_(comm), plan_(plan), window_(window) {
    if (window_ == nullptr)
      buffer_.emplace(sizeof(partial) * (Plan::all_reduce ? 1 : comm.size()), comm.stream(),
                      "cascade distributed reduce (the ranks' partials)");
  }

  bool exchanges() const { return window_ != nullptr; }

  template <class Policy, class OutIt>
  void local(Policy const& policy, int root, OutIt const& d_out) const {
    if (window_ != nullptr) {
      auto const ns = std::chrono::duration_cast<std::chrono::nanoseconds>(comm_.timeout()).count();
      using sink = nvlink_sink<partial, decltype(plan_.fold_op()), decltype(plan_.result()), OutIt>;
      plan_.local(policy.on(comm_.stream()), comm_.rank(),
                  sink{window_->link(static_cast<unsigned long long>(ns)), plan_.fold_op(), plan_.result(), d_out,
                       root < 0 || root == comm_.rank()});
    } else {
      plan_.local(policy.on(comm_.stream()), comm_.rank(), own_slot());
    }
  }

  template <class OutIt>
  void collective(int root, OutIt const& d_out) {
    if (window_ != nullptr) return;  // the local kernel exchanged
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
        check_nccl_within(ncclAllReduce(slots(), receive, 1, Plan::nccl_type(), Plan::nccl_op(), c, comm_.stream()),
                          "ncclAllReduce (the ranks' partials)", comm_);
      else
        check_nccl_within(ncclReduce(slots(), receive, 1, Plan::nccl_type(), Plan::nccl_op(), root, c, comm_.stream()),
                          "ncclReduce (the ranks' partials)", comm_);
    } else {
      // In place: rank r's slot is already where the gathered array keeps it.
      check_nccl_within(ncclAllGather(own_slot(), slots(), sizeof(partial), ncclUint8, c, comm_.stream()),
                        "ncclAllGather (the ranks' partials)", comm_);
    }
  }

  template <class OutIt>
  void finish(int root, OutIt const& d_out) const {
    if (window_ != nullptr) return;
    if (root >= 0 && root != comm_.rank()) return;
    if constexpr (Plan::all_reduce) {
      if (!wrote_out_) launch_fold_ranks(slots(), 1, plan_.fold_op(), plan_.result(), d_out, comm_.stream());
    } else {
      launch_fold_ranks(slots(), comm_.size(), plan_.fold_op(), plan_.result(), d_out, comm_.stream());
    }
  }

 private:
  partial* slots() const { return buffer_->template as<partial>(); }
  partial* own_slot() const { return slots() + (Plan::all_reduce ? 0 : comm_.rank()); }

  communicator comm_;
  Plan plan_;
  nvlink_window* window_;
  std::optional<scratch_buffer> buffer_;
  bool wrote_out_ = false;
};

// Waits for the flag as reduce() does (host_result.cuh), and also, at each of its checks: asks NCCL
// whether the communicator failed (a peer that died leaves a collective waiting forever), reads the
// exchange's status (collective::nvlink: it gave up waiting, or was aborted), and gives up itself
// once the communicator's timeout has passed (twice it where the exchange keeps its own deadline).
// Each throws distributed_error (nccl_error for NCCL's errors) after aborting the communicator.
inline void wait_for_ranks(unsigned volatile const* ready, communicator const& comm, nvlink_window const* window,
                           char const* who) {
  auto const started = std::chrono::steady_clock::now();
  auto const limit = window != nullptr ? 2 * comm.timeout() : comm.timeout();
  try {
    wait_for_result(ready, comm.stream(), [&] {
      ncclResult_t state = ncclSuccess;
      check_nccl(ncclCommGetAsyncError(comm.get(), &state), "ncclCommGetAsyncError", comm.get());
      if (state != ncclSuccess && state != ncclInProgress) {
        std::string const text = nccl_error_text(state, "the distributed reduce's collective", comm.get());
        comm.abort();
        throw nccl_error(state, text + " on rank " + std::to_string(comm.rank()) + "; the communicator is aborted: make a new one",
                         comm.rank());
      }
      throw_if_exchange_stopped(comm, window, who);
      if (std::chrono::steady_clock::now() - started > limit)
        abort_and_throw(comm, distributed_error::cause::timeout, who,
                        "the other ranks did not finish within the timeout (" + std::to_string(comm.timeout().count()) +
                            " ms)");
    });
  } catch (cuda_error const&) {
    throw_if_exchange_stopped(comm, window, who);  // it gave up and returned: the stream drained, no result
    throw;
  }
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
  rank_call<Plan> call(comm, plan, exchange_window<Plan>(comm, who));
  call.local(policy, root, d_out);
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
  nvlink_window* const window = exchange_window<Plan>(comm, who);
  host_slot<R> slot;
  try {
    {
      rank_call<Plan> call(comm, plan, window);
      call.local(policy, root, slot.out());
      call.collective(root, slot.out());
      call.finish(root, slot.out());
    }
    wait_for_ranks(slot.ready(), comm, window, who);
  } catch (distributed_error const&) {
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
  // `comms`: the group's communicators, waited on where they are non-blocking.
  void end(std::vector<ncclComm_t> const& comms = {}) {
    open_ = false;
    check_nccl(settle(ncclGroupEnd(), comms), "ncclGroupEnd (the ranks' collectives)");
  }
  nccl_group(nccl_group const&) = delete;
  nccl_group& operator=(nccl_group const&) = delete;

 private:
  bool open_ = true;
};

// plans[i] on comms[i]; out(i, f) calls f with rank i's output iterator.
template <class Policy, class Plan, class Out>
void run_ranks(std::span<communicator const> comms, int root, Policy const& policy, std::vector<Plan> const& plans,
               Out const& out, char const* who) {
  using C = typename Plan::collective_type;
  if constexpr (std::is_same_v<C, collective::nvlink> || std::is_same_v<C, collective::automatic>) {
    bool all_owned = true;
    for (communicator const& c : comms) all_owned = all_owned && c.owns();
    if (std::is_same_v<C, collective::nvlink> || all_owned) communicator::prepare_nvlink(comms);
  }
  // Every check before the first launch: a rank's exchange waits for the others' kernels.
  std::vector<nvlink_window*> windows;
  for (communicator const& c : comms) {
    scoped_device const on(c.device());
    windows.push_back(exchange_window<Plan>(c, who));
  }
  std::vector<std::unique_ptr<held_call<Plan>>> calls;
  calls.reserve(comms.size());
  for (std::size_t i = 0; i < comms.size(); ++i) {
    scoped_device const on(comms[i].device());
    current_device();
    if (root < 0 || root == static_cast<int>(i)) out(i, [](auto const& d_out) { check_device_accessible(d_out, "the output (d_out)"); });
    calls.push_back(std::make_unique<held_call<Plan>>(comms[i].device()));
    calls.back()->call.emplace(comms[i], plans[i], windows[i]);
    out(i, [&](auto const& d_out) { calls.back()->call->local(policy, root, d_out); });
  }
  if (calls[0]->call->exchanges()) return;
  {
    nccl_group group;
    for (std::size_t i = 0; i < comms.size(); ++i) {
      scoped_device const on(comms[i].device());
      out(i, [&](auto const& d_out) { calls[i]->call->collective(root, d_out); });
    }
    std::vector<ncclComm_t> raw;
    for (communicator const& c : comms) raw.push_back(c.get());
    group.end(raw);
  }
  for (std::size_t i = 0; i < comms.size(); ++i) {
    scoped_device const on(comms[i].device());
    out(i, [&](auto const& d_out) { calls[i]->call->finish(root, d_out); });
  }
}

// Every rank's result in d_outs[i].
template <class Policy, class Plan, class OutIts>
void run_ranks_into(std::span<communicator const> comms, Policy const& policy, std::vector<Plan> const& plans,
                    OutIts const& d_outs, char const* who) {
  run_ranks(comms, -1, policy, plans, [&](std::size_t i, auto const& f) { f(d_outs[i]); }, who);
}

// The result on the host, from rank 0 (the others write nothing).
template <class Policy, class Plan>
typename Plan::result_type run_ranks_to_host(std::span<communicator const> comms, Policy const& policy,
                                             std::vector<Plan> const& plans, char const* who) {
  using R = typename Plan::result_type;
  scoped_device const on(comms[0].device());
  current_device();
  for (communicator const& c : comms) refuse_capture(c.stream());
  host_slot<R> slot;
  try {
    run_ranks(comms, 0, policy, plans, [&](std::size_t i, auto const& f) {
      if (i == 0) f(slot.out());
      else f(static_cast<R*>(nullptr));
    }, who);
    wait_for_ranks(slot.ready(), comms[0], exchange_window<Plan>(comms[0], who), who);
  } catch (distributed_error const&) {
    slot.abandon();
    throw;
  } catch (...) {
    (void)cudaStreamSynchronize(comms[0].stream());
    throw;
  }
  return slot.value();
}

}  // namespace cascade::detail
