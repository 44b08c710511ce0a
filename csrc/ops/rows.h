// Glue shared by the row ops (softmax, layer_norm, rms_norm): argument checks, the saved
// statistics' dtype, and the launch with whatever scratch the CUDA launcher asks for.
#pragma once

#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>

#include <optional>
#include <vector>

#include "kw/row_ops.h"
#include "kw/tensor_checks.h"
#include "launch.h"

namespace kw {

using CpuRowFn = void (*)(const RowArgs&);
using CudaRowFn = int (*)(const RowArgs&, void*, int64_t*, void*);

// A CUDA launcher, or null in builds without CUDA (launch_on never calls it there).
#ifdef KW_WITH_CUDA
#define KW_CUDA_ROW(name) (&::kw::cuda::name)
#else
#define KW_CUDA_ROW(name) (static_cast<::kw::CudaRowFn>(nullptr))
#endif

inline RowArgs row_args(const at::Tensor& x) {
  RowArgs a{};
  a.dtype = to_kw_dtype(x.scalar_type());
  a.inner = 1;
  return a;
}

inline void launch_rows(const char* op, const at::Tensor& like, const RowArgs& a, CpuRowFn cpu,
                        CudaRowFn cuda) {
  launch_on(
      op, like.device(), [&] { cpu(a); },
      [&](void* stream) {
        int64_t bytes = 0;
        const int err = cuda(a, nullptr, &bytes, stream);
        if (err != 0) return err;
        at::Tensor ws;
        if (bytes > 0) ws = at::empty({bytes}, like.options().dtype(at::kByte));
        return cuda(a, bytes > 0 ? ws.data_ptr() : nullptr, nullptr, stream);
      });
}

// Per-row statistics are kept in the accumulator type, as torch.native_layer_norm keeps them.
inline at::ScalarType stat_dtype(const at::Tensor& x) {
  return x.scalar_type() == at::kDouble ? at::kDouble : at::kFloat;
}

inline void check_same_device(const char* op, const char* arg, const at::Tensor& t,
                              const char* other_arg, const at::Tensor& other) {
  TORCH_CHECK_VALUE(t.device() == other.device(), "kernelwright.", op, "(): argument '", arg,
                    "' is on ", t.device(), " but argument '", other_arg, "' is on ",
                    other.device(), "; tensors must be on the same device");
}

// A weight or bias, contiguous, or an undefined tensor when absent. It must have x's dtype
// and device and the normalized shape.
inline at::Tensor check_param(const char* op, const char* arg, const std::optional<at::Tensor>& t,
                              const at::Tensor& x, at::IntArrayRef normalized_shape) {
  if (!t.has_value() || !t->defined()) return at::Tensor();
  check_floating(op, arg, *t);
  TORCH_CHECK_TYPE(t->scalar_type() == x.scalar_type(), "kernelwright.", op, "(): argument '",
                   arg, "' has dtype ", t->scalar_type(), " but argument 'x' has dtype ",
                   x.scalar_type(), "; they must match");
  check_same_device(op, arg, *t, "x", x);
  TORCH_CHECK_VALUE(t->sizes() == normalized_shape, "kernelwright.", op, "(): argument '", arg,
                    "' has shape ", shape_str(t->sizes()), " but normalized_shape is ",
                    shape_str(normalized_shape));
  return t->contiguous();
}

// Checks that x ends in normalized_shape and starts a's fields for x: rows (x's leading dims
// multiplied out) and len (the normalized dims'). Returns the leading dims: the saved
// statistics' shape.
inline std::vector<int64_t> check_normalized(const char* op, const at::Tensor& x,
                                             at::IntArrayRef normalized_shape, RowArgs& a) {
  check_floating(op, "x", x);
  const int64_t k = static_cast<int64_t>(normalized_shape.size());
  TORCH_CHECK_VALUE(k >= 1, "kernelwright.", op,
                    "(): argument 'normalized_shape' must name at least one dim, got []");
  TORCH_CHECK_VALUE(x.dim() >= k && x.sizes().slice(x.dim() - k) == normalized_shape,
                    "kernelwright.", op, "(): argument 'normalized_shape' is ",
                    shape_str(normalized_shape), " but argument 'x' has shape ",
                    shape_str(x.sizes()), "; x must end in normalized_shape");
  const std::vector<int64_t> lead = x.sizes().slice(0, x.dim() - k).vec();
  a = row_args(x);
  a.rows = 1;
  for (int64_t s : lead) a.rows *= s;
  a.len = 1;
  for (int64_t s : normalized_shape) a.len *= s;
  return lead;
}

// The incoming gradient of a row op's output shaped like `like`, in its dtype, contiguous.
inline at::Tensor check_grad(const char* op, const at::Tensor& grad, const char* like_arg,
                             const at::Tensor& like) {
  check_floating(op, "grad", grad);
  check_same_device(op, "grad", grad, like_arg, like);
  TORCH_CHECK_VALUE(grad.sizes() == like.sizes(), "kernelwright.", op,
                    "(): argument 'grad' has shape ", shape_str(grad.sizes()), " but argument '",
                    like_arg, "' has shape ", shape_str(like.sizes()));
  return grad.to(like.scalar_type()).contiguous();
}

// A per-row statistic saved by a forward (mean, rstd), shaped like x's leading dims.
inline at::Tensor check_stat(const char* op, const char* arg, const at::Tensor& t,
                             const at::Tensor& x, at::IntArrayRef lead) {
  check_floating(op, arg, t);
  check_same_device(op, arg, t, "x", x);
  TORCH_CHECK_VALUE(t.sizes() == lead, "kernelwright.", op, "(): argument '", arg,
                    "' has shape ", shape_str(t.sizes()), " but x's leading dims are ",
                    shape_str(lead));
  return t.to(stat_dtype(x)).contiguous();
}

inline const void* data_or_null(const at::Tensor& t) {
  return t.defined() ? t.const_data_ptr() : nullptr;
}

}  // namespace kw
