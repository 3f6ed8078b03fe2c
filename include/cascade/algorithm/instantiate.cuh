// cascade/algorithm/instantiate.cuh: a call's kernels compiled in one file of a program instead of in
// every file that makes the call. Each macro names one call by its template arguments, the types the
// call deduces: the _EXTERN_ form (in a header the calling files include) declares that the
// instantiation is made elsewhere, so a calling file compiles none of its kernels; the _INSTANTIATE_
// form (in one .cu file) makes it. A call whose deduced types differ (float* where the macro says
// float const*) is another instantiation, compiled where it is made. A type with a comma in it
// (policy<256, 16, ...>) goes in through a `using` alias. The forms without a policy
// (reduce(first, last, init)) call these with default_policy, so its macros cover them.
//
//   CASCADE_EXTERN_REDUCE_INTO(cascade::default_policy, float const*, float*, float, cascade::plus);       // calls.cuh
//   CASCADE_INSTANTIATE_REDUCE_INTO(cascade::default_policy, float const*, float*, float, cascade::plus);  // calls.cu
#pragma once

#include "../arg_reduce.cuh"
#include "../reduce.cuh"

// reduce_into(policy, first, last, d_out, init, op); reduce(policy, first, last, init, op) to the host
#define CASCADE_DETAIL_REDUCE_INTO(Policy, It, OutIt, T, Op) \
  void cascade::reduce_into<Policy, It, OutIt, T, Op>(Policy const&, It, It, OutIt, T, Op)
#define CASCADE_EXTERN_REDUCE_INTO(Policy, It, OutIt, T, Op) \
  extern template CASCADE_DETAIL_REDUCE_INTO(Policy, It, OutIt, T, Op)
#define CASCADE_INSTANTIATE_REDUCE_INTO(Policy, It, OutIt, T, Op) template CASCADE_DETAIL_REDUCE_INTO(Policy, It, OutIt, T, Op)
#define CASCADE_DETAIL_REDUCE(Policy, It, T, Op) T cascade::reduce<Policy, It, T, Op>(Policy const&, It, It, T, Op)
#define CASCADE_EXTERN_REDUCE(Policy, It, T, Op) extern template CASCADE_DETAIL_REDUCE(Policy, It, T, Op)
#define CASCADE_INSTANTIATE_REDUCE(Policy, It, T, Op) template CASCADE_DETAIL_REDUCE(Policy, It, T, Op)

// argmin_into, argmax_into, minmax_into(policy, first, last, d_out)
#define CASCADE_DETAIL_ARG_INTO(Name, Policy, It, OutIt) void cascade::Name<Policy, It, OutIt>(Policy const&, It, It, OutIt)
#define CASCADE_EXTERN_ARGMIN_INTO(Policy, It, OutIt) extern template CASCADE_DETAIL_ARG_INTO(argmin_into, Policy, It, OutIt)
#define CASCADE_INSTANTIATE_ARGMIN_INTO(Policy, It, OutIt) template CASCADE_DETAIL_ARG_INTO(argmin_into, Policy, It, OutIt)
#define CASCADE_EXTERN_ARGMAX_INTO(Policy, It, OutIt) extern template CASCADE_DETAIL_ARG_INTO(argmax_into, Policy, It, OutIt)
#define CASCADE_INSTANTIATE_ARGMAX_INTO(Policy, It, OutIt) template CASCADE_DETAIL_ARG_INTO(argmax_into, Policy, It, OutIt)
#define CASCADE_EXTERN_MINMAX_INTO(Policy, It, OutIt) extern template CASCADE_DETAIL_ARG_INTO(minmax_into, Policy, It, OutIt)
#define CASCADE_INSTANTIATE_MINMAX_INTO(Policy, It, OutIt) template CASCADE_DETAIL_ARG_INTO(minmax_into, Policy, It, OutIt)

// argmin, argmax, minmax(policy, first, last) to the host
#define CASCADE_DETAIL_ARG(Result, Name, Policy, It) \
  cascade::Result<cascade::detail::input_value_t<It>> cascade::Name<Policy, It>(Policy const&, It, It)
#define CASCADE_EXTERN_ARGMIN(Policy, It) extern template CASCADE_DETAIL_ARG(indexed, argmin, Policy, It)
#define CASCADE_INSTANTIATE_ARGMIN(Policy, It) template CASCADE_DETAIL_ARG(indexed, argmin, Policy, It)
#define CASCADE_EXTERN_ARGMAX(Policy, It) extern template CASCADE_DETAIL_ARG(indexed, argmax, Policy, It)
#define CASCADE_INSTANTIATE_ARGMAX(Policy, It) template CASCADE_DETAIL_ARG(indexed, argmax, Policy, It)
#define CASCADE_EXTERN_MINMAX(Policy, It) extern template CASCADE_DETAIL_ARG(minmax_result, minmax, Policy, It)
#define CASCADE_INSTANTIATE_MINMAX(Policy, It) template CASCADE_DETAIL_ARG(minmax_result, minmax, Policy, It)
