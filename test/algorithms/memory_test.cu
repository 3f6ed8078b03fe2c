// Calls that bring their own temporary storage (docs/memory.md): reduce_into and
// transform_reduce_into with a memory resource (both CCCL shapes, and memory_pool_resource) and with
// CUB-style temporary storage give bitwise the plain call's result, for every compiled finish and
// default_policy, at the sizes around one tile, primes, 2^20 + 1 and beyond 2^32; the size query
// launches nothing (a captured query makes an empty graph) and leaves the output alone; too little
// storage throws std::invalid_argument before anything runs; every allocation a resource makes is
// deallocated, with the same size, 256-byte aligned; cascade's pool and per-stream state see no use.
// Then the public pool controls (memory/scratch_pool.cuh): trim, the byte counts, the release threshold.
#include <doctest/doctest.h>

#include <cascade/cascade.cuh>
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <random>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "support/host_copy.cuh"
#include "support/seed.hpp"
#include "support/strategies.cuh"

namespace {

using namespace cascade_test;

// What a counting resource saw. Its memory comes from the device's default pool (cudaMallocAsync),
// not from cascade's.
struct allocation_log {
  long long allocations = 0;
  long long deallocations = 0;
  std::map<void*, std::size_t> live;  // pointer -> bytes
  bool wrong = false;                 // misaligned, or deallocated with another size or twice
  void allocated(void* p, std::size_t bytes, std::size_t alignment) {
    ++allocations;
    wrong |= alignment != 256 || reinterpret_cast<std::uintptr_t>(p) % 256 != 0 || !live.emplace(p, bytes).second;
  }
  void deallocated(void* p, std::size_t bytes, std::size_t alignment) {
    ++deallocations;
    auto const found = live.find(p);
    wrong |= alignment != 256 || found == live.end() || found->second != bytes;
    if (found != live.end()) live.erase(found);
  }
  bool balanced() const { return !wrong && live.empty() && allocations == deallocations; }
};

void* device_allocate(std::size_t bytes, cudaStream_t stream) {
  void* p = nullptr;
  CASCADE_CUDA_CHECK(cudaMallocAsync(&p, bytes, stream));
  return p;
}

// CCCL 3.0's shape (rmm's too). Not copyable: cascade must use the caller's object.
struct resource_cccl_3_0 {
  allocation_log* log;
  explicit resource_cccl_3_0(allocation_log* l) : log(l) {}
  resource_cccl_3_0(resource_cccl_3_0 const&) = delete;
  void* allocate_async(std::size_t bytes, std::size_t alignment, cuda::stream_ref stream) {
    void* p = device_allocate(bytes, stream.get());
    log->allocated(p, bytes, alignment);
    return p;
  }
  void deallocate_async(void* p, std::size_t bytes, std::size_t alignment, cuda::stream_ref stream) {
    log->deallocated(p, bytes, alignment);
    (void)cudaFreeAsync(p, stream.get());
  }
};

// CCCL 3.1's shape.
struct resource_cccl_3_1 {
  allocation_log* log;
  explicit resource_cccl_3_1(allocation_log* l) : log(l) {}
  resource_cccl_3_1(resource_cccl_3_1 const&) = delete;
  void* allocate(cuda::stream_ref stream, std::size_t bytes, std::size_t alignment) {
    void* p = device_allocate(bytes, stream.get());
    log->allocated(p, bytes, alignment);
    return p;
  }
  void deallocate(cuda::stream_ref stream, void* p, std::size_t bytes, std::size_t alignment) {
    log->deallocated(p, bytes, alignment);
    (void)cudaFreeAsync(p, stream.get());
  }
};

static_assert(cascade::stream_ordered_resource<resource_cccl_3_0> && cascade::stream_ordered_resource<resource_cccl_3_1>);
static_assert(cascade::stream_ordered_resource<cascade::memory_pool_resource>);
static_assert(!cascade::stream_ordered_resource<int> && !cascade::stream_ordered_resource<resource_cccl_3_1 const>);

// What the calls under test must leave alone: cascade's pool (its high-water mark, reset before) and
// the per-stream states (how many there are).
struct cascade_memory {
  static cudaMemPool_t pool() { return cascade::detail::scratch_impl::current_pool(); }
  static std::size_t states() {
    auto& d = cascade::detail::stream_state_impl::states_of(cascade::detail::current_device().ordinal);
    std::lock_guard<std::mutex> lock(d.mutex);
    return d.count;
  }
  std::size_t states_before = states();
  cascade_memory() {
    std::uint64_t zero = 0;  // resets the high-water mark to what is in use now
    CASCADE_CUDA_CHECK(cudaMemPoolSetAttribute(pool(), cudaMemPoolAttrUsedMemHigh, &zero));
  }
  bool untouched() const {
    CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
    std::uint64_t high = 0, used = 0;
    CASCADE_CUDA_CHECK(cudaMemPoolGetAttribute(pool(), cudaMemPoolAttrUsedMemHigh, &high));
    CASCADE_CUDA_CHECK(cudaMemPoolGetAttribute(pool(), cudaMemPoolAttrUsedMemCurrent, &used));
    return high == used && states() == states_before;
  }
};

class owned_stream {
 public:
  owned_stream() { CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~owned_stream() { (void)cudaStreamDestroy(s_); }
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

class device_bytes {
 public:
  explicit device_bytes(std::size_t bytes) { CASCADE_CUDA_CHECK(cudaMalloc(&p_, bytes)); }
  ~device_bytes() { (void)cudaFree(p_); }
  unsigned char* get() const { return static_cast<unsigned char*>(p_); }

 private:
  void* p_ = nullptr;
};

// The kernels launched while `call` runs on `stream`, counted by capturing it into a graph.
template <class Call>
std::size_t captured_nodes(cudaStream_t stream, Call call) {
  CASCADE_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed));
  call();
  cudaGraph_t graph = nullptr;
  CASCADE_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
  std::size_t count = 0;
  CASCADE_CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &count));
  CASCADE_CUDA_CHECK(cudaGraphDestroy(graph));
  return count;
}

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T>
T sentinel() {
  if constexpr (std::is_floating_point_v<T>) return T(-12345.5);
  else return T(-12345);
}

// Every form of reduce_into under `policy` over d[0, n) against the plain call, bitwise. `call(out,
// form)` makes the call; the forms are below. The output is a T* or a thrust::device_ptr<T>.
enum class form { plain, temp_query, temp_too_small, temp, temp_unaligned, resource_3_0, resource_3_1, pool_resource };

template <class T, class Out, class Call>
void check_forms(Call call) {
  owned_stream const stream;
  thrust::device_vector<T> out_vector(1, sentinel<T>());
  Out const out(thrust::raw_pointer_cast(out_vector.data()));
  auto const result = [&] {
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    T const value = out_vector[0];
    out_vector[0] = sentinel<T>();
    return value;
  };
  {
    cascade_memory const before;
    // the size query, twice: outside a capture (nothing written), then captured (nothing enqueued)
    std::size_t const needed = call(stream.get(), out, form::temp_query, nullptr, 0);
    CHECK(needed >= 1);
    CHECK(same_bits(result(), sentinel<T>()));
    CHECK(captured_nodes(stream.get(), [&] { CHECK(call(stream.get(), out, form::temp_query, nullptr, 0) == needed); }) == 0);
    device_bytes const storage(needed + 256);
    CHECK_THROWS_AS(call(stream.get(), out, form::temp_too_small, storage.get(), needed - 1), std::invalid_argument);
    CHECK(same_bits(result(), sentinel<T>()));
    // the calls that bring their own storage, on a stream cascade has not seen: no state made for it
    call(stream.get(), out, form::temp, storage.get(), needed);
    T const temp = result();
    call(stream.get(), out, form::temp_unaligned, storage.get() + 1, needed);  // CUB's slack covers any start
    T const unaligned = result();
    allocation_log log_3_0, log_3_1;
    call(stream.get(), out, form::resource_3_0, &log_3_0, 0);
    CHECK(log_3_0.balanced());
    T const with_3_0 = result();
    call(stream.get(), out, form::resource_3_1, &log_3_1, 0);
    CHECK(log_3_1.balanced());
    T const with_3_1 = result();
    CHECK(log_3_0.allocations == log_3_1.allocations);
    CHECK(before.untouched());
    call(stream.get(), out, form::pool_resource, nullptr, 0);
    T const with_pool = result();
    CHECK(before.untouched());

    call(stream.get(), out, form::plain, nullptr, 0);
    T const plain = result();
    CHECK(same_bits(temp, plain));
    CHECK(same_bits(unaligned, plain));
    CHECK(same_bits(with_3_0, plain));
    CHECK(same_bits(with_3_1, plain));
    CHECK(same_bits(with_pool, plain));
  }
}

// A user's pool, for memory_pool_resource.
cudaMemPool_t user_pool() {
  static cudaMemPool_t const pool = [] {
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = cascade::detail::current_device().ordinal;
    cudaMemPool_t p = nullptr;
    CASCADE_CUDA_CHECK(cudaMemPoolCreate(&p, &props));
    return p;
  }();
  return pool;
}

// Calls reduce_into (or, with a transform, transform_reduce_into) in the given form; returns the
// query's size for form::temp_query.
template <class Policy, class It, class T, class Transform = void>
struct reduce_call {
  Policy policy;
  It first;
  long long n;
  T init;

  template <class Out, class... Extra>
  void plain(cudaStream_t s, Out out, Extra&&... extra) const {
    if constexpr (std::is_void_v<Transform>)
      cascade::reduce_into(policy.on(s), first, first + n, out, init, cascade::plus{}, extra...);
    else
      cascade::transform_reduce_into(policy.on(s), first, first + n, out, init, cascade::plus{}, Transform{}, extra...);
  }
  template <class Out>
  void temp(void* d_temp, std::size_t& bytes, cudaStream_t s, Out out) const {
    if constexpr (std::is_void_v<Transform>)
      cascade::reduce_into(d_temp, bytes, policy.on(s), first, first + n, out, init, cascade::plus{});
    else
      cascade::transform_reduce_into(d_temp, bytes, policy.on(s), first, first + n, out, init, cascade::plus{},
                                     Transform{});
  }
  template <class Out>
  std::size_t operator()(cudaStream_t s, Out out, form f, void* arg, std::size_t bytes) const {
    switch (f) {
      case form::plain: plain(s, out); break;
      case form::temp_query: {
        std::size_t size = 12345;
        temp(nullptr, size, s, out);
        return size;
      }
      case form::temp_too_small:
      case form::temp:
      case form::temp_unaligned: temp(arg, bytes, s, out); break;
      case form::resource_3_0: {
        resource_cccl_3_0 resource(static_cast<allocation_log*>(arg));
        plain(s, out, resource);
        break;
      }
      case form::resource_3_1: {
        resource_cccl_3_1 resource(static_cast<allocation_log*>(arg));
        plain(s, out, resource);
        break;
      }
      case form::pool_resource: plain(s, out, cascade::memory_pool_resource{user_pool()}); break;
    }
    return 0;
  }
};

std::vector<long long> sizes_around(long long tile) {
  std::vector<long long> s = {0, 1, tile - 1, tile, tile + 1, 4099, 65521, 1000003, (1 << 20) + 1};
  std::erase_if(s, [](long long n) { return n < 0; });
  return s;
}

// Ints into a fancy output (finish::atomic and finish::host then take scratch for it), floats into a
// T*; floats of a finish that is not deterministic are integer-valued, so every order gives one sum.
template <class Policy>
constexpr bool deterministic_v = true;  // default_policy: every table's finishes are
template <int B, int C, class Tree, class Finish>
constexpr bool deterministic_v<cascade::policy<B, C, Tree, Finish>> = Finish::deterministic;

template <class Policy>
void check_policy(Policy policy, std::vector<long long> const& sizes, std::mt19937_64& rng) {
  for (long long n : sizes) {
    CAPTURE(n);
    std::uniform_int_distribution<int> ints(-1000, 1000);
    std::uniform_real_distribution<float> reals(-1.0f, 1.0f);
    std::vector<int> xs(n);
    std::vector<float> fs(n);
    for (auto& x : xs) x = ints(rng);
    for (auto& f : fs) f = deterministic_v<Policy> ? reals(rng) : static_cast<float>(ints(rng) % 9);
    thrust::device_vector<int> dx(xs.begin(), xs.end());
    thrust::device_vector<float> df(fs.begin(), fs.end());
    int const* px = thrust::raw_pointer_cast(dx.data());
    float const* pf = thrust::raw_pointer_cast(df.data());
    check_forms<int, thrust::device_ptr<int>>(reduce_call<Policy, int const*, int>{policy, px, n, 7});
    check_forms<float, float*>(reduce_call<Policy, float const*, float>{policy, pf, n, 0.5f});
  }
}

template <class Finish>
using policy_for = cascade::policy<256, 4, cascade::tree::shuffle, Finish>;

// Finishes of the earlier shape (run(first, n, d_out, init, op, stream), scratch_bytes(n) beside it),
// which the dispatch still calls through its adapter: two passes over at most 8 blocks (each with a
// tile), with and without scratch_bytes.
struct earlier_shape_finish : cascade::finish::tag {
  static constexpr char const* name = "test::earlier_shape_finish";
  static constexpr bool preserves_order = true;
};
struct earlier_shape_unsized_finish : cascade::finish::tag {
  static constexpr char const* name = "test::earlier_shape_unsized_finish";
  static constexpr bool preserves_order = true;
};
template <class Finish>
struct earlier_shape_run {
  template <class Policy, class It, class Offset, class OutIt, class T, class Op>
  static void run(It first, Offset n, OutIt d_out, T init, Op op, cudaStream_t stream) {
    namespace detail = cascade::detail;
    auto const tiles = detail::ceil_div(n, static_cast<Offset>(Policy::tile_size));
    unsigned const grid = tiles < 8 ? static_cast<unsigned>(tiles) : 8u;
    detail::scratch_buffer scratch(sizeof(T) * 8, stream, Finish::name);
    detail::launch_reduce_tiles<Policy, T>(first, n, op, detail::store_partial<T>{scratch.as<T>()}, grid, stream);
    detail::launch_reduce_tiles<Policy, T>(static_cast<T const*>(scratch.as<T>()), grid, op,
                                           detail::store_result<OutIt, T, Op>{d_out, init, op}, 1, stream);
  }
};

}  // namespace

template <>
struct cascade::detail::finish_dispatch<earlier_shape_finish> : earlier_shape_run<earlier_shape_finish> {
  template <class Policy, class It, class Offset, class OutIt, class T, class Op>
  static std::size_t scratch_bytes(Offset) {
    return scratch_piece_bytes(sizeof(T) * 8);
  }
};
template <>
struct cascade::detail::finish_dispatch<earlier_shape_unsized_finish>
    : earlier_shape_run<earlier_shape_unsized_finish> {};

namespace {

struct square {
  __host__ __device__ float operator()(float x) const { return x * x; }
};

}  // namespace

TEST_SUITE("gpu") {

TEST_CASE("every finish: the temporary-storage and resource forms give the plain call's bits and use none of cascade's memory") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x7001);
  cascade::detail::for_each_type(compiled_finishes{}, [&](auto finish) {
    using Finish = decltype(finish);
    INFO(Finish::name);
    check_policy(policy_for<Finish>{}, sizes_around(policy_for<Finish>::tile_size), rng);
  });
}

TEST_CASE("a finish of the earlier shape runs through the adapter: every form, and a clear error unsized") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x7005);
  check_policy(policy_for<earlier_shape_finish>{}, sizes_around(policy_for<earlier_shape_finish>::tile_size), rng);
  // Without scratch_bytes the plain call runs; the temporary-storage query says what to change.
  std::vector<int> xs(100003, 2);
  thrust::device_vector<int> dx(xs.begin(), xs.end());
  thrust::device_vector<int> out(1, 0);
  int const* px = thrust::raw_pointer_cast(dx.data());
  int* d_out = thrust::raw_pointer_cast(out.data());
  using unsized = policy_for<earlier_shape_unsized_finish>;
  CHECK(cascade::reduce(unsized{}, px, px + xs.size(), 1) == 200007);
  std::size_t bytes = 0;
  CHECK_THROWS_WITH_AS(cascade::reduce_into(nullptr, bytes, unsized{}, px, px + xs.size(), d_out, 1, cascade::plus{}),
                       doctest::Contains("has the earlier run(first, n, d_out, init, op, stream) and no scratch_bytes"),
                       std::invalid_argument);
}

TEST_CASE("default_policy: every form at the sizes around each tuning range bound") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x7002);
  std::vector<long long> sizes = sizes_around(4096);
  auto const add_bounds = [&](auto gpu) {
    using entry = typename cascade::tuning::table<decltype(gpu), 4, cascade::tuning::op_kind::sum>::type;
    [&]<class... R>(cascade::tuning::ranges<R...>) {
      for (long long bound : {R::max_n...})
        if (bound > 0 && bound < (1 << 23)) sizes.insert(sizes.end(), {bound, bound + 1});
    }(entry{});
  };
  [&]<class... C>(cascade::tuning::gpu_list<C...>) { (add_bounds(C{}), ...); }(cascade::tuning::tuned_gpus{});
  check_policy(cascade::default_policy{}, sizes, rng);
}

TEST_CASE("transform_reduce_into: the temporary-storage and resource forms give the plain call's bits") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x7003);
  std::uniform_real_distribution<float> reals(-1.0f, 1.0f);
  for (long long n : {0ll, 1ll, 4097ll, 1000003ll}) {
    CAPTURE(n);
    std::vector<float> fs(n);
    for (auto& f : fs) f = reals(rng);
    thrust::device_vector<float> df(fs.begin(), fs.end());
    float const* pf = thrust::raw_pointer_cast(df.data());
    check_forms<float, float*>(reduce_call<policy_for<cascade::finish::flagged>, float const*, float, square>{{}, pf, n, 1.0f});
    check_forms<float, float*>(reduce_call<cascade::default_policy, float const*, float, square>{{}, pf, n, 1.0f});
  }
}

TEST_CASE("beyond 2^32 items (64-bit offsets): every form equals the closed form") {
  using P = policy_for<cascade::finish::last_block>;
  for (std::uint64_t n : {(1ull << 32) + 17}) {
    CAPTURE(n);
    thrust::counting_iterator<std::uint64_t> count(0);
    std::uint64_t const expected = 5 + (n % 2 == 0 ? (n / 2) * (n - 1) : n * ((n - 1) / 2));
    reduce_call<P, thrust::counting_iterator<std::uint64_t>, std::uint64_t> const call{{}, count, static_cast<long long>(n), 5};
    check_forms<std::uint64_t, std::uint64_t*>(call);
    thrust::device_vector<std::uint64_t> out(1);
    call(nullptr, thrust::raw_pointer_cast(out.data()), form::plain, nullptr, 0);
    CHECK(out[0] == expected);
  }
}

TEST_CASE("a resource passed as a temporary, and one that throws: nothing launched, nothing left allocated") {
  thrust::device_vector<float> d(100000, 1.0f);
  float const* p = thrust::raw_pointer_cast(d.data());
  thrust::device_vector<float> out(1, -1.0f);
  float* o = thrust::raw_pointer_cast(out.data());
  using P = policy_for<cascade::finish::two_pass>;
  cascade::reduce_into(P{}, p, p + 100000, o, 0.0f, cascade::plus{}, cascade::memory_pool_resource{user_pool()});
  CHECK(out[0] == 100000.0f);
  struct refusing {
    void* allocate(cuda::stream_ref, std::size_t, std::size_t) { throw std::bad_alloc(); }
    void deallocate(cuda::stream_ref, void*, std::size_t, std::size_t) {}
  } none;
  out[0] = -1.0f;
  CHECK_THROWS_AS(cascade::reduce_into(P{}, p, p + 100000, o, 0.0f, cascade::plus{}, none), std::bad_alloc);
  CHECK(out[0] == -1.0f);
  // the next plain call takes cascade's pool again (the source was uninstalled on the throw)
  std::uint64_t zero = 0;
  CASCADE_CUDA_CHECK(cudaMemPoolSetAttribute(cascade_memory::pool(), cudaMemPoolAttrUsedMemHigh, &zero));
  cascade::reduce_into(P{}, p, p + 100000, o, 0.0f, cascade::plus{});
  CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
  std::uint64_t high = 0;
  CASCADE_CUDA_CHECK(cudaMemPoolGetAttribute(cascade_memory::pool(), cudaMemPoolAttrUsedMemHigh, &high));
  CHECK(high > 0);
  CHECK(out[0] == 100000.0f);
}

TEST_CASE("pool controls: trim, reserved and used bytes, the release threshold") {
  thrust::device_vector<float> d(1 << 22, 1.0f);
  float const* p = thrust::raw_pointer_cast(d.data());
  using P = policy_for<cascade::finish::two_pass>;
  std::uint64_t const default_threshold = cascade::scratch_release_threshold();
  CHECK(default_threshold == UINT64_MAX);
  CHECK(cascade::reduce(P{}, p, p + d.size(), 0.0f) == static_cast<float>(1 << 22));
  CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(cascade::scratch_reserved_bytes() > 0);  // kept: the threshold keeps everything
  CHECK(cascade::scratch_used_bytes() == 0);
  cascade::scratch_trim();
  CHECK(cascade::scratch_reserved_bytes() == 0);

  cascade::set_scratch_release_threshold(12345);
  std::uint64_t read = 0;
  CASCADE_CUDA_CHECK(cudaMemPoolGetAttribute(cascade_memory::pool(), cudaMemPoolAttrReleaseThreshold, &read));
  CHECK(read == 12345);
  CHECK(cascade::scratch_release_threshold() == 12345);

  cascade::set_scratch_release_threshold(0);  // everything back at each synchronization
  owned_stream const stream;
  CHECK(cascade::reduce(P{}.on(stream.get()), p, p + d.size(), 0.0f) == static_cast<float>(1 << 22));
  CASCADE_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  CHECK(cascade::scratch_reserved_bytes() == 0);
  cascade::set_scratch_release_threshold(default_threshold);
  CHECK(cascade::scratch_release_threshold() == UINT64_MAX);
}

TEST_CASE("argmin_into, argmax_into, minmax_into with a resource or CUB's storage; reduce_into without init") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(cascade_test::base_seed() ^ 0xa7);
  long long const n = 100003;
  std::vector<int> xs(n);
  for (auto& x : xs) x = static_cast<int>(rng() % 1000);
  thrust::device_vector<int> d(xs.begin(), xs.end());
  int const* p = thrust::raw_pointer_cast(d.data());
  using policy = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::last_block>;
  // The plain call, CUB's two phases (a size query that launches nothing, too little storage that
  // throws, then the call) and a resource: one result.
  auto const forms = [&](auto plain, auto temp, auto with_resource, auto out_type) {
    using R = decltype(out_type);
    thrust::device_vector<R> out(3);
    R* o = thrust::raw_pointer_cast(out.data());
    plain(o);
    std::size_t bytes = 0;
    temp(nullptr, bytes, o + 1);
    CHECK(bytes >= 1);
    device_bytes const storage(bytes);
    std::size_t too_few = bytes - 1;
    CHECK_THROWS_AS(temp(storage.get(), too_few, o + 1), std::invalid_argument);
    temp(storage.get(), bytes, o + 1);
    allocation_log log;
    {
      resource_cccl_3_1 resource(&log);
      with_resource(o + 2, resource);
      CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
    }
    CHECK(log.balanced());
    R const a = out[0], b = out[1], c = out[2];
    CHECK(a == b);
    CHECK(a == c);
    return a;
  };
  long long const at_min = std::min_element(xs.begin(), xs.end()) - xs.begin();
  long long const at_max = std::max_element(xs.begin(), xs.end()) - xs.begin();
  auto const lo = forms([&](auto o) { cascade::argmin_into(policy{}, p, p + n, o); },
                        [&](void* t, std::size_t& b, auto o) { cascade::argmin_into(t, b, policy{}, p, p + n, o); },
                        [&](auto o, auto& r) { cascade::argmin_into(policy{}, p, p + n, o, r); }, cascade::indexed<int>{});
  CHECK(lo.index == at_min);
  auto const hi = forms([&](auto o) { cascade::argmax_into(policy{}, p, p + n, o); },
                        [&](void* t, std::size_t& b, auto o) { cascade::argmax_into(t, b, policy{}, p, p + n, o); },
                        [&](auto o, auto& r) { cascade::argmax_into(policy{}, p, p + n, o, r); }, cascade::indexed<int>{});
  CHECK(hi.index == at_max);
  auto const both = forms([&](auto o) { cascade::minmax_into(policy{}, p, p + n, o); },
                          [&](void* t, std::size_t& b, auto o) { cascade::minmax_into(t, b, policy{}, p, p + n, o); },
                          [&](auto o, auto& r) { cascade::minmax_into(policy{}, p, p + n, o, r); },
                          cascade::minmax_result<int>{});
  CHECK(both.min.index == at_min);
  CHECK(both.max.index == at_max);
  thrust::device_vector<int> out(2);
  cascade::reduce_into(policy{}, p, p + n, thrust::raw_pointer_cast(out.data()));  // plus from 0
  cascade::reduce_into(policy{}, p, p + n, thrust::raw_pointer_cast(out.data()) + 1, cascade::minimum{});
  long long sum = 0;
  for (int x : xs) sum += x;
  CHECK(out[0] == sum);
  CHECK(out[1] == xs[at_min]);
}

TEST_CASE("segmented_reduce_into and batched_reduce_into with a resource: the plain call's results") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(cascade_test::base_seed() ^ 0xa8);
  long long const segments = 1000;
  std::vector<long long> offsets(segments + 1, 0);
  for (long long s = 0; s < segments; ++s) offsets[s + 1] = offsets[s] + static_cast<long long>(rng() % 3000);
  long long const n = offsets.back();
  std::vector<int> xs(n);
  for (auto& x : xs) x = static_cast<int>(rng() % 2001) - 1000;
  thrust::device_vector<int> d(xs.begin(), xs.end());
  int const* p = thrust::raw_pointer_cast(d.data());
  thrust::device_vector<int> plain(segments), with(segments);
  auto const check = [&](auto policy) {
    // host offsets: the call copies them into scratch, which the resource must provide
    cascade::segmented_reduce_into(policy, p, offsets.data(), offsets.data() + 1, segments,
                                   thrust::raw_pointer_cast(plain.data()), 0, cascade::plus{});
    allocation_log log;
    {
      resource_cccl_3_1 resource(&log);
      cascade::segmented_reduce_into(policy, p, offsets.data(), offsets.data() + 1, segments,
                                     thrust::raw_pointer_cast(with.data()), 0, cascade::plus{}, resource);
      CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
    }
    CHECK(log.balanced());
    CHECK(log.allocations >= 1);
    CHECK(host_copy(plain.begin(), plain.end()) == host_copy(with.begin(), with.end()));  // not thrust::equal: initcheck
    cascade::batched_reduce_into(policy, p, 100, segments, thrust::raw_pointer_cast(plain.data()), 0, cascade::plus{});
    allocation_log batched_log;
    {
      resource_cccl_3_1 resource(&batched_log);
      cascade::batched_reduce_into(policy, p, 100, segments, thrust::raw_pointer_cast(with.data()), 0, cascade::plus{},
                                   resource);
      CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
    }
    CHECK(batched_log.balanced());
    CHECK(host_copy(plain.begin(), plain.end()) == host_copy(with.begin(), with.end()));  // not thrust::equal: initcheck
  };
  check(cascade::default_policy{});
  check(cascade::segmented_policy<cascade::segment::tiles, 256, 4>{});
}

// One _into call in each of its forms: form(s, extra...) makes the plain call on stream s (with a
// resource when one is passed), two_phase(d_temp, bytes, s) the temporary-storage call. Every form must
// leave the bytes of `out` (reset to a sentinel before each) as the plain call does; the query must
// leave them alone and enqueue nothing (captured, an empty graph); too little storage must throw
// before anything runs; neither form may touch cascade's pool or stream state; a resource gets back
// everything it hands out.
template <class Form, class TwoPhase>
void check_entry_point(char const* name, thrust::device_vector<unsigned char>& out, Form form, TwoPhase two_phase,
                       bool capturable = true) {
  CAPTURE(name);
  owned_stream const stream;  // one cascade has not seen: no state may be made for it
  cudaStream_t const s = stream.get();
  auto const reset = [&] {
    thrust::fill(out.begin(), out.end(), static_cast<unsigned char>(0xab));
    CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
  };
  auto const bytes = [&] {
    CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
    return host_copy(out.begin(), out.end());
  };
  reset();
  auto const untouched = bytes();
  cascade_memory const before;
  std::size_t needed = 0;
  two_phase(nullptr, needed, s);
  CHECK(needed >= 1);
  CHECK(bytes() == untouched);
  if (capturable) {
    std::size_t asked = 0;
    CHECK(captured_nodes(s, [&] { two_phase(nullptr, asked, s); }) == 0);
    CHECK(asked == needed);
  }
  device_bytes const storage(needed + 1);
  std::size_t too_few = needed - 1;
  CHECK_THROWS_AS(two_phase(storage.get(), too_few, s), std::invalid_argument);
  CHECK(bytes() == untouched);
  two_phase(storage.get() + 1, needed, s);  // any start: the query's slack covers it
  auto const with_storage = bytes();
  reset();
  allocation_log log;
  {
    resource_cccl_3_1 resource(&log);
    form(s, resource);
  }
  auto const with_resource = bytes();
  CHECK(log.balanced());
  CHECK(before.untouched());
  reset();
  form(s);
  auto const plain = bytes();
  CHECK(plain != untouched);
  CHECK(with_storage == plain);
  CHECK(with_resource == plain);
}

TEST_CASE("every other _into: CUB's storage and a resource give the plain call's bytes; the query enqueues nothing") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(cascade_test::base_seed() ^ 0xa9);
  long long const n = (1 << 19) + 3;  // past any_of's early-exit bound, so its flag is scratch too
  std::vector<int> xs(n), keys(n);
  int key = 0;
  for (long long i = 0; i < n; ++i) {
    xs[i] = static_cast<int>(rng() % 2001) - 1000;
    if (rng() % 8 == 0) ++key;  // runs of mean length 8
    keys[i] = key;
  }
  thrust::device_vector<int> d(xs.begin(), xs.end()), d_keys(keys.begin(), keys.end());
  int const* p = thrust::raw_pointer_cast(d.data());
  int const* k = thrust::raw_pointer_cast(d_keys.data());
  long long const segments = 1000;
  std::vector<long long> offsets(segments + 1);
  for (long long i = 0; i <= segments; ++i) offsets[i] = i * (n / segments);
  thrust::device_vector<long long> d_offsets(offsets.begin(), offsets.end());  // capturable: on the device
  long long const* o = thrust::raw_pointer_cast(d_offsets.data());
  thrust::device_vector<unsigned char> out(2 * sizeof(int) * n + 64);
  auto* const out_bytes = thrust::raw_pointer_cast(out.data());
  auto* const o64 = reinterpret_cast<long long*>(out_bytes);
  auto* const o32 = reinterpret_cast<int*>(out_bytes);
  auto* const pairs = reinterpret_cast<cascade::indexed<int>*>(out_bytes);
  auto const is_odd = [] __host__ __device__(int x) { return (x & 1) != 0; };
  auto const by_magnitude = [] __host__ __device__(int a, int b) { return (a < 0 ? -a : a) < (b < 0 ? -b : b); };
  auto const negated = [] __host__ __device__(int x) { return -static_cast<long long>(x); };
  // NAME's plain, resource and two-phase forms with these arguments, under the policy P
#define FORMS(NAME, ...)                                                                                        \
  check_entry_point(                                                                                            \
      #NAME "(" #__VA_ARGS__ ")", out,                                                                          \
      [&](cudaStream_t s, auto&... r) { cascade::NAME(P{}.on(s), __VA_ARGS__, r...); },                         \
      [&](void* t, std::size_t& b, cudaStream_t s) { cascade::NAME(t, b, P{}.on(s), __VA_ARGS__); })
  auto const check_under = [&](auto policy, char const* policy_name) {
    using P = decltype(policy);
    CAPTURE(policy_name);
    FORMS(count_into, p, p + n, o64, 7);
    FORMS(count_if_into, p, p + n, o64, is_odd);
    FORMS(inner_product_into, p, p + n, p, o64, 0ll);
    FORMS(inner_product_into, p, p + n, p, o32, 0, cascade::maximum{}, cascade::plus{});
    FORMS(any_of_into, p, p + n, o32, is_odd);
    FORMS(all_of_into, p, p + n, o32, is_odd);
    FORMS(none_of_into, p, p + n, o32, is_odd);
    FORMS(min_element_into, p, p + n, o64);
    FORMS(max_element_into, p, p + n, o64, by_magnitude);
    FORMS(minmax_element_into, p, p + n, o64, o64 + 1);
    FORMS(minmax_element_into, p, p + n, o64, o64 + 1, cascade::last_max);
    FORMS(minmax_element_into, p, p + n, o64, o64 + 1, by_magnitude);
    FORMS(reduce_into, p, p + n, o32);
    FORMS(reduce_into, p, p + n, o32, cascade::maximum{});
    FORMS(reduce_by_key_into, k, k + n, p, o32 + 2, o32 + 2 + n, o64);
    FORMS(reduce_by_key_into, k, k + n, p, o32 + 2, o32 + 2 + n, o64, cascade::maximum{});
    FORMS(reduce_by_key_into, k, k + n, p, o32 + 2, o32 + 2 + n, o64, cascade::plus{}, cascade::equal_to{});
  };
  check_under(cascade::default_policy{}, "default_policy");
  check_under(cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::last_block>{}, "<256, 4, last_block>");
  auto const check_segmented = [&](auto policy, char const* policy_name) {
    using P = decltype(policy);
    CAPTURE(policy_name);
    FORMS(segmented_reduce_into, p, o, o + 1, segments, o32, 0, cascade::plus{});
    FORMS(batched_reduce_into, p, n / segments, segments, o32, 0, cascade::plus{});
    FORMS(segmented_transform_reduce_into, p, o, o + 1, segments, o64, 0ll, cascade::plus{}, negated);
    FORMS(segmented_argmin_into, p, o, o + 1, segments, pairs);
    FORMS(segmented_argmax_into, p, o, o + 1, segments, pairs);
  };
#undef FORMS
  check_segmented(cascade::default_policy{}, "default_policy");
  check_segmented(cascade::segmented_policy<cascade::segment::blocks, 256, 4>{}, "segment::blocks");
  // host offsets: the call copies them into the storage
  check_entry_point(
      "segmented_reduce_into, host offsets", out,
      [&](cudaStream_t s, auto&... r) {
        cascade::segmented_reduce_into(cascade::default_policy{}.on(s), p, offsets.data(), offsets.data() + 1, segments,
                                       o32, 0, cascade::plus{}, r...);
      },
      [&](void* t, std::size_t& b, cudaStream_t s) {
        cascade::segmented_reduce_into(t, b, cascade::default_policy{}.on(s), p, offsets.data(), offsets.data() + 1,
                                       segments, o32, 0, cascade::plus{});
      },
      false);  // host offsets refuse capture
}

}  // TEST_SUITE("gpu")
