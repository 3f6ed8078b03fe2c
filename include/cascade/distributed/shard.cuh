// cascade/distributed/shard.cuh: the arguments that say whose data and whose result: a rank's part
// of the data (shard), and the one rank that gets the result (root).
//
//   std::vector<cascade::shard<float const*>> parts{{d0, d0 + n0}, {d1, d1 + n1}};  // rank 0's, rank 1's
//   cascade::reduce_into(comm, cascade::root{0}, policy{}, d, d + n, d_out, 0.0f, cascade::plus{});
#pragma once

#include "../detail/meta/config.cuh"

namespace cascade {

// [first, last) on one rank's GPU. The data a distributed reduce reduces is the shards in rank order.
template <class It>
struct shard {
  It first;
  It last;
};

template <class It>
shard(It, It) -> shard<It>;

// The rank that gets the result of a root form (reduce_into(comm, root{r}, ...)); the others' outputs
// are left as they are.
struct root {
  int rank;
};

}  // namespace cascade
