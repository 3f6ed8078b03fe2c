// A device range on the host in one copy: a std::vector built from thrust::device_vector iterators
// copies item by item, one cudaMemcpy each (seconds for a million items).
#pragma once

#include <thrust/copy.h>

#include <iterator>
#include <vector>

namespace cascade_test {

template <class It>
auto host_copy(It first, long long count) {
  std::vector<typename std::iterator_traits<It>::value_type> out(count);
  if (count > 0) thrust::copy(first, first + count, out.begin());
  return out;
}

template <class It>
auto host_copy(It first, It last) {
  return host_copy(first, static_cast<long long>(last - first));
}

}  // namespace cascade_test
