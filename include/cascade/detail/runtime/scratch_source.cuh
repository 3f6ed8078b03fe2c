// cascade/detail/runtime/scratch_source.cuh: where one call's temporary device storage comes from when the
// caller provides it (a memory resource, or CUB-style temporary storage) instead of cascade's pool.
//
// The entry points that take the caller's storage install a scratch_source for the duration of the
// call (scoped_scratch_source); scratch_allocate and scratch_release (scratch.cuh) then take pieces
// from it, and stream_state_of (stream_state.cuh) hands out no state, so finish::last_block and
// finish::flagged take their scratch path: the call uses nothing of cascade's own device memory. The
// source is per thread: a call enqueues all its work on the calling thread before it returns, and a
// finish that calls another (finish::cluster's fallback, finish::atomic's re-dispatch) sees the same
// source.
#pragma once

#include "../meta/config.cuh"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace cascade::detail {

// Every piece of scratch starts at a multiple of this (as cudaMalloc's and the pools' blocks do), so
// a finish may place any T after T-sized items (finish::recursive's ping-pong halves).
inline constexpr std::size_t scratch_alignment = 256;

// What one scratch request takes from caller-provided storage: at least one byte, rounded up to the
// alignment (scratch_arena's pieces; the finishes' scratch_bytes add these up).
constexpr std::size_t scratch_piece_bytes(std::size_t bytes) {
  return ((bytes == 0 ? 1 : bytes) + scratch_alignment - 1) / scratch_alignment * scratch_alignment;
}

// A type-erased allocator: `user` names the strategy asking (its tag's name), for messages.
struct scratch_source {
  void* context;
  void* (*allocate)(void* context, std::size_t bytes, cudaStream_t stream, char const* user);
  void (*deallocate)(void* context, void* p, std::size_t bytes, cudaStream_t stream) noexcept;
};

inline scratch_source const*& current_scratch_source_slot() {
  thread_local scratch_source const* current = nullptr;  // nullptr: cascade's own pool
  return current;
}

// The source this thread's current call takes scratch from; nullptr: cascade's pool.
inline scratch_source const* current_scratch_source() { return current_scratch_source_slot(); }

// Installs `source` for this thread until destroyed; restores whatever was installed before.
class scoped_scratch_source {
 public:
  explicit scoped_scratch_source(scratch_source const& source) : previous_(current_scratch_source_slot()) {
    current_scratch_source_slot() = &source;
  }
  ~scoped_scratch_source() { current_scratch_source_slot() = previous_; }
  scoped_scratch_source(scoped_scratch_source const&) = delete;
  scoped_scratch_source& operator=(scoped_scratch_source const&) = delete;

 private:
  scratch_source const* previous_;
};

// Pieces bumped off the caller's temporary storage, each aligned to scratch_alignment. Nothing is
// handed back within a call: the sizes (finish_dispatch<F>::scratch_bytes) count every piece.
class scratch_arena {
 public:
  scratch_arena(void* storage, std::size_t bytes) {
    auto const begin = reinterpret_cast<std::uintptr_t>(storage);
    auto const aligned = (begin + scratch_alignment - 1) / scratch_alignment * scratch_alignment;
    next_ = aligned;
    end_ = aligned - begin <= bytes ? begin + bytes : aligned;
  }
  scratch_arena(scratch_arena const&) = delete;
  scratch_arena& operator=(scratch_arena const&) = delete;

  scratch_source source() { return {this, &take, &give_back}; }

 private:
  static void* take(void* self, std::size_t bytes, cudaStream_t, char const* user) {
    auto* arena = static_cast<scratch_arena*>(self);
    std::size_t const piece = scratch_piece_bytes(bytes);
    if (arena->end_ - arena->next_ < piece)
      throw std::logic_error(std::string("cascade: ") + user + " needs more temporary storage than its size query said (" +
                             std::to_string(piece) + " bytes more, " + std::to_string(arena->end_ - arena->next_) +
                             " left); a bug in cascade's scratch_bytes, please report it");
    void* const p = reinterpret_cast<void*>(arena->next_);
    arena->next_ += piece;
    return p;
  }
  static void give_back(void*, void*, std::size_t, cudaStream_t) noexcept {}

  std::uintptr_t next_;
  std::uintptr_t end_;
};

}  // namespace cascade::detail
