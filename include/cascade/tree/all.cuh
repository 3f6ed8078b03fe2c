// cascade/tree/all.cuh: the registry of tree strategies, one line each. Tests, bench, tuner and the
// compile-time messages that name alternatives iterate this list, and test/meson.build reads its
// names (the lines between the registry markers), so adding a tree is its header plus one line here.
// tree::by_commutativity is a chooser over two of these, not a tree of its own, and is not listed.
#pragma once

#include "../detail/meta/arch.cuh"
#include "../detail/meta/type_list.cuh"
#include "by_commutativity.cuh"
#include "cub_block_tag.cuh"  // (its code, tree/cub_block.cuh, brings CUB: included where it is named)
#include "interleaved.cuh"
#include "interleaved_strided.cuh"
#include "none.cuh"
#include "redux.cuh"
#include "sequential.cuh"
#include "shuffle.cuh"
#include "tag.cuh"
#include "unrolled.cuh"
#include "unrolled_warp.cuh"

namespace cascade::tree {

using all = detail::type_list<
    // registry:begin
    interleaved,
    interleaved_strided,
    sequential,
    unrolled_warp,
    unrolled,
    shuffle,
    redux,
    cub_block,
    none
    // registry:end
    >;

// The ones with their own code in some target of this translation unit (detail/meta/arch.cuh): what
// programs compiled for older architectures only iterate (naming the others does not compile there).
using compiled = detail::filter_t<all, detail::is_compiled>;

}  // namespace cascade::tree

namespace cascade::detail {

template <class Dependent>
struct tree_registry {
  using type = tree::all;
};

}  // namespace cascade::detail
