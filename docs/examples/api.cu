// The examples of docs/api.md: each region between "// [name]" and "// [/name]" is shown there under
// that name. test/algorithms/docs_test.cu compiles this file and runs it on the GPU; main returns 0 when every
// example got the answer it states.
#include <cascade/cascade.cuh>
#include <cascade/tree/cub_block.cuh>
#include <cascade/cross_check.cuh>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/sequence.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <vector>

// [non_commutative_op]
struct mat2 {  // 2x2 matrices of uint32: the product is associative, not commutative
  std::uint32_t a, b, c, d;
};
struct mat2_product {
  __host__ __device__ mat2 operator()(mat2 x, mat2 y) const {
    return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
  }
};
// [/non_commutative_op]

// [idempotent_op]
struct latest {  // the later of two times: it returns one of its operands, so it absorbs one given twice
  static constexpr bool idempotent = true;
  __host__ __device__ float operator()(float a, float b) const { return a < b ? b : a; }
};
// [/idempotent_op]

// [identity_specialization]
struct longest {  // a user op: the longer of two lengths
  __host__ __device__ int operator()(int a, int b) const { return a < b ? b : a; }
};
template <>
struct cascade::identity<longest, int> {
  __host__ __device__ static constexpr int value() { return 0; }
};
// [/identity_specialization]

namespace api_examples {

int failures = 0;
void expect(bool ok, char const* what) {
  if (!ok) {
    std::printf("docs/api.md example failed: %s\n", what);
    ++failures;
  }
}

void run() {
  thrust::device_vector<float> v(1000);
  thrust::sequence(v.begin(), v.end());  // 0, 1, ..., 999
  float const* d = thrust::raw_pointer_cast(v.data());
  long long const n = 1000;
  thrust::device_vector<int> w(1000, 3);
  int const* ints = thrust::raw_pointer_cast(w.data());

  {
    // [reduce]
    float sum = cascade::reduce(d, d + n, 0.0f);                                   // default_policy, plus
    float top = cascade::reduce(cascade::default_policy{}, d, d + n, -1.0f, cascade::maximum{});
    float low = cascade::reduce(cascade::default_policy{}, d, d + n, cascade::minimum{});  // init: +inf
    float all = cascade::reduce(cascade::default_policy{}, d, d + n);              // plus from 0
    // [/reduce]
    expect(sum == 499500.0f && top == 999.0f && low == 0.0f && all == 499500.0f, "reduce");
  }
  {
    // [reduce_into]
    thrust::device_vector<float> out(1);
    cudaStream_t stream;
    cudaStreamCreate(&stream);
    cascade::reduce_into(cascade::default_policy{}.on(stream), d, d + n, out.data(), 0.0f, cascade::plus{});
    cudaStreamSynchronize(stream);  // reduce_into does not wait
    cudaStreamDestroy(stream);
    // [/reduce_into]
    expect(out[0] == 499500.0f, "reduce_into");
  }
  {
    // [policy]
    using my_policy = cascade::policy<512, 8, cascade::tree::shuffle, cascade::finish::last_block>;
    static_assert(cascade::is_policy_v<my_policy> && my_policy::tile_size == 4096);
    float sum = cascade::reduce(my_policy{}.on(cudaStreamPerThread), d, d + n, 0.0f);
    // [/policy]
    expect(sum == 499500.0f, "policy");
  }
  {
    // [default_policy]
    float sum = cascade::reduce(cascade::default_policy{}, d, d + n, 0.0f);  // the table's policy for n
    // [/default_policy]
    expect(sum == 499500.0f, "default_policy");
  }
  {
    // [tuning]
    namespace tuning = cascade::tuning;
    static_assert(tuning::item_bytes_of<float> == 4 && tuning::op_kind_of<cascade::plus> == tuning::op_kind::sum);
    using entry = tuning::table<tuning::sm90_h200, 4, tuning::op_kind::sum>::type;  // float, int32 sums on an H200
    // on any device, the table an H100 uses:
    float h100_sum = cascade::reduce(cascade::tuned_policy<tuning::sm90_h100>{}, d, d + n, 0.0f);
    // [/tuning]
    expect(h100_sum == 499500.0f, "tuned_policy");
    static_assert(!std::is_same_v<entry, void>);
  }
  {
    // [presets]
    float s1 = cascade::reduce(cascade::presets::harris_reduce1{}, d, d + n, 0.0f);  // the slides' kernel 1
    float s7 = cascade::reduce(cascade::presets::harris_reduce7{}, d, d + n, 0.0f);  // ... and kernel 7
    float sp = cascade::reduce(cascade::presets::pmpp_coarsened{}, d, d + n, 0.0f);  // PMPP Fig 10.15
    // [/presets]
    expect(s1 == 499500.0f && s7 == 499500.0f && sp == 499500.0f, "presets");
  }
  {
    // [trees]
    namespace tree = cascade::tree;
    using interleaved = cascade::policy<256, 4, tree::interleaved, cascade::finish::recursive>;
    using redux =  // __reduce_add_sync, sm_80 (tree::shuffle in a program built for older GPUs only)
        cascade::policy<256, 4, cascade::compiled_or_t<tree::redux, tree::shuffle>, cascade::finish::recursive>;
    using cub_tree = cascade::policy<256, 4, tree::cub_block, cascade::finish::recursive>;
    int a = cascade::reduce(interleaved{}, ints, ints + n, 0);
    int b = cascade::reduce(redux{}, ints, ints + n, 0);
    int c = cascade::reduce(cub_tree{}, ints, ints + n, 0);
    // [/trees]
    expect(a == 3000 && b == 3000 && c == 3000, "trees");
  }
  {
    // [by_commutativity]
    using either = cascade::tree::by_commutativity<cascade::tree::sequential, cascade::tree::shuffle>;
    using p = cascade::policy<256, 16, either, cascade::finish::recursive>;
    int sum = cascade::reduce(p{}, ints, ints + n, 0);  // plus is commutative: tree::sequential
    // [/by_commutativity]
    expect(sum == 3000, "by_commutativity");
  }
  {
    // [finishes]
    namespace finish = cascade::finish;
    using atomic = cascade::policy<256, 8, cascade::tree::shuffle, finish::atomic>;           // atomicAdd
    using single_pass = cascade::policy<256, 8, cascade::tree::shuffle, finish::last_block>;  // one launch
    using on_host = cascade::policy<256, 8, cascade::tree::shuffle, finish::host>;            // CPU folds
    using cluster =  // DSMEM, sm_90 (finish::last_block in a program built for older GPUs only)
        cascade::policy<512, 8, cascade::tree::shuffle, cascade::compiled_or_t<finish::cluster, finish::last_block>>;
    using flagged = cascade::policy<512, 8, cascade::tree::shuffle, finish::flagged>;  // one launch, no fence
    int a = cascade::reduce(atomic{}, ints, ints + n, 0);
    int b = cascade::reduce(single_pass{}, ints, ints + n, 0);
    int c = cascade::reduce(on_host{}, ints, ints + n, 0);
    int e = cascade::reduce(cluster{}, ints, ints + n, 0);
    int f = cascade::reduce(flagged{}, ints, ints + n, 0);
    // [/finishes]
    expect(a == 3000 && b == 3000 && c == 3000 && e == 3000 && f == 3000, "finishes");
  }
  {
    // [graphs]
    using policy = cascade::policy<256, 8, cascade::tree::shuffle, cascade::finish::host>;  // any finish
    thrust::device_vector<int> out(1);
    int* d_out = thrust::raw_pointer_cast(out.data());
    cudaStream_t stream;
    cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    cudaGraph_t graph;
    cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
    cascade::reduce_into(policy{}.on(stream), ints, ints + n, d_out, 0, cascade::plus{});  // reduce() would throw
    cudaStreamEndCapture(stream, &graph);
    cudaGraphExec_t exec;
    cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphDestroy(graph);  // the executable graph keeps what the call needs
    for (int replay = 0; replay < 3; ++replay) cudaGraphLaunch(exec, stream);  // reads ints anew each time
    cudaStreamSynchronize(stream);
    int const replayed = out[0];
    cudaGraphExecDestroy(exec);
    cudaStreamDestroy(stream);
    // [/graphs]
    expect(replayed == 3000, "graphs");
  }
  {
    // [prepare]
    using policy = cascade::policy<512, 4, cascade::tree::shuffle, cascade::finish::flagged>;
    cudaStream_t stream;
    cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    // At start-up: load every kernel reduce and reduce_into may launch for up to n items, and make the
    // stream's own state, so that later calls never wait for kernels of other streams.
    cascade::prepare(policy{}.on(stream), ints, ints + n, 0, cascade::plus{});
    int const total = cascade::reduce(policy{}.on(stream), ints, ints + 500, 0, cascade::plus{});  // no load
    cudaStreamDestroy(stream);
    // [/prepare]
    expect(total == 1500, "prepare");
  }
  {
    // [ops]
    auto p = cascade::default_policy{};
    thrust::device_vector<unsigned> u(4);
    u[0] = 12; u[1] = 10; u[2] = 6; u[3] = 7;
    unsigned const* x = thrust::raw_pointer_cast(u.data());
    unsigned s = cascade::reduce(p, x, x + 4, cascade::plus{});         // 35
    unsigned m = cascade::reduce(p, x, x + 4, cascade::multiplies{});   // 5040
    unsigned lo = cascade::reduce(p, x, x + 4, cascade::minimum{});     // 6
    unsigned hi = cascade::reduce(p, x, x + 4, cascade::maximum{});     // 12
    unsigned all = cascade::reduce(p, x, x + 4, cascade::logical_and{});  // 1: all nonzero
    unsigned any = cascade::reduce(p, x, x + 4, cascade::logical_or{});   // 1
    unsigned a = cascade::reduce(p, x, x + 4, cascade::bit_and{});      // 0b0000 = 0
    unsigned o = cascade::reduce(p, x, x + 4, cascade::bit_or{});       // 0b1111 = 15
    unsigned e = cascade::reduce(p, x, x + 4, cascade::bit_xor{});      // 12^10^6^7 = 7
    // [/ops]
    expect(s == 35 && m == 5040 && lo == 6 && hi == 12 && all == 1 && any == 1 && a == 0 && o == 15 && e == 7, "ops");
  }
  {
    // [exact]
    thrust::device_vector<float> v(4);
    v[0] = 1e30f; v[1] = 1.0f; v[2] = -1e30f; v[3] = 0.5f;
    float const* x = thrust::raw_pointer_cast(v.data());
    float plain = cascade::reduce(x, x + 4, 0.0f);                              // 0.5 or 1.5: the grouping decides
    float exact = cascade::reduce(x, x + 4, 0.0f, cascade::exact_plus{});       // 1.5, under any policy
    double binned = cascade::reduce(x, x + 4, 0.0, cascade::reproducible_plus{});  // 0: 1 and 0.5 lie below
                                                                                  // 1e30's levels, always
    auto product = [x] __device__(int i) { return double(x[i]) * double(x[i]); };  // exact in double
    auto i = thrust::counting_iterator<int>(0);
    double squares = cascade::transform_reduce(cascade::default_policy{}, i, i + 4, 0.0, cascade::exact_plus{},
                                               product);  // 2 x0^2 + 1.25, rounded once
    // [/exact]
    double const x0 = 1e30f;
    expect(exact == 1.5f && binned == 0.0 && squares == 2 * x0 * x0 && (plain == 0.5f || plain == 1.5f || plain == 0.0f),
           "exact");
  }
  {
    // [segmented]
    // Rows of a 3 x 4 matrix (batched_reduce: segments of one size, no offsets), and ranges given by offsets.
    thrust::device_vector<int> m(12, 1);
    thrust::device_vector<long long> row_sums(3), sums(3);
    cascade::batched_reduce_into(cascade::default_policy{}, m.data(), 4, 3, row_sums.data(), 0ll, cascade::plus{});
    thrust::device_vector<int> offsets(std::vector<int>{0, 2, 2, 12});  // segment 1 is empty: it gets init
    int const* o = thrust::raw_pointer_cast(offsets.data());
    using by_warps = cascade::policy<256, 4, cascade::tree::shuffle, cascade::segment::warp<8>>;  // 8 lanes a segment
    cascade::segmented_reduce_into(by_warps{}, m.data(), o, o + 1, 3, sums.data(), 100ll, cascade::plus{});
    using by_tiles = cascade::segmented_policy<cascade::segment::tiles, 256, 16>;  // owner first; 4096-item tiles
    cascade::segmented_reduce(by_tiles{}, m.data(), o, o + 1, 3, sums.data(), 100ll, cascade::plus{});  // the same (first name)
    cudaDeviceSynchronize();  // ordered on the policy's stream; the host does not wait
    // [/segmented]
    expect(row_sums[0] == 4 && row_sums[2] == 4 && sums[0] == 102 && sums[1] == 100 && sums[2] == 110, "segmented");
  }
  {
    // [segmented_hint]
    // Offsets only the device holds, and a caller who knows every segment is about 16K items long.
    thrust::device_vector<float> x(4 * 16384, 0.5f);
    std::vector<int> h_offsets = {0, 16384, 2 * 16384, 3 * 16384, 4 * 16384};
    thrust::device_vector<int> offsets(h_offsets);
    int const* o = thrust::raw_pointer_cast(offsets.data());
    thrust::device_vector<float> sums(4);
    cascade::segmented_reduce_into(cascade::default_policy{}, x.data(), o, o + 1, 4, sums.data(), 0.0f, cascade::plus{},
                                   cascade::segment_lengths::about(16384));  // 8192 each
    cudaDeviceSynchronize();
    // [/segmented_hint]
    expect(sums[0] == 8192.0f && sums[3] == 8192.0f, "segmented hint");
  }
  {
    // [segmented_derived]
    // Per-segment sums of squares, and where each segment's smallest item is (its offset in the segment).
    thrust::device_vector<float> x(std::vector<float>{3, 1, 2, 5, 4, 0.5f});
    thrust::device_vector<int> offsets(std::vector<int>{0, 3, 3, 6});  // segment 1 is empty
    int const* o = thrust::raw_pointer_cast(offsets.data());
    thrust::device_vector<float> squares(3);
    thrust::device_vector<cascade::indexed<float>> lowest(3);
    auto square = [] __host__ __device__(float v) { return v * v; };
    cascade::segmented_transform_reduce(cascade::default_policy{}, x.data(), o, o + 1, 3, squares.data(), 0.0f,
                                        cascade::plus{}, square);  // 14, 0, 41.25
    cascade::segmented_argmin(cascade::default_policy{}, x.data(), o, o + 1, 3, lowest.data());
    // lowest: {1, 1.0f}, {-1, +inf} (empty), {2, 0.5f}
    cudaDeviceSynchronize();
    // [/segmented_derived]
    cascade::indexed<float> const l0 = lowest[0], l1 = lowest[1], l2 = lowest[2];
    expect(squares[0] == 14.0f && squares[1] == 0.0f && squares[2] == 41.25f && l0.index == 1 && l0.value == 1.0f &&
               l1.index == -1 && std::isinf(l1.value) && l2.index == 2 && l2.value == 0.5f,
           "segmented derived");
    // the _into names are the same calls
    thrust::device_vector<float> squares_into(3);
    thrust::device_vector<cascade::indexed<float>> lowest_into(3), highest(3);
    cascade::segmented_transform_reduce_into(cascade::default_policy{}, x.data(), o, o + 1, 3, squares_into.data(),
                                             0.0f, cascade::plus{}, square);
    cascade::segmented_argmin_into(cascade::default_policy{}, x.data(), o, o + 1, 3, lowest_into.data());
    cascade::segmented_argmax_into(cascade::default_policy{}, x.data(), o, o + 1, 3, highest.data());
    cudaDeviceSynchronize();
    cascade::indexed<float> const h0 = highest[0], h2 = highest[2], i2 = lowest_into[2];
    expect(thrust::host_vector<float>(squares_into) == thrust::host_vector<float>(squares) && i2.index == 2 && i2.value == 0.5f && h0.index == 0 && h0.value == 3.0f &&
               h2.index == 0 && h2.value == 5.0f,
           "segmented _into names");
  }
  {
    // [cccl_ops]
    thrust::device_vector<int> v(4);
    v[0] = 12; v[1] = -10; v[2] = 6; v[3] = 7;
    int const* x = thrust::raw_pointer_cast(v.data());
    int s = cascade::reduce(x, x + 4, cuda::std::plus<>{});                   // 15: init is plus's identity
    int lo = cascade::reduce(x, x + 4, cuda::minimum<>{});                    // -10
    int hi = cascade::reduce(x, x + 4, thrust::maximum<int>{});               // 12
    int e = cascade::reduce(x, x + 4, cuda::std::bit_xor<>{});                // 12 ^ -10 ^ 6 ^ 7
    using atomic = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::atomic>;
    int t = cascade::reduce(atomic{}, x, x + 4, 100, cuda::std::plus<int>{});  // 115: hardware atomicAdd
    // [/cccl_ops]
    expect(s == 15 && lo == -10 && hi == 12 && e == (12 ^ -10 ^ 6 ^ 7) && t == 115, "cccl ops");
  }
  {
    // [semantics]
    thrust::device_vector<float> w(5);
    w[0] = 3.0f; w[1] = -0.0f; w[2] = std::numeric_limits<float>::quiet_NaN(); w[3] = 0.0f; w[4] = -7.0f;
    float const* y = thrust::raw_pointer_cast(w.data());
    float lo = cascade::reduce(y, y + 5, cascade::minimum{});           // NaN, the same bits under every policy
    float lo_number = cascade::reduce(y, y + 5, cascade::minimum_number{});  // -7: NaN ignored (numpy's nanmin)
    float hi_number = cascade::reduce(y, y + 5, cascade::maximum_number{});  // 3
    float zero = cascade::reduce(y + 1, y + 2, 0.0f, cascade::minimum{});    // -0: -0 is below +0
    cascade::indexed<float> first_nan = cascade::argmin(cascade::default_policy{}, y, y + 5);  // index 2
    // [/semantics]
    std::uint32_t lo_bits;
    std::memcpy(&lo_bits, &lo, sizeof lo_bits);
    expect(lo_bits == 0x7fffffffu && lo_number == -7.0f && hi_number == 3.0f && zero == 0.0f && std::signbit(zero) &&
               first_nan.index == 2 && std::isnan(first_nan.value),
           "semantics");
  }
  {
    // [identity]
    static_assert(cascade::identity<cascade::plus, int>::value() == 0);
    static_assert(cascade::identity<cascade::minimum, int>::value() == INT_MAX);
    float ninf = cascade::identity<cascade::maximum, float>::value();     // -inf
    __half hinf = cascade::identity<cascade::minimum, __half>::value();   // +inf
    static_assert(cascade::has_identity_v<cascade::bit_xor, unsigned>);
    static_assert(!cascade::has_identity_v<cascade::bit_xor, float>);     // no bits to xor
    // [/identity]
    expect(std::isinf(ninf) && ninf < 0 && std::isinf(static_cast<float>(hinf)), "identity");
  }
  {
    // [identity_specialization_use]
    int longest_run = cascade::reduce(cascade::default_policy{}, ints, ints + n, longest{});  // starts from 0
    // [/identity_specialization_use]
    expect(longest_run == 3, "identity specialization");
  }
  {
    // [monoid]
    auto op = cascade::monoid([] __device__(float a, float b) { return fmaxf(a, b); }, -INFINITY);
    float top = cascade::reduce(cascade::default_policy{}, d, d + n, op);  // 999
    float none = cascade::reduce(cascade::default_policy{}, d, d, op);     // empty: -inf
    static_assert(cascade::is_monoid_v<cascade::monoid_op<cascade::maximum, int>>);
    // [/monoid]
    expect(top == 999.0f && std::isinf(none), "monoid");
  }
  {
    // [non_commutative]
    thrust::device_vector<mat2> m(100000, mat2{1, 1, 0, 1});  // [[1,1],[0,1]]^k = [[1,k],[0,1]]
    mat2 const* pm = thrust::raw_pointer_cast(m.data());
    auto op = cascade::non_commutative(mat2_product{});
    static_assert(!cascade::is_commutative_v<decltype(op)>);
    mat2 r = cascade::reduce(cascade::default_policy{}, pm, pm + 100000, mat2{1, 0, 0, 1}, op);  // in order
    // [/non_commutative]
    expect(r.a == 1 && r.b == 100000 && r.c == 0 && r.d == 1, "non_commutative");
  }
  {
    // [idempotent]
    static_assert(cascade::is_idempotent_v<latest> && cascade::is_idempotent_v<cascade::minimum>);
    static_assert(!cascade::is_idempotent_v<cascade::plus>);
    float last = cascade::reduce(cascade::default_policy{}, d, d + 999, -1.0f, latest{});  // 998
    // [/idempotent]
    expect(last == 998.0f, "idempotent");
  }
  {
    // [argmin]
    cascade::indexed<float> lo = cascade::argmin(cascade::default_policy{}, d, d + n);  // {0, 0.0f}
    cascade::indexed<float> hi = cascade::argmax(cascade::default_policy{}, d, d + n);  // {999, 999.0f}
    cascade::minmax_result<float> both = cascade::minmax(cascade::default_policy{}, d, d + n);
    // [/argmin]
    expect(lo.index == 0 && hi.index == 999 && both.min == lo && both.max == hi, "argmin");
  }
  {
    cascade::indexed<float>* d_lo = nullptr;
    cudaMalloc(&d_lo, sizeof *d_lo);
    cudaStream_t stream = nullptr;
    // [argmin_into]
    cascade::argmin_into(cascade::default_policy{}.on(stream), d, d + n, d_lo);  // *d_lo = {0, 0.0f}
    cascade::indexed<float> lo;
    cudaMemcpyAsync(&lo, d_lo, sizeof lo, cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);
    // [/argmin_into]
    expect(lo.index == 0 && lo.value == 0.0f, "argmin_into");
    cudaFree(d_lo);
  }
  {
    // [arg_ops]
    cascade::indexed<int> a{4, 7}, b{2, 7}, c{9, 1};
    cascade::indexed<int> first_min = cascade::arg_min{}(a, b);  // {2, 7}: ties go to the smaller index
    cascade::indexed<int> max = cascade::arg_max{}(a, c);        // {4, 7}
    cascade::minmax_result<int> ma{a, a}, mc{c, c};
    cascade::minmax_result<int> both = cascade::arg_min_max{}(ma, mc);  // {{9, 1}, {4, 7}}
    // [/arg_ops]
    expect(first_min.index == 2 && max.index == 4 && both.min.index == 9 && both.max.index == 4, "arg ops");
  }
  {
    // [transform_reduce]
    auto square = [] __device__(float x) { return x * x; };
    double ss = cascade::transform_reduce(cascade::default_policy{}, d, d + n, 0.0, cascade::plus{}, square);
    // [/transform_reduce]
    expect(ss == 332833500.0, "transform_reduce");  // exact: squares < 2^20, sums in double
  }
  {
    double* d_ss = nullptr;
    cudaMalloc(&d_ss, sizeof(double));
    cudaStream_t stream = nullptr;
    // [transform_reduce_into]
    auto square = [] __device__(float x) { return x * x; };
    cascade::transform_reduce_into(cascade::default_policy{}.on(stream), d, d + n, d_ss, 0.0, cascade::plus{}, square);
    // [/transform_reduce_into]
    double ss = 0;
    cudaMemcpy(&ss, d_ss, sizeof ss, cudaMemcpyDeviceToHost);
    expect(ss == 332833500.0, "transform_reduce_into");
    cudaFree(d_ss);
  }
  {
    // [cross_check]
    cascade::cross_check_result<float> r =
        cascade::cross_check(cascade::presets::harris_reduce4{}, d, d + n, 0.0f, cascade::plus{});
    if (!r.agree) std::printf("cascade %g, CUB %g, allowed %g\n", r.cascade, r.cub, r.tolerance);
    // [/cross_check]
    expect(r.agree && r.cascade == 499500.0f && r.cub == 499500.0f, "cross_check");
  }
  {
    // [big_sizes]
    thrust::counting_iterator<std::int64_t> i(0);
    std::int64_t const count = (std::int64_t(1) << 32) + 1;  // sizes are 64-bit
    std::int64_t odd = cascade::transform_reduce(cascade::default_policy{}, i, i + count, std::int64_t(0),
                                                 cascade::plus{}, [] __device__(std::int64_t k) { return k & 1; });
    // [/big_sizes]
    expect(odd == std::int64_t(1) << 31, "big sizes");
  }
  {
    // [errors]
    bool bad_range = false, bad_call = false, host_pointer = false;
    try {
      cascade::reduce(cascade::default_policy{}, d + 1, d, 0.0f);  // last < first
    } catch (std::invalid_argument const&) {
      bad_range = true;
    }
    try {
      CASCADE_CUDA_CHECK(cudaSetDevice(1 << 20));  // the same check cascade applies to its own calls
    } catch (cascade::cuda_error const& e) {
      bad_call = e.code() == cudaErrorInvalidDevice;  // e.what() names the call and the error
    }
    int device = 0, pageable = 0;  // whether this GPU reads pageable host memory (HMM, ATS)
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, device);
    std::vector<float> on_host(1000, 1.0f);  // malloc'd memory, not the device's
    try {
      host_pointer = cascade::reduce(on_host.data(), on_host.data() + on_host.size(), 0.0f) == 1000.0f && pageable;
    } catch (std::invalid_argument const& e) {  // "cascade: the input is pageable host memory, which ..."
      host_pointer = !pageable;                  // caught before any launch: the context is unharmed
    }
    // [/errors]
    expect(bad_range && bad_call && host_pointer, "errors");
  }
}

}  // namespace api_examples

int main() {
  api_examples::run();
  return api_examples::failures == 0 ? 0 : 1;
}
