// cascade/error.cuh: the exception cascade throws when a CUDA call fails.
//
//   try { cascade::reduce(p, d, d + n, 0.0f); }
//   catch (cascade::cuda_error const& e) { std::cerr << e.what() << " (" << e.code() << ")\n"; }
#pragma once

#include "detail/meta/config.cuh"

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace cascade {

// A failed CUDA call. what() names the call and the CUDA error; code() is the cudaError_t.
class cuda_error : public std::runtime_error {
 public:
  cuda_error(cudaError_t code, std::string const& what_arg) : std::runtime_error(what_arg), code_(code) {}
  cudaError_t code() const noexcept { return code_; }

 private:
  cudaError_t code_;
};

namespace detail {

// Formats "cascade: <call> failed: <cudaErrorName> (<description>)".
inline std::string cuda_error_text(cudaError_t code, char const* call) {
  std::string text = "cascade: ";
  text += call;
  text += " failed: ";
  text += cudaGetErrorName(code);
  text += " (";
  text += cudaGetErrorString(code);
  text += ")";
  return text;
}

// Also takes the error out of the runtime's last-error slot (sticky errors stay there regardless):
// it is reported now, and left there it would fail the next call's launch check.
[[noreturn]] inline void throw_cuda_error(cudaError_t code, char const* call) {
  (void)cudaGetLastError();
  throw cuda_error(code, cuda_error_text(code, call));
}

inline void check_cuda(cudaError_t code, char const* call) {
  if (code != cudaSuccess) throw_cuda_error(code, call);
}

}  // namespace detail
}  // namespace cascade

// Checks a CUDA runtime call and throws cascade::cuda_error naming it when it fails.
#define CASCADE_CUDA_CHECK(call) ::cascade::detail::check_cuda((call), #call)
