// cascade's side of scripts/python_rivals.py: the calls a user writes to get what torch.sum,
// torch.amin, torch.argmin, torch.argmax and torch.aminmax return, behind a C interface that Python
// loads with ctypes. cascade then runs in the libraries' process, on their buffers and stream, in
// alternating rounds with them, so that its ratios to them are same-run ratios.
//
//   int k = cascade_python_find("reduce", "int8-minimum");   // -1: no such call
//   cascade_python_run(k, d_in, n, d_out, stream);           // 0, or 1 and cascade_python_error()
//   cascade_python_decode(k, host_copy_of_out, &a, &b);      // the value, index or {min, max}
//
// Each call is default_policy's, with the accumulator the Python call has: a sum of int8 into int32
// and of half into float (dtype=), a minimum in the item's own type (as x.min() keeps it), an index
// as int64, a min-max as the two values (reduce_fused_into; CuPy's (x.min(), x.max()) is two calls).
#include <cascade/cascade.cuh>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>
#include <exception>
#include <string>

namespace {

using run_fn = void (*)(void const* in, long long n, void* out, cudaStream_t s);
using decode_fn = void (*)(void const* out, double* a, double* b);

struct call {
  char const* family;  // reduce, argmin, argmax, minmax
  char const* config;  // <item>-<op> for reduce, <item> otherwise (cascade-rivals' names)
  run_fn run;
  decode_fn decode;
  std::size_t out_bytes;
};

template <class T>
double as_double(T x) {
  if constexpr (std::is_same_v<T, __half>)
    return double(__half2float(x));
  else
    return double(x);
}

template <class Item, class Acc, class Op>
void run_reduce(void const* in, long long n, void* out, cudaStream_t s) {
  auto const* p = static_cast<Item const*>(in);
  cascade::reduce_into(cascade::default_policy{}.on(s), p, p + n, static_cast<Acc*>(out),
                       cascade::identity<Op, Acc>::value(), Op{});
}

template <class Acc>
void decode_value(void const* out, double* a, double*) {
  Acc v;
  std::memcpy(&v, out, sizeof v);
  *a = as_double(v);
}

template <class Item, bool Min>
void run_arg(void const* in, long long n, void* out, cudaStream_t s) {
  auto const* p = static_cast<Item const*>(in);
  auto* slot = static_cast<cascade::indexed<Item>*>(out);
  if constexpr (Min)
    cascade::argmin_into(cascade::default_policy{}.on(s), p, p + n, slot);
  else
    cascade::argmax_into(cascade::default_policy{}.on(s), p, p + n, slot);
}

template <class Item>
void decode_index(void const* out, double* a, double*) {
  cascade::indexed<Item> v;
  std::memcpy(&v, out, sizeof v);
  *a = double(v.index);
}

template <class Item>
using both_values = cuda::std::tuple<Item, Item>;

template <class Item>
void run_minmax(void const* in, long long n, void* out, cudaStream_t s) {
  auto const* p = static_cast<Item const*>(in);
  cascade::reduce_fused_into(cascade::default_policy{}.on(s), p, p + n, static_cast<both_values<Item>*>(out),
                             cascade::minimum{}, cascade::maximum{});
}

template <class Item>
void decode_both(void const* out, double* a, double* b) {
  both_values<Item> v;
  std::memcpy(&v, out, sizeof v);
  *a = as_double(cuda::std::get<0>(v));
  *b = as_double(cuda::std::get<1>(v));
}

template <class Item, class Acc, class Op>
constexpr call reduce_entry(char const* config) {
  return {"reduce", config, &run_reduce<Item, Acc, Op>, &decode_value<Acc>, sizeof(Acc)};
}

template <class Item, bool Min>
constexpr call arg_entry(char const* config) {
  return {Min ? "argmin" : "argmax", config, &run_arg<Item, Min>, &decode_index<Item>, sizeof(cascade::indexed<Item>)};
}

template <class Item>
constexpr call minmax_entry(char const* config) {
  return {"minmax", config, &run_minmax<Item>, &decode_both<Item>, sizeof(both_values<Item>)};
}

using cascade::minimum;
using cascade::plus;
using std::int32_t;
using std::int64_t;
using std::int8_t;

// Every call scripts/python_rivals.py makes; -DPYTHON_CALLS_FEW (a build that only checks that this
// compiles) keeps one a family and the items whose loads differ.
call const calls[] = {
    reduce_entry<float, float, plus>("float-plus"),
    reduce_entry<int8_t, int32_t, plus>("int8-plus"),
    reduce_entry<__half, __half, minimum>("half-minimum"),
#ifndef PYTHON_CALLS_FEW
    reduce_entry<float, float, minimum>("float-minimum"),
    reduce_entry<double, double, plus>("double-plus"),
    reduce_entry<double, double, minimum>("double-minimum"),
    reduce_entry<int32_t, int32_t, plus>("int32-plus"),
    reduce_entry<int32_t, int32_t, minimum>("int32-minimum"),
    reduce_entry<int64_t, int64_t, plus>("int64-plus"),
    reduce_entry<int64_t, int64_t, minimum>("int64-minimum"),
    reduce_entry<int8_t, int8_t, minimum>("int8-minimum"),
    reduce_entry<__half, float, plus>("half-plus"),
    arg_entry<float, true>("float"),
    arg_entry<double, true>("double"),
    arg_entry<int32_t, true>("int32"),
    arg_entry<__half, true>("half"),
    arg_entry<float, false>("float"),
    arg_entry<double, false>("double"),
    arg_entry<int32_t, false>("int32"),
    arg_entry<__half, false>("half"),
    minmax_entry<float>("float"),
    minmax_entry<double>("double"),
    minmax_entry<int32_t>("int32"),
    minmax_entry<__half>("half"),
#endif
    arg_entry<int8_t, true>("int8"),
    arg_entry<int8_t, false>("int8"),
    minmax_entry<int8_t>("int8"),
};
constexpr int call_count = int(sizeof calls / sizeof calls[0]);

thread_local std::string last_error;

bool valid(int k) { return k >= 0 && k < call_count; }

}  // namespace

#define CASCADE_PYTHON_API extern "C" __attribute__((visibility("default")))

// The index of a call, or -1.
CASCADE_PYTHON_API int cascade_python_find(char const* family, char const* config) {
  for (int k = 0; k < call_count; ++k)
    if (std::strcmp(calls[k].family, family) == 0 && std::strcmp(calls[k].config, config) == 0) return k;
  return -1;
}

// The bytes call k writes at out (the size of the buffer to give it).
CASCADE_PYTHON_API long long cascade_python_out_bytes(int k) { return valid(k) ? (long long)calls[k].out_bytes : -1; }

// Enqueues call k on stream (a cudaStream_t; 0 is the legacy default stream). 0, or 1 with the
// message in cascade_python_error(): nothing escapes into Python as a C++ exception.
CASCADE_PYTHON_API int cascade_python_run(int k, void const* in, long long n, void* out, void* stream) {
  if (!valid(k)) {
    last_error = "cascade_python_run: no call " + std::to_string(k);
    return 1;
  }
  try {
    calls[k].run(in, n, out, static_cast<cudaStream_t>(stream));
    return 0;
  } catch (std::exception const& e) {
    last_error = e.what();
  } catch (...) {
    last_error = "unknown exception";
  }
  return 1;
}

// What call k wrote, copied to the host, as numbers: a reduce's value in a, an index in a, a
// min-max's minimum in a and maximum in b.
CASCADE_PYTHON_API int cascade_python_decode(int k, void const* host_out, double* a, double* b) {
  if (!valid(k)) return 1;
  double unused = 0;
  calls[k].decode(host_out, a, b ? b : &unused);
  return 0;
}

CASCADE_PYTHON_API char const* cascade_python_error() { return last_error.c_str(); }

CASCADE_PYTHON_API int cascade_python_version() { return CASCADE_VERSION; }

// The CUDA runtime this library was built with (12080 is 12.8), which its calls use.
CASCADE_PYTHON_API int cascade_python_runtime() {
  int v = 0;
  return cudaRuntimeGetVersion(&v) == cudaSuccess ? v : 0;
}
