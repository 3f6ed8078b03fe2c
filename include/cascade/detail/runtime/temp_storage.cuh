// cascade/detail/runtime/temp_storage.cuh: any call in CUB's two-phase shape, (d_temp_storage,
// temp_storage_bytes) first.
//
// The call is run twice: inside a scoped_sizing, where every context it makes sizes instead of
// launching (launch_context.cuh), so the query is the sum of the pieces its own path asks for; then,
// unless that was the query, with every piece taken from the caller's storage. One rule for every
// entry point, so no entry point keeps a second description of its scratch.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include "launch_context.cuh"
#include "scratch_source.cuh"

namespace cascade::detail {

// What a call whose pieces add up to `pieces` asks of the caller's storage: room to align its start
// too (any address works, as in CUB), and at least 1 byte, as CUB says, so that storage allocated for
// it is never a null pointer, which would read as another query.
constexpr std::size_t temp_storage_bytes_for(std::size_t pieces) {
  return pieces == 0 ? 1 : pieces + scratch_alignment - 1;
}

// d_temp_storage == nullptr: sets temp_storage_bytes to what call() needs and launches nothing;
// otherwise runs call() with its scratch in [d_temp_storage, + temp_storage_bytes), or throws
// std::invalid_argument, having launched nothing, when that is less than it needs. `who` names the
// entry point.
template <class Call>
void with_temp_storage(void* d_temp_storage, std::size_t& temp_storage_bytes, char const* who, Call&& call) {
  std::size_t needed = 0;
  {
    scoped_sizing const sizing;
    call();
    needed = temp_storage_bytes_for(sizing.bytes());
  }
  if (d_temp_storage == nullptr) {
    temp_storage_bytes = needed;
    return;
  }
  if (temp_storage_bytes < needed)
    throw std::invalid_argument(std::string(who) + ": temp_storage_bytes is " + std::to_string(temp_storage_bytes) +
                                ", and this call needs " + std::to_string(needed) +
                                " (call it with d_temp_storage == nullptr to ask)");
  scratch_arena arena(d_temp_storage, temp_storage_bytes);
  scratch_source const source = arena.source();
  scoped_scratch_source const use(source);
  call();
}

}  // namespace cascade::detail
