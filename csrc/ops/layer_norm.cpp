// Torch-facing glue of layer_norm: checks, contiguous operands, outputs and saved statistics.
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>

#include <tuple>

#include "kw/ops.h"
#include "rows.h"

namespace kw {

std::tuple<at::Tensor, at::Tensor, at::Tensor> layer_norm(const at::Tensor& x,
                                                          at::IntArrayRef normalized_shape,
                                                          const std::optional<at::Tensor>& weight,
                                                          const std::optional<at::Tensor>& bias,
                                                          double eps) {
  const char* op = "layer_norm";
  RowArgs a;
  const auto lead = check_normalized(op, x, normalized_shape, a);
  const at::Tensor w = check_param(op, "weight", weight, x, normalized_shape);
  const at::Tensor b = check_param(op, "bias", bias, x, normalized_shape);
  const at::Tensor xc = x.contiguous();
  at::Tensor y = at::empty(x.sizes(), x.options().memory_format(at::MemoryFormat::Contiguous));
  at::Tensor mean = at::empty(lead, x.options().dtype(stat_dtype(x)));
  at::Tensor rstd = at::empty(lead, x.options().dtype(stat_dtype(x)));
  a.in[0] = xc.const_data_ptr();
  a.col[0] = data_or_null(w);
  a.col[1] = data_or_null(b);
  a.out = y.data_ptr();
  a.row_out[0] = mean.data_ptr();
  a.row_out[1] = rstd.data_ptr();
  a.eps = eps;
  if (a.rows > 0) launch_rows(op, x, a, &cpu::layer_norm_forward, KW_CUDA_ROW(layer_norm_forward));
  return {y, mean, rstd};
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> layer_norm_backward(
    const at::Tensor& grad, const at::Tensor& x, const at::Tensor& mean, const at::Tensor& rstd,
    at::IntArrayRef normalized_shape, const std::optional<at::Tensor>& weight, bool has_bias) {
  const char* op = "layer_norm_backward";
  RowArgs a;
  const auto lead = check_normalized(op, x, normalized_shape, a);
  const at::Tensor g = check_grad(op, grad, "x", x);
  const at::Tensor m = check_stat(op, "mean", mean, x, lead);
  const at::Tensor r = check_stat(op, "rstd", rstd, x, lead);
  const at::Tensor w = check_param(op, "weight", weight, x, normalized_shape);
  const at::Tensor xc = x.contiguous();
  at::Tensor gx = at::empty(x.sizes(), x.options().memory_format(at::MemoryFormat::Contiguous));
  // Absent parameters get empty gradients: the schema has no optional outputs.
  at::Tensor gw = at::empty(w.defined() ? normalized_shape : at::IntArrayRef{0}, x.options());
  at::Tensor gb = at::empty(has_bias ? normalized_shape : at::IntArrayRef{0}, x.options());
  if (a.rows == 0) {  // sums over no rows
    gw.zero_();
    gb.zero_();
    return {gx, gw, gb};
  }
  a.in[0] = g.const_data_ptr();
  a.in[1] = xc.const_data_ptr();
  a.col[0] = data_or_null(w);
  a.row_in[0] = m.const_data_ptr();
  a.row_in[1] = r.const_data_ptr();
  a.out = gx.data_ptr();
  a.col_out[0] = w.defined() ? gw.data_ptr() : nullptr;
  a.col_out[1] = has_bias ? gb.data_ptr() : nullptr;
  if (a.len > 0) launch_rows(op, x, a, &cpu::layer_norm_backward, KW_CUDA_ROW(layer_norm_backward));
  return {gx, gw, gb};
}

}  // namespace kw
