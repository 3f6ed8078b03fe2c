// cascade/distributed/nccl_error.cuh: the exceptions a distributed call throws.
//
//   try { float s = cascade::reduce(comm, policy{}, d, d + n, 0.0f); }
//   catch (cascade::nccl_error const& e) { std::cerr << e.what() << " (" << e.code() << ")\n"; }
//   catch (cascade::distributed_error const& e) { std::cerr << e.what() << " on rank " << e.rank() << "\n"; }
//
// distributed_error: the ranks could not finish a call together: a peer that never arrived within the
// communicator's timeout, a call stopped by communicator::abort(), or NCCL reporting the communicator
// failed (nccl_error, derived). what() names the call, the rank and the cause. After one, the
// communicator is unusable for the distributed reduce (its ranks are no longer in step): abort it on
// every rank and make a new one.
//
// nccl_error: an NCCL call failed.
// what() names the call, NCCL's error string and, where the communicator has one, NCCL's last error
// message (ncclGetLastError), which says what went wrong in words (a peer that left, a mismatch).
// A distributed_error (its cause: nccl), so one handler catches every way a distributed call fails.
#pragma once

#include "../detail/meta/config.cuh"

#include <nccl.h>

#include <stdexcept>
#include <string>

namespace cascade {

class distributed_error : public std::runtime_error {
 public:
  enum class cause { nccl, timeout, aborted };

  distributed_error(cause c, int rank, std::string const& what_arg)
      : std::runtime_error(what_arg), cause_(c), rank_(rank) {}
  cause why() const noexcept { return cause_; }
  int rank() const noexcept { return rank_; }  // -1: before the rank was known

 private:
  cause cause_;
  int rank_;
};

class nccl_error : public distributed_error {
 public:
  nccl_error(ncclResult_t code, std::string const& what_arg, int rank = -1)
      : distributed_error(cause::nccl, rank, what_arg), code_(code) {}
  ncclResult_t code() const noexcept { return code_; }

 private:
  ncclResult_t code_;
};

namespace detail {

// "cascade: <call> failed: <NCCL's string> (<NCCL's last error>)".
inline std::string nccl_error_text(ncclResult_t code, char const* call, ncclComm_t comm) {
  std::string text = "cascade: ";
  text += call;
  text += " failed: ";
  text += ncclGetErrorString(code);
  char const* last = ncclGetLastError(comm);  // comm may be null: the thread's last error
  if (last != nullptr && last[0] != '\0') {
    text += " (";
    text += last;
    text += ")";
  }
  return text;
}

// A communicator made non-blocking (ncclConfig_t::blocking = 0) answers ncclInProgress until the call
// has been taken up: wait for that, then check what it became.
inline void check_nccl(ncclResult_t code, char const* call, ncclComm_t comm = nullptr) {
  if (code == ncclInProgress && comm != nullptr) {
    do {
      if (ncclCommGetAsyncError(comm, &code) != ncclSuccess) break;
    } while (code == ncclInProgress);
  }
  if (code != ncclSuccess) throw nccl_error(code, nccl_error_text(code, call, comm));
}

// A group's result on non-blocking communicators (ncclInProgress: the work was taken up, each
// communicator finishes it on its own): what each ended as, the first failure or ncclSuccess.
template <class Comms>
ncclResult_t settle(ncclResult_t code, Comms const& comms) {
  if (code != ncclInProgress) return code;
  for (ncclComm_t c : comms) {
    ncclResult_t state = ncclInProgress;
    do {
      if (ncclCommGetAsyncError(c, &state) != ncclSuccess) return ncclInternalError;
    } while (state == ncclInProgress);
    if (state != ncclSuccess) return state;
  }
  return ncclSuccess;
}

}  // namespace detail
}  // namespace cascade
