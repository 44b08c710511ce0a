// Argument checks for the torch-facing glue. Every failure is a Python exception that names the
// op, the argument and what was expected; all checks run before anything is launched, so bad
// input never reaches a kernel.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/util/Exception.h>

#include <string>

#include "kw/elementwise_args.h"

namespace kw {

// Numbers in messages are formatted here, not by streaming them into TORCH_CHECK: on the GPU
// image, std::ostream's integer insertion instantiated in this library crashed (seen with
// torch 2.11.0+cu130 and g++ 13), while strings stream safely.
inline std::string num(int64_t v) { return std::to_string(v); }

inline std::string shape_str(c10::IntArrayRef s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

inline DType to_kw_dtype(at::ScalarType t) {
  switch (t) {
    case at::kFloat: return DType::Float32;
    case at::kHalf: return DType::Float16;
    case at::kBFloat16: return DType::BFloat16;
    case at::kDouble: return DType::Float64;
    default: break;
  }
  TORCH_CHECK_TYPE(false, "kernelwright: unsupported dtype ", t);
}

inline void check_floating(const char* op, const char* arg, const at::Tensor& t) {
  TORCH_CHECK_VALUE(t.defined(), "kernelwright.", op, "(): argument '", arg,
                    "' must be a tensor, got None");
  const auto st = t.scalar_type();
  TORCH_CHECK_TYPE(st == at::kFloat || st == at::kHalf || st == at::kBFloat16 || st == at::kDouble,
                   "kernelwright.", op, "(): argument '", arg,
                   "' must be a floating-point tensor (float32, float16, bfloat16 or float64), "
                   "but got ", st);
  TORCH_CHECK_VALUE(t.device().is_cpu() || t.device().is_cuda(), "kernelwright.", op,
                    "(): argument '", arg, "' must be on a CPU or CUDA device, but is on ",
                    t.device());
  // Forward-mode AD has no rules here; without this its tangent would be dropped silently.
  TORCH_CHECK_NOT_IMPLEMENTED(!t._fw_grad(/*level=*/0).defined(), "kernelwright.", op,
                              "(): argument '", arg, "' is a forward-mode AD dual tensor; "
                              "kernelwright ops support reverse-mode autograd only");
}

// A 0-dim CPU tensor may join tensors on another device, as in PyTorch's own binary ops.
inline bool is_cpu_scalar(const at::Tensor& t) { return t.device().is_cpu() && t.dim() == 0; }

// The device the op runs on: that of the first argument that is not a CPU scalar.
template <size_t N>
at::Device common_device(const char* op, const at::Tensor* const (&ts)[N],
                         const char* const (&names)[N]) {
  int lead = -1;
  for (size_t k = 0; k < N; ++k)
    if (!is_cpu_scalar(*ts[k])) {
      lead = static_cast<int>(k);
      break;
    }
  if (lead < 0) return at::Device(at::kCPU);
  const at::Device device = ts[lead]->device();
  for (size_t k = 0; k < N; ++k) {
    TORCH_CHECK_VALUE(ts[k]->device() == device || is_cpu_scalar(*ts[k]), "kernelwright.", op,
                      "(): argument '", names[k], "' is on ", ts[k]->device(), " but argument '",
                      names[lead], "' is on ", device,
                      "; tensors must be on the same device (only a 0-dim CPU tensor may be "
                      "mixed in, as a scalar)");
  }
  return device;
}

}  // namespace kw
