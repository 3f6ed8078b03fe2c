// src/measure/candidates.cu: the candidate list of one configuration. Built once per configuration
// (src/measure/meson.build) with CASCADE_MEASURE_ITEM, _ACCUMULATOR, _OP and _NAME defined; it also
// holds the configuration's typed helpers (inputs, CUB and Thrust calls, comparison).
#include <cascade/cascade.cuh>
#include <cascade/tree/cub_block.cuh>
#include <cub/device/device_reduce.cuh>
#include <cuda/functional>
#include <cuda_fp16.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>

#include <cmath>
#include <cstring>

#include <cstdint>
#include <string>
#include <type_traits>

#include "candidates.cuh"
#include "fill.cuh"

#if !defined(CASCADE_MEASURE_ITEM) || !defined(CASCADE_MEASURE_ACCUMULATOR) || !defined(CASCADE_MEASURE_OP) || \
    !defined(CASCADE_MEASURE_NAME)
#error "candidates.cu is built once per configuration, with CASCADE_MEASURE_ITEM, _ACCUMULATOR, _OP and _NAME"
#endif
#define CASCADE_MEASURE_PASTE2(a, b) a##b
#define CASCADE_MEASURE_PASTE(a, b) CASCADE_MEASURE_PASTE2(a, b)

namespace cascade_measure {

// This configuration's own names (not an anonymous namespace: -Dmerge-units=true builds every
// configuration in one translation unit, this file included once each).
namespace CASCADE_MEASURE_PASTE(config_, CASCADE_MEASURE_NAME) {

using item = CASCADE_MEASURE_ITEM;
using accumulator = CASCADE_MEASURE_ACCUMULATOR;
using op = cascade::CASCADE_MEASURE_OP;

template <class Policy>
void run_policy(void const* first, long long n, void* d_out, void const* init, cudaStream_t stream) {
  auto const* in = static_cast<item const*>(first);
  cascade::reduce_into(Policy{}.on(stream), in, in + n, static_cast<accumulator*>(d_out),
                       *static_cast<accumulator const*>(init), op{});
}

// CUB and Thrust get the op they know (cuda::std::plus, cuda::minimum) on the accumulator type; items
// convert to it as they are read, as in cascade.
using reference_op =
    std::conditional_t<std::is_same_v<op, cascade::plus>, cuda::std::plus<accumulator>, cuda::minimum<accumulator>>;

typed_ops make_ops() {
  typed_ops o;
  o.item_bytes = sizeof(item);
  o.accumulator_bytes = sizeof(accumulator);
  o.fill = [](void* d, long long n, unsigned long long seed) { cascade_measure::fill(static_cast<item*>(d), n, seed); };
  o.identity = [](void* init) {
    accumulator const e = cascade::identity<op, accumulator>::value();
    std::memcpy(init, &e, sizeof e);
  };
  o.cub_temp_bytes = [](long long n) {
    std::size_t bytes = 0;
    CASCADE_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, bytes, static_cast<item const*>(nullptr),
                                                 static_cast<accumulator*>(nullptr), n, reference_op{},
                                                 cascade::identity<op, accumulator>::value()));
    return bytes;
  };
  o.cub_reduce = [](void* temp, std::size_t bytes, void const* d, long long n, void* out, cudaStream_t s) {
    CASCADE_CUDA_CHECK(cub::DeviceReduce::Reduce(temp, bytes, static_cast<item const*>(d),
                                                 static_cast<accumulator*>(out), n, reference_op{},
                                                 cascade::identity<op, accumulator>::value(), s));
  };
  o.thrust_reduce = [](void const* d, long long n, void* h_out) {
    auto const* p = static_cast<item const*>(d);  // a raw pointer: device_reference<__half> does not convert
    accumulator const r =
        thrust::reduce(thrust::device, p, p + n, cascade::identity<op, accumulator>::value(), reference_op{});
    std::memcpy(h_out, &r, sizeof r);
  };
  o.cascade_reduce = [](void const* d, long long n, void* h_out) {
    auto const* in = static_cast<item const*>(d);
    accumulator const r =
        cascade::reduce(cascade::default_policy{}, in, in + n, cascade::identity<op, accumulator>::value(), op{});
    std::memcpy(h_out, &r, sizeof r);
  };
  o.agrees = [](void const* a, void const* b) {
    accumulator x, y;
    std::memcpy(&x, a, sizeof x);
    std::memcpy(&y, b, sizeof y);
    if constexpr (std::is_integral_v<accumulator> || !std::is_same_v<op, cascade::plus>) {
      return std::memcmp(&x, &y, sizeof x) == 0 || x == y;
    } else {
      double const tolerance = sizeof(accumulator) == 4 ? 1e-5 : 1e-10;
      return std::abs(double(x) - double(y)) <= tolerance * std::abs(double(y)) + 1e-30;
    }
  };
  o.format = [](void const* v) {
    accumulator x;
    std::memcpy(&x, v, sizeof x);
    if constexpr (std::is_integral_v<accumulator>)
      return std::to_string(static_cast<long long>(x));
    else
      return std::to_string(static_cast<double>(x));
  };
  return o;
}

// A tag's name without its family: "shuffle" for tree::shuffle's "tree::shuffle".
constexpr char const* bare_name(char const* name) {
  char const* bare = name;
  for (char const* p = name; *p != '\0'; ++p)
    if (p[0] == ':' && p[1] == ':') bare = p + 2;
  return bare;
}

// finish::host folds the block results on the host (a host function on the stream): beside busy
// streams its calls wait for them (docs/streams.md, "Concurrency"), so default_policy leaves it out. No
// tag property says "folds on the host" yet, so it is named here.
template <class Finish>
constexpr bool folds_on_host = std::is_same_v<Finish, cascade::finish::host>;

// Finishes a table may name: they keep operand order (one table serves non-commutative ops too), take
// any accumulator type, and wait for no other stream's kernels (tuning/table.cuh checks that); today
// last_block, recursive, two_pass, cluster and flagged.
template <class Finish>
constexpr bool table_finish =
    Finish::preserves_order && !Finish::waits_for_other_streams && !folds_on_host<Finish>;

template <class Policy>
candidate make(std::string group, std::string name = "") {
  using tree = typename Policy::tree_type;
  using finish = typename Policy::finish_type;
  candidate c;
  c.block_size = Policy::block_size;
  c.coarse_factor = Policy::coarse_factor;
  c.tree = bare_name(tree::name);
  c.finish = bare_name(finish::name);
  c.name = name.empty() ? "<" + std::to_string(c.block_size) + ", " + std::to_string(c.coarse_factor) + ", " + c.tree +
                              ", " + c.finish + ">"
                        : name;
  c.group = std::move(group);
  c.table_eligible = table_finish<finish> && !tree::per_thread_results;
  std::string const tree_spelling =
      tree::preserves_order ? "tree::" + c.tree : "tree::by_commutativity<tree::" + c.tree + ", tree::shuffle>";
  c.spelling = "policy<" + std::to_string(c.block_size) + ", " + std::to_string(c.coarse_factor) + ", " +
               tree_spelling + ", finish::" + c.finish + ">";
  c.run = &run_policy<Policy>;
  return c;
}

// Strategies without their own code in this build's targets (finish::cluster in a build for sm_80
// only) are left out: a policy naming them does not compile there.
template <class Finish, int Block, int... Coarse>
void add_shapes(std::vector<candidate>& out) {
  if constexpr (cascade::detail::is_compiled_v<Finish>)
    (out.push_back(make<cascade::policy<Block, Coarse, cascade::tree::shuffle, Finish>>("shape")), ...);
}

template <class Tree, class Finish>
void add_strategy(std::vector<candidate>& out) {
  if constexpr (cascade::detail::is_compiled_v<Tree> && cascade::detail::is_compiled_v<Finish>)
    out.push_back(make<cascade::policy<256, 16, Tree, Finish>>("strategy"));
}

template <class Tree, class... Finish>
void add_strategies(std::vector<candidate>& out) {
  (add_strategy<Tree, Finish>(out), ...);
}

}  // namespace config_<name>

std::vector<candidate> CASCADE_MEASURE_PASTE(candidates_, CASCADE_MEASURE_NAME)() {
  using namespace CASCADE_MEASURE_PASTE(config_, CASCADE_MEASURE_NAME);
  namespace tree = cascade::tree;
  namespace finish = cascade::finish;
  namespace presets = cascade::presets;
  std::vector<candidate> out;

  candidate d;
  d.name = "default_policy";
  d.group = "default";
  d.run = &run_policy<cascade::default_policy>;
  out.push_back(d);

#define CASCADE_PRESET(p) out.push_back(make<presets::p>("preset", #p));
  CASCADE_PRESET(pmpp_simple)
  CASCADE_PRESET(pmpp_convergent)
  CASCADE_PRESET(pmpp_shared)
  CASCADE_PRESET(pmpp_segmented_atomic)
  CASCADE_PRESET(pmpp_coarsened)
  CASCADE_PRESET(harris_reduce1)
  CASCADE_PRESET(harris_reduce2)
  CASCADE_PRESET(harris_reduce3)
  CASCADE_PRESET(harris_reduce4)
  CASCADE_PRESET(harris_reduce5)
  CASCADE_PRESET(harris_reduce6)
  CASCADE_PRESET(harris_reduce7)
  CASCADE_PRESET(blog_naive_atomic)
  CASCADE_PRESET(blog_shared)
  CASCADE_PRESET(blog_warp_unroll)
  CASCADE_PRESET(blog_shuffle)
  CASCADE_PRESET(blog_multi_element)
#undef CASCADE_PRESET

  // Shapes: block size x coarse factor with the single-pass finishes (tree::shuffle keeps order).
  using finish::last_block;
#if CASCADE_MEASURE_FEW
  // A build that only checks that everything compiles (-Dmerge-units=true): one shape a finish, the
  // same code paths as the grid's.
  add_shapes<last_block, 256, 8>(out);
  if constexpr (sizeof(item) <= 2) add_shapes<last_block, 256, 64>(out);
  add_shapes<finish::flagged, 256, 8>(out);
  add_shapes<finish::cluster, 512, 8>(out);
#else
  add_shapes<last_block, 128, 4, 8, 16, 32>(out);
  add_shapes<last_block, 256, 4, 8, 16, 32>(out);
  add_shapes<last_block, 512, 4, 8, 16, 32>(out);
  add_shapes<last_block, 1024, 4, 8, 16, 32>(out);
  if constexpr (sizeof(item) <= 2) {  // one 16-byte load per thread is 8 or 16 items
    add_shapes<last_block, 256, 64>(out);
    add_shapes<last_block, 512, 64>(out);
  }
  add_shapes<finish::flagged, 128, 4, 8, 16, 32>(out);
  add_shapes<finish::flagged, 256, 4, 8, 16, 32>(out);
  add_shapes<finish::flagged, 512, 4, 8, 16, 32>(out);
  add_shapes<finish::flagged, 1024, 4, 8, 16, 32>(out);
  add_shapes<finish::cluster, 256, 8, 16>(out);
  add_shapes<finish::cluster, 512, 4, 8, 16, 32>(out);
  add_shapes<finish::cluster, 1024, 4, 8, 16, 32>(out);
#endif
  // Strategies: tree x finish at <256, 16>.
  add_strategies<tree::sequential, finish::recursive, finish::last_block, finish::two_pass, finish::atomic,
                 finish::cooperative>(out);
  add_strategies<tree::shuffle, finish::recursive, finish::two_pass, finish::atomic, finish::cooperative, finish::host>(
      out);
  add_strategies<tree::unrolled, finish::recursive, finish::last_block, finish::atomic>(out);
  add_strategies<tree::redux, finish::recursive, finish::last_block, finish::atomic>(out);
  add_strategies<tree::cub_block, finish::recursive, finish::last_block, finish::two_pass, finish::atomic,
                 finish::cooperative>(out);
  add_strategies<tree::none, finish::atomic>(out);
  return out;
}

typed_ops CASCADE_MEASURE_PASTE(ops_, CASCADE_MEASURE_NAME)() {
  return CASCADE_MEASURE_PASTE(config_, CASCADE_MEASURE_NAME)::make_ops();
}

}  // namespace cascade_measure
