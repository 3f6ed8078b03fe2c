// cascade::policy: what it exposes and how it carries a stream; default_policy's choice of table by
// GPU class. (That invalid parameters fail to
// compile is checked by compile_fail.py over test/checks/compile_fail/.)
#include <doctest/doctest.h>

#include <cascade/cascade.cuh>

#include <stdexcept>
#include <string>
#include <type_traits>

using seq = cascade::tree::sequential;
using rec = cascade::finish::recursive;

TEST_CASE("policy exposes its parameters at compile time") {
  using p = cascade::policy<128, 4, seq, rec>;
  static_assert(p::block_size == 128 && p::coarse_factor == 4 && p::tile_size == 512);
  static_assert(std::is_same_v<p::tree_type, seq> && std::is_same_v<p::finish_type, rec>);
  static_assert(cascade::is_policy_v<p> && !cascade::is_policy_v<int>);
  static_assert(std::is_empty_v<seq> && std::is_empty_v<rec>);
  static_assert(cascade::policy<32, 1, seq, rec>::tile_size == 32);
  static_assert(cascade::policy<1024, 64, seq, rec>::tile_size == 65536);
  CHECK(p::tile_size == 512);
}

TEST_CASE("a segmented policy is a policy with a segment owner in the finish's place") {
  using owner = cascade::segment::warp<8>;
  using p = cascade::policy<256, 4, cascade::tree::shuffle, owner>;
  static_assert(std::is_same_v<p::owner_type, owner> && p::tile_size == 1024);
  static_assert(cascade::is_policy_v<p> && cascade::is_segmented_policy_v<p>);
  static_assert(!cascade::is_segmented_policy_v<cascade::policy<256, 4, seq, rec>>);
  static_assert(!cascade::is_segmented_policy_v<cascade::default_policy>);
  // segmented_policy: the same type, owner first, with defaults for the rest
  static_assert(std::is_same_v<cascade::segmented_policy<owner>, p>);
  static_assert(std::is_same_v<cascade::segmented_policy<cascade::segment::tiles, 256, 16, seq>,
                               cascade::policy<256, 16, seq, cascade::segment::tiles>>);
  CHECK(cascade::segmented_policy<owner>{}.on(reinterpret_cast<cudaStream_t>(0x1234)).stream() ==
        reinterpret_cast<cudaStream_t>(0x1234));
}

TEST_CASE("policy is stateless except for its stream") {
  using p = cascade::policy<256, 8, seq, rec>;
  constexpr p a{};
  static_assert(a.stream() == nullptr);  // the legacy default stream
  auto const s = reinterpret_cast<cudaStream_t>(0x1234);
  auto const b = a.on(s);
  CHECK(b.stream() == s);
  CHECK(a.stream() == nullptr);  // on() returns a copy
  CHECK(b.on(nullptr).stream() == nullptr);
  CHECK(a.on(cuda::stream_ref{s}).stream() == s);  // CCCL's stream_ref, as cuda::mr takes
  static_assert(std::is_trivially_copyable_v<p> && sizeof(p) == sizeof(cudaStream_t));
}

TEST_CASE("default_policy is a valid policy") {
  static_assert(cascade::is_policy_v<cascade::default_policy>);
  auto const s = reinterpret_cast<cudaStream_t>(0x1234);
  CHECK(cascade::default_policy{}.on(s).stream() == s);
  CHECK(cascade::default_policy{}.stream() == nullptr);
}

TEST_CASE("tuned_policy is a valid policy, whose class says which table it runs") {
  using p = cascade::tuned_policy<cascade::tuning::sm90_h100>;
  static_assert(cascade::is_policy_v<p> && std::is_same_v<p::gpu_class, cascade::tuning::sm90_h100>);
  auto const s = reinterpret_cast<cudaStream_t>(0x1234);
  CHECK(p{}.on(s).stream() == s);
  CHECK(p{}.stream() == nullptr);
}

TEST_CASE("default_policy: which GPU class's table a device uses") {
  using cascade::detail::gpu_class_index;
  using cascade::tuning::gpu_class;
  using cascade::tuning::gpu_list;
  // The committed list: an H100 SXM (3352 GB/s) and an H100 PCIe (2039) take sm90_h100's table, an
  // H200 (4800) sm90_h200's, when the code that runs was compiled for 9.0; other architectures, and
  // code compiled for an older one (running 80 on a 9.0 device: PTX), take the portable table (-1).
  namespace tuning = cascade::tuning;
  using gpus = tuning::tuned_gpus;
  static_assert(std::is_same_v<gpus, gpu_list<tuning::sm90_h100, tuning::sm90_h200>>);
  CHECK(gpu_class_index(gpus{}, 90, 3352, 90) == 0);
  CHECK(gpu_class_index(gpus{}, 90, 2039, 90) == 0);
  CHECK(gpu_class_index(gpus{}, 90, 4400, 90) == 1);
  CHECK(gpu_class_index(gpus{}, 90, 4800, 90) == 1);
  CHECK(gpu_class_index(gpus{}, 90, 4800, 80) == -1);    // a build for sm_80 on an H200
  CHECK(gpu_class_index(gpus{}, 80, 2039, 80) == -1);    // an A100
  CHECK(gpu_class_index(gpus{}, 89, 300, 89) == -1);     // an L4
  CHECK(gpu_class_index(gpus{}, 100, 8000, 90) == -1);   // a B200 running sm_90's PTX
  CHECK(gpu_class_index(gpus{}, 100, 8000, 100) == -1);  // a B200 with its own code: no table yet
  // A longer list: the device's own architecture, then the fastest class of it the device's bandwidth
  // reaches (that architecture's slowest if none).
  using longer = gpu_list<gpu_class<80, 0>, gpu_class<90, 1000>, gpu_class<90, 4000>, gpu_class<100, 0>>;
  CHECK(gpu_class_index(longer{}, 75, 500, 75) == -1);
  CHECK(gpu_class_index(longer{}, 80, 500, 80) == 0);
  CHECK(gpu_class_index(longer{}, 86, 900, 86) == -1);
  CHECK(gpu_class_index(longer{}, 90, 900, 90) == 1);
  CHECK(gpu_class_index(longer{}, 90, 3999, 90) == 1);
  CHECK(gpu_class_index(longer{}, 90, 4000, 90) == 2);
  CHECK(gpu_class_index(longer{}, 100, 100, 100) == 3);
  CHECK(gpu_class_index(longer{}, 120, 100, 120) == -1);
  static_assert(gpu_class_index(longer{}, 90, 5000, 90) == 2);  // a constant expression
  // running_arch: the newest compiled architecture not newer than the device's
  static_assert(cascade::detail::running_arch(90) == 90 || cascade::detail::newest_compiled_arch < 90);
  CHECK(cascade::detail::running_arch(10) == 0);  // older than every target: nothing runs
  // peak_memory_gbs: an H100 SXM's clock (kHz) and bus (bits)
  CHECK(cascade::detail::peak_memory_gbs(2619000, 5120) == 3352);
}

TEST_CASE("strategy tags are recognised and the tag bases are not") {
  static_assert(cascade::tree::is_tree_v<seq> && !cascade::tree::is_tree_v<cascade::tree::tag>);
  static_assert(cascade::finish::is_finish_v<rec> && !cascade::finish::is_finish_v<cascade::finish::tag>);
  static_assert(!cascade::tree::is_tree_v<rec> && !cascade::finish::is_finish_v<seq>);
  static_assert(!seq::preserves_order);
  CHECK(true);
}

// The segmented default's owner for what the host knows of the lengths, or the caller's hint where it
// knows nothing (device offsets): the owner's name, or "unknown" for the unknown_or_skewed policies.
std::string segmented_default_owner(cascade::detail::segment_stats stats, cascade::segment_lengths lengths,
                                    long long num_segments, bool vectors = true) {
  int const row = cascade::detail::default_segment_row(
      stats, cascade::detail::read_hint(lengths, num_segments, "test"), num_segments, vectors);
  std::string name = "unknown";
  int at = 0;
  cascade::detail::for_each_type(cascade::tuning::segmented_table::by_mean{}, [&](auto r) {
    if (at++ == row) name = decltype(r)::policy::owner_type::name;
  });
  return name;
}

// The block size of the segmented default's policy for lengths the host knows (0: the unknown_or_skewed
// policies); fixed: batched_reduce's segments of one size.
int segmented_default_block(cascade::detail::segment_stats stats, long long num_segments, bool vectors, bool fixed) {
  int const row =
      cascade::detail::default_segment_row(stats, cascade::detail::segment_stats{}, num_segments, vectors, fixed);
  int block = 0, at = 0;
  cascade::detail::for_each_type(cascade::tuning::segmented_table::by_mean{}, [&](auto r) {
    if (at++ == row) block = decltype(r)::policy::block_size;
  });
  return block;
}

TEST_CASE("the segmented default: batched_reduce's long segments take blocks of 1024 threads") {
  // below 16K items a segment a tile of 16K items would be mostly empty: <256, 16>
  CHECK(segmented_default_block({4096ll * 4096, 4096}, 4096, true, true) == 256);
  CHECK(segmented_default_block({4096ll * 16383, 16383}, 4096, true, true) == 256);
  CHECK(segmented_default_block({4096ll * 16384, 16384}, 4096, true, true) == 1024);
  CHECK(segmented_default_block({64ll << 20, 1 << 20}, 64, true, true) == 1024);
  // without vector loads (a non-commutative op, an unaligned input) the row below: <256, 16>
  CHECK(segmented_default_block({64ll << 20, 1 << 20}, 64, false, true) == 256);
  // offsets (read from memory, even where the host knows the lengths): <256, 16>
  CHECK(segmented_default_block({4096ll * 16384, 16384}, 4096, true, false) == 256);
  CHECK(segmented_default_block({64ll << 20, 1 << 20}, 64, true, false) == 256);
}

TEST_CASE("the segmented default: a segment_lengths hint chooses where the host knows no lengths") {
  using cascade::segment_lengths;
  cascade::detail::segment_stats const unknown{};  // offsets only the device reads
  CHECK(segmented_default_owner(unknown, {}, 4096) == "unknown");
  CHECK(segmented_default_owner(unknown, segment_lengths::about(16384), 4096) == "segment::blocks");
  CHECK(segmented_default_owner(unknown, segment_lengths::about(1), 1 << 26) == "segment::thread");
  CHECK(segmented_default_owner(unknown, segment_lengths::about(16), 1 << 22) == "segment::thread_vectors");
  CHECK(segmented_default_owner(unknown, segment_lengths::about(16), 1 << 22, false) == "segment::warp<4>");
  CHECK(segmented_default_owner(unknown, segment_lengths::about(64), 1 << 20) == "segment::warp<8>");
  CHECK(segmented_default_owner(unknown, segment_lengths::about(1024), 1 << 16) == "segment::warp<16>");
  // skewed (longest > 2 x mean + 8): the policies for unknown lengths, as when the host reads them
  CHECK(segmented_default_owner(unknown, segment_lengths::mean_and_longest(32, 1 << 20), 1 << 21) == "unknown");
  CHECK(segmented_default_owner(unknown, segment_lengths::mean_and_longest(32, 72), 1 << 21) == "segment::thread_vectors");
  CHECK(segmented_default_owner(unknown, segment_lengths::about(32), 1 << 21, false) == "segment::warp<8>");
  CHECK(segmented_default_owner(unknown, segment_lengths::mean_and_longest(48, 104), 1 << 21) == "segment::warp<8>");
  CHECK(segmented_default_owner(unknown, segment_lengths::mean_and_longest(32, 73), 1 << 21) == "unknown");
  // lengths the host read win over a hint
  CHECK(segmented_default_owner({4096ll * 16384, 16384}, segment_lengths::about(1), 4096) == "segment::blocks");
  // a mean so large that mean x segments overflows still chooses (and does not wrap)
  CHECK(segmented_default_owner(unknown, segment_lengths::about(1ll << 62), 1ll << 20) == "segment::blocks");
  // hints that cannot be
  CHECK_THROWS_AS(cascade::detail::read_hint({-5, -1}, 10, "test"), std::invalid_argument);
  CHECK_THROWS_AS(cascade::detail::read_hint({10, 5}, 10, "test"), std::invalid_argument);
  CHECK_THROWS_AS(cascade::detail::read_hint({-1, 100}, 10, "test"), std::invalid_argument);
  CHECK(cascade::detail::read_hint({}, 10, "test").items == -1);
}
