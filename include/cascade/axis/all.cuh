// cascade/axis/all.cuh: the registry of axis owners, one line each. Tests, bench and the axis default
// iterate this list (and segment/all.cuh's: every segment owner reduces axes too), so adding an owner
// is its header plus one line here.
#pragma once

#include "../detail/meta/type_list.cuh"
#include "blocks.cuh"
#include "columns.cuh"
#include "tag.cuh"

namespace cascade::axis {

using all = detail::type_list<
    // registry:begin
    columns,
    blocks
    // registry:end
    >;

}  // namespace cascade::axis
