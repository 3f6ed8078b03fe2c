// cascade/distributed/distributed_error.cuh: the exception a distributed call throws when the ranks
// cannot finish it together: a peer that never arrived within the communicator's timeout, a call
// stopped by communicator::abort(), or NCCL reporting the communicator failed (nccl_error, derived).
//
//   try { float s = cascade::reduce(comm, policy{}, d, d + n, 0.0f); }
//   catch (cascade::distributed_error const& e) { std::cerr << e.what() << " on rank " << e.rank() << "\n"; }
//
// what() names the call, the rank and the cause. After one, the communicator is unusable for the
// distributed reduce (its ranks are no longer in step): abort it on every rank and make a new one.
#pragma once

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

}  // namespace cascade
