// cascade/finish/all.cuh: the registry of finishing strategies, one line each. Tests, bench, tuner and
// the compile-time messages that name alternatives iterate this list, and test/meson.build reads its
// names (the lines between the registry markers), so adding a finish is its header plus one line here.
#pragma once

#include "../detail/meta/arch.cuh"
#include "../detail/meta/type_list.cuh"
#include "atomic.cuh"
#include "cluster.cuh"
#include "cooperative.cuh"
#include "flagged.cuh"
#include "host.cuh"
#include "last_block.cuh"
#include "recursive.cuh"
#include "tag.cuh"
#include "two_pass.cuh"

namespace cascade::finish {

using all = detail::type_list<
    // registry:begin
    recursive,
    atomic,
    host,
    two_pass,
    last_block,
    flagged,
    cooperative,
    cluster
    // registry:end
    >;

// The ones with their own code in some target of this translation unit (detail/meta/arch.cuh): what
// programs compiled for older architectures only iterate (naming the others does not compile there).
using compiled = detail::filter_t<all, detail::is_compiled>;

}  // namespace cascade::finish

namespace cascade::detail {

template <class Dependent>
struct finish_registry {
  using type = finish::all;
};

}  // namespace cascade::detail
