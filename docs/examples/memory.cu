// The examples of docs/memory.md: each region between "// [name]" and "// [/name]" is shown there under
// that name. test/algorithms/docs_test.cu compiles this file and runs it on the GPU; main returns 0 when every
// example got the answer it states.
#include <cascade/cascade.cuh>
#include <thrust/device_vector.h>
#include <thrust/sequence.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <new>

// [counting_resource]
// A stream-ordered resource in CCCL 3.1's shape (3.0's allocate_async/deallocate_async works too):
// here the device's default pool, counting what it hands out.
struct counting_resource {
  long long live = 0;
  void* allocate(cuda::stream_ref stream, std::size_t bytes, std::size_t /*alignment: 256*/) {
    void* p = nullptr;
    if (cudaMallocAsync(&p, bytes, stream.get()) != cudaSuccess) throw std::bad_alloc();
    ++live;
    return p;
  }
  void deallocate(cuda::stream_ref stream, void* p, std::size_t, std::size_t) {
    cudaFreeAsync(p, stream.get());
    --live;
  }
};
static_assert(cascade::stream_ordered_resource<counting_resource>);
// [/counting_resource]

namespace memory_examples {

int failures = 0;
void expect(bool ok, char const* what) {
  if (!ok) {
    std::printf("docs/memory.md example failed: %s\n", what);
    ++failures;
  }
}

void run() {
  thrust::device_vector<float> v(1 << 20);
  thrust::sequence(v.begin(), v.end());  // 0, 1, ..., 2^20 - 1
  float const* d = thrust::raw_pointer_cast(v.data());
  long long const n = 1 << 20;
  float const expected = 549755289600.0f;  // n (n - 1) / 2, rounded to float
  thrust::device_vector<float> out(1);
  float* d_out = thrust::raw_pointer_cast(out.data());
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  using policy = cascade::policy<256, 8, cascade::tree::shuffle, cascade::finish::two_pass>;
  auto const close = [&](float x) { return x > expected * 0.9999f && x < expected * 1.0001f; };

  {
    // [two_phase]
    void* d_temp_storage = nullptr;
    std::size_t temp_storage_bytes = 0;
    // 1. the size: launches nothing, touches nothing
    cascade::reduce_into(d_temp_storage, temp_storage_bytes, policy{}.on(stream), d, d + n, d_out, 0.0f,
                         cascade::plus{});
    cudaMallocAsync(&d_temp_storage, temp_storage_bytes, stream);
    // 2. the call: every byte of scratch from d_temp_storage
    cascade::reduce_into(d_temp_storage, temp_storage_bytes, policy{}.on(stream), d, d + n, d_out, 0.0f,
                         cascade::plus{});
    cudaFreeAsync(d_temp_storage, stream);  // stream-ordered: after the call has run
    cudaStreamSynchronize(stream);
    // [/two_phase]
    expect(temp_storage_bytes >= 1 && close(out[0]), "two_phase");
  }
  {
    // [pool_resource]
    cudaMemPool_t my_pool;  // a pool the program already has
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location = {cudaMemLocationTypeDevice, 0};
    cudaMemPoolCreate(&my_pool, &props);

    cascade::memory_pool_resource resource{my_pool};
    cascade::reduce_into(policy{}.on(stream), d, d + n, d_out, 0.0f, cascade::plus{}, resource);
    cascade::reduce_into(cascade::default_policy{}.on(stream), d, d + n, d_out, 0.0f, cascade::plus{}, resource);
    cudaStreamSynchronize(stream);
    cudaMemPoolDestroy(my_pool);
    // [/pool_resource]
    expect(close(out[0]), "pool_resource");
  }
  {
    // [counting_resource_use]
    counting_resource counting;  // used by reference, never copied
    auto square = [] __host__ __device__(float x) { return x * x; };
    cascade::transform_reduce_into(policy{}.on(stream), d, d + 100, d_out, 0.0f, cascade::plus{}, square, counting);
    cudaStreamSynchronize(stream);
    // counting.live == 0: every allocation was deallocated (stream-ordered) before the call returned
    // [/counting_resource_use]
    expect(counting.live == 0 && out[0] == 328350.0f, "counting_resource_use");
  }
  {
    // [pool_controls]
    cascade::set_scratch_release_threshold(std::size_t(64) << 20);  // keep up to 64 MiB unused
    float sum = cascade::reduce(policy{}.on(stream), d, d + n, 0.0f);  // from cascade's pool
    cudaStreamSynchronize(stream);
    std::size_t reserved = cascade::scratch_reserved_bytes();  // what the pools hold from the driver
    cascade::scratch_trim();  // give back all that no call uses
    std::size_t after_trim = cascade::scratch_reserved_bytes();  // 0
    cascade::set_scratch_release_threshold(UINT64_MAX);  // the default: keep everything
    // [/pool_controls]
    expect(close(sum) && reserved > 0 && after_trim == 0, "pool_controls");
  }
  cudaStreamDestroy(stream);
}

}  // namespace memory_examples

int main() {
  memory_examples::run();
  return memory_examples::failures == 0 ? 0 : 1;
}
