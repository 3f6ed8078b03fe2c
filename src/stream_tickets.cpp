// Per-stream tickets for finish::last_block (include/cascade/detail/stream_tickets.cuh). Tickets are
// 4-byte words in chunks of device memory; a stream's ticket is zeroed by a memset on that stream
// when it is first handed out, so the memset is ordered before the stream's first kernel that uses
// it, whichever streams the chunk's other tickets serve.
#include <cascade/detail/device.cuh>
#include <cascade/detail/stream_tickets.cuh>

#include <array>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace cascade::detail {

namespace {

constexpr int max_devices = 64;
constexpr unsigned tickets_per_chunk = 4096;

struct device_tickets {
  std::mutex mutex;
  std::unordered_map<unsigned long long, unsigned*> by_stream;
  unsigned* chunk = nullptr;  // the chunk new tickets come from
  unsigned used = tickets_per_chunk;
};

std::array<device_tickets, max_devices> devices;

struct last_lookup {
  int device = -1;
  unsigned long long id = 0;
  unsigned* ticket = nullptr;
};
thread_local last_lookup last;  // most calls reuse the stream of the call before

}  // namespace

unsigned* stream_ticket_by_id(unsigned long long id, cudaStream_t stream) {
  int const ordinal = current_device().ordinal;
  if (last.ticket != nullptr && last.device == ordinal && last.id == id) return last.ticket;
  device_tickets& d = devices[ordinal];
  std::lock_guard<std::mutex> lock(d.mutex);
  auto const found = d.by_stream.find(id);
  unsigned* ticket = nullptr;
  if (found != d.by_stream.end()) {
    ticket = found->second;
  } else {
    if (d.used == tickets_per_chunk) {
      void* chunk = nullptr;
      check_cuda(cudaMalloc(&chunk, tickets_per_chunk * sizeof(unsigned)), "cudaMalloc (cascade stream tickets)");
      d.chunk = static_cast<unsigned*>(chunk);  // kept until exit, as the tickets in it may be in use
      d.used = 0;
    }
    ticket = d.chunk + d.used;
    check_cuda(cudaMemsetAsync(ticket, 0, sizeof(unsigned), stream), "cudaMemsetAsync (cascade stream ticket)");
    ++d.used;
    d.by_stream.emplace(id, ticket);
  }
  last = {ordinal, id, ticket};
  return ticket;
}

}  // namespace cascade::detail
