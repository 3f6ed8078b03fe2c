// cascade/segment/all.cuh: the registry of segment owners, one line each. Tests, bench and the
// segmented default iterate this list, so adding an owner is its header plus one line here.
#pragma once

#include "../detail/meta/type_list.cuh"
#include "binned.cuh"
#include "block.cuh"
#include "blocks.cuh"
#include "tag.cuh"
#include "thread.cuh"
#include "thread_vectors.cuh"
#include "tiles.cuh"
#include "warp.cuh"

namespace cascade::segment {

using all = detail::type_list<
    // registry:begin
    thread,
    thread_vectors,
    warp<2>,
    warp<4>,
    warp<8>,
    warp<16>,
    warp<32>,
    block,
    blocks,
    binned,
    tiles
    // registry:end
    >;

}  // namespace cascade::segment
