// cascade/tree/cub_block_tag.cuh: tree::cub_block's tag, for the registry (tree/all.cuh), without CUB.
// Its code, cub::BlockReduce, is in tree/cub_block.cuh, which a file that names tree::cub_block
// includes; cascade.cuh leaves it out, so that including cascade pulls in nothing of CUB.
#pragma once

#include "tag.cuh"

namespace cascade::tree {

struct cub_block : tag {
  static constexpr char const* name = "tree::cub_block";
  static constexpr bool preserves_order = true;
  static constexpr char const* code_in = "<cascade/tree/cub_block.cuh>";
};

}  // namespace cascade::tree
