// Segmented calls with a policy of their own, and with default_policy, whose segmented form needs no
// table: policy/segmented_policy.cuh (the owners' registry, tree::shuffle), segmented_reduce.cuh and the
// algorithms on it. lean.py checks (nvcc -M) that this pulls in nothing of tuning/, no finish but its
// tag, no tree but shuffle and the tags, and nothing of CUB or cooperative groups.
#include <cascade/segmented_arg_reduce.cuh>
#include <cascade/policy/segmented_policy.cuh>
#include <cascade/segmented_reduce.cuh>
#include <cascade/segmented_transform_reduce.cuh>

using my_policy = cascade::segmented_policy<cascade::segment::warp<8>, 256, 4>;

void sums(float const* d, int const* offsets, long long segments, float* out) {
  cascade::segmented_reduce(my_policy{}, d, offsets, offsets + 1, segments, out, 0.0f);
  cascade::segmented_reduce(cascade::default_policy{}, d, offsets, offsets + 1, segments, out, 0.0f);
}
