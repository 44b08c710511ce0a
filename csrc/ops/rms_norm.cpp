// Torch-facing glue of rms_norm: checks, the default eps, contiguous operands, outputs and the
// saved rstd.
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>

#include <limits>
#include <tuple>

#include "kw/ops.h"
#include "rows.h"

namespace kw {

std::tuple<at::Tensor, at::Tensor> rms_norm(const at::Tensor& x, at::IntArrayRef normalized_shape,
                                            const std::optional<at::Tensor>& weight,
                                            std::optional<double> eps) {
  const char* op = "rms_norm";
  RowArgs a;
  const auto lead = check_normalized(op, x, normalized_shape, a);
  const at::Tensor w = check_param(op, "weight", weight, x, normalized_shape);
  const at::Tensor xc = x.contiguous();
  at::Tensor y = at::empty(x.sizes(), x.options().memory_format(at::MemoryFormat::Contiguous));
  at::Tensor rstd = at::empty(lead, x.options().dtype(stat_dtype(x)));
  a.in[0] = xc.const_data_ptr();
  a.col[0] = data_or_null(w);
  a.out = y.data_ptr();
  a.row_out[0] = rstd.data_ptr();
  // As torch.nn.functional.rms_norm: the epsilon of the type the statistics are computed in.
  a.eps = eps.has_value() ? *eps
          : x.scalar_type() == at::kDouble ? std::numeric_limits<double>::epsilon()
                                           : std::numeric_limits<float>::epsilon();
  if (a.rows > 0) launch_rows(op, x, a, &cpu::rms_norm_forward, KW_CUDA_ROW(rms_norm_forward));
  return {y, rstd};
}

std::tuple<at::Tensor, at::Tensor> rms_norm_backward(const at::Tensor& grad, const at::Tensor& x,
                                                     const at::Tensor& rstd,
                                                     at::IntArrayRef normalized_shape,
                                                     const std::optional<at::Tensor>& weight) {
  const char* op = "rms_norm_backward";
  RowArgs a;
  const auto lead = check_normalized(op, x, normalized_shape, a);
  const at::Tensor g = check_grad(op, grad, "x", x);
  const at::Tensor r = check_stat(op, "rstd", rstd, x, lead);
  const at::Tensor w = check_param(op, "weight", weight, x, normalized_shape);
  const at::Tensor xc = x.contiguous();
  at::Tensor gx = at::empty(x.sizes(), x.options().memory_format(at::MemoryFormat::Contiguous));
  // An absent weight gets an empty gradient: the schema has no optional outputs.
  at::Tensor gw = at::empty(w.defined() ? normalized_shape : at::IntArrayRef{0}, x.options());
  if (a.rows == 0) {  // a sum over no rows
    gw.zero_();
    return {gx, gw};
  }
  a.in[0] = g.const_data_ptr();
  a.in[1] = xc.const_data_ptr();
  a.col[0] = data_or_null(w);
  a.row_in[0] = r.const_data_ptr();
  a.out = gx.data_ptr();
  a.col_out[0] = w.defined() ? gw.data_ptr() : nullptr;
  if (a.len > 0) launch_rows(op, x, a, &cpu::rms_norm_backward, KW_CUDA_ROW(rms_norm_backward));
  return {gx, gw};
}

}  // namespace kw
