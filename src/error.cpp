// The text of cascade::cuda_error, compiled once rather than in every translation unit.
#include <cascade/error.cuh>

namespace cascade::detail {

std::string cuda_error_text(cudaError_t code, char const* call) {
  std::string text = "cascade: ";
  text += call;
  text += " failed: ";
  text += cudaGetErrorName(code);
  text += " (";
  text += cudaGetErrorString(code);
  text += ")";
  return text;
}

}  // namespace cascade::detail
