// Torch-facing glue of linear, linear_prepared and linear_program: argument checks, the route to
// the Hopper kernels (the float32 method and operand split: gemm_split.h), and the fallback to
// cuBLAS through ATen for what those kernels do not take (other GPUs, odd alignments, float64,
// the CPU).
#include <ATen/core/Tensor.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/ops/addmm.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/gelu.h>
#include <ATen/ops/gelu_backward.h>
#include <ATen/ops/mm.h>
#include <ATen/ops/relu.h>
#include <ATen/ops/sigmoid.h>
#include <ATen/ops/sum.h>
#include <ATen/ops/threshold_backward.h>
#include <c10/core/DeviceGuard.h>

#include <optional>
#include <string>
#include <vector>

#include "epilogue.h"
#include "gemm_split.h"
#include "kw/gemm.h"
#include "kw/ops.h"
#include "kw/tensor_checks.h"
#include "launch.h"

namespace kw {
namespace {

Activation parse_activation(const char* op, c10::string_view s) {
  if (s == "none") return Activation::kNone;
  if (s == "relu") return Activation::kRelu;
  if (s == "sigmoid") return Activation::kSigmoid;
  if (s == "gelu") return Activation::kGelu;
  if (s == "gelu_tanh") return Activation::kGeluTanh;
  TORCH_CHECK_VALUE(false, "kernelwright.", op,
                    "(): argument 'activation' must be one of 'none', 'relu', 'sigmoid', 'gelu', "
                    "'gelu_tanh' (or None), but got '", std::string(s.data(), s.size()), "'");
}

void check_same(const char* op, const char* lead_name, const at::Tensor& lead, const char* name,
                const at::Tensor& t) {
  TORCH_CHECK_TYPE(t.scalar_type() == lead.scalar_type(), "kernelwright.", op, "(): argument '",
                   name, "' has dtype ", t.scalar_type(), " but argument '", lead_name,
                   "' has dtype ", lead.scalar_type(), "; they must match");
  TORCH_CHECK_VALUE(t.device() == lead.device(), "kernelwright.", op, "(): argument '", name,
                    "' is on ", t.device(), " but argument '", lead_name, "' is on ",
                    lead.device(), "; tensors must be on the same device");
}

void check_linear_args(const char* op, const at::Tensor& x, const at::Tensor& weight,
                       const std::optional<at::Tensor>& bias) {
  check_floating(op, "x", x);
  check_floating(op, "weight", weight);
  check_same(op, "x", x, "weight", weight);
  TORCH_CHECK_VALUE(weight.dim() == 2, "kernelwright.", op,
                    "(): argument 'weight' must be 2-D [out_features, in_features], but has shape ",
                    shape_str(weight.sizes()));
  TORCH_CHECK_VALUE(x.dim() >= 1 && x.size(-1) == weight.size(1), "kernelwright.", op,
                    "(): argument 'x' must have in_features = ", num(weight.size(1)),
                    " (weight.shape[1]) as its last dim, but has shape ", shape_str(x.sizes()));
  if (bias.has_value() && bias->defined()) {
    check_floating(op, "bias", *bias);
    check_same(op, "x", x, "bias", *bias);
    TORCH_CHECK_VALUE(bias->dim() == 1 && bias->size(0) == weight.size(0), "kernelwright.", op,
                      "(): argument 'bias' must have shape [", num(weight.size(0)),
                      "] (out_features), but has shape ", shape_str(bias->sizes()));
  }
}

void activate_(at::Tensor& z, Activation act) {
  switch (act) {
    case Activation::kRelu: at::relu_(z); break;
    case Activation::kSigmoid: at::sigmoid_(z); break;
    case Activation::kGelu: at::gelu_(z, "none"); break;
    case Activation::kGeluTanh: at::gelu_(z, "tanh"); break;
    default: break;
  }
}

#ifdef KW_WITH_CUDA
bool k_major(const at::Tensor& t) {
  return t.stride(1) == 1 && t.stride(0) >= t.size(1);
}

// The converted operands: a and b split into rows of one or three segments (see kw/gemm.h),
// and for fp16 their row scales, which the GEMM's epilogue reads (so they live until it is
// launched).
struct SplitOperands {
  at::Tensor a, b, scales;
};

// Points g at the converted operands of a @ b^T for `method` (kTf32Split3, kFp16Split3 or
// kFp16Scaled), b given g.n rows (b's own, or more for a padded output); false (and nothing
// allocated) when no kernel takes them.
bool split_operands(const at::Tensor& a, const at::Tensor& b, GemmMethod method, GemmArgs& g,
                    SplitOperands& ops) {
  const int64_t m = a.size(0), n_rows = g.n;
  const bool fp16 = method != GemmMethod::kTf32Split3;
  const bool single = method == GemmMethod::kFp16Scaled;
  g.method = static_cast<int>(method);
  g.promotion_interval = single ? 0 : promotion_interval(fp16);
  g.k = (single ? 1 : 3) * split_segment(a.size(1), fp16);
  g.lda = g.ldb = g.k;
  // Checked before the split operands exist: fresh allocations share d's alignment.
  g.a = g.b = g.d;
  g.a_scale = g.b_scale = static_cast<const float*>(g.d);
  if (cuda::gemm_unsupported(g) != nullptr) return false;
  float* a_scale = nullptr;
  float* b_scale = nullptr;
  if (fp16) {
    const int64_t b_offset = round_up(m, 4);  // b_scale is read 16 bytes at a time
    ops.scales = at::empty({b_offset + n_rows}, a.options()).zero_();
    a_scale = ops.scales.data_ptr<float>();
    b_scale = a_scale + b_offset;
  }
  ops.a = split_rows(a, m, method, single ? SplitParts::kHi : SplitParts::kLeft3, a_scale);
  ops.b = split_rows(b, n_rows, method, single ? SplitParts::kHi : SplitParts::kRight3, b_scale);
  g.a = ops.a.data_ptr();
  g.b = ops.b.data_ptr();
  g.a_scale = a_scale;
  g.b_scale = b_scale;
  return true;
}

// The method for a [m, k] @ b [n, k]^T on CUDA (b_k_major: b's k axis is contiguous), or none
// when the product goes to cuBLAS through ATen before any kernel of ours is asked: the routes
// decided without allocating.
std::optional<GemmMethod> cuda_method(const at::Tensor& a, int64_t n, bool b_k_major) {
  const bool fp32 = a.scalar_type() == at::kFloat;
  const GemmMethod method = fp32 ? float32_method(a.size(0), n, a.size(1)) : GemmMethod::kHalf;
  if (fp32 && method == GemmMethod::kHalf) return std::nullopt;  // cuBLAS
  const bool split = method != GemmMethod::kTf32 && method != GemmMethod::kHalf;
  if (!split && (!k_major(a) || !b_k_major)) return std::nullopt;  // cuBLAS reads transposes
  return method;
}

// a [m, k] @ b[n, k]^T on the Hopper kernels; an undefined tensor when none applies.
at::Tensor gemm_cuda(const at::Tensor& a, const at::Tensor& b, const at::Tensor& bias,
                     Activation act, const Epilogue* ep) {
  const std::optional<GemmMethod> chosen = cuda_method(a, b.size(0), k_major(b));
  if (!chosen) return at::Tensor();
  const GemmMethod method = *chosen;
  const int64_t m = a.size(0), n = b.size(0), k = a.size(1);
  GemmArgs g{};
  g.dtype = static_cast<int>(to_kw_dtype(a.scalar_type()));
  g.activation = static_cast<int>(act);
  const bool split = method != GemmMethod::kTf32 && method != GemmMethod::kHalf;
  // TMA reads and writes rows of 16-byte multiples. The split operands are ours to lay out, so
  // an n off that multiple (a vocabulary of 50257) runs padded, and its output rows are
  // copied out: m * n more bytes moved against m * n * k multiply-adds. Three products pad to
  // 8 columns, which their cross products on cuBLAS need to run apart (gemm_split.cpp).
  const int64_t n_pad =
      split ? round_up(n, a.scalar_type() != at::kFloat || method == GemmMethod::kFp16Split3 ? 8 : 4)
            : n;
  c10::DeviceGuard guard(a.device());
  at::Tensor padded_bias = bias;
  if (bias.defined() && n_pad > n) {
    padded_bias = at::empty({n_pad}, bias.options()).zero_();
    padded_bias.narrow(0, 0, n).copy_(bias);
  }
  g.m = m;
  g.n = n_pad;
  g.bias = padded_bias.defined() ? padded_bias.data_ptr() : nullptr;
  at::Tensor out = at::empty({m, n_pad}, a.options());
  g.d = out.data_ptr();
  g.ldd = n_pad;
  std::vector<at::Tensor> held;
  const at::Tensor partials = ep != nullptr ? attach_epilogue(g, *ep, n, a, held) : at::Tensor();
  bool ran_program = false;
  if (split) {
    SplitOperands operands;
    if (!split_operands(a, b, method, g, operands)) return at::Tensor();
    ran_program = launch_split_gemm(g, operands.a, operands.b, out);
  } else {
    g.method = static_cast<int>(method);
    g.k = k;
    g.lda = a.stride(0);
    g.ldb = b.stride(0);
    g.a = a.data_ptr();
    g.b = b.data_ptr();
    if (cuda::gemm_unsupported(g) != nullptr) return at::Tensor();
    ran_program = launch_gemm(g, a);
  }
  return finish_output(out, n, ep, ran_program, partials);
}
#endif

// act(a [m, k] @ b [n, k]^T + bias) for any strides, or with `ep` its program in place of act:
// in the GEMM's epilogue where a kernel takes it, else on the GEMM's result.
at::Tensor linear_2d(const at::Tensor& a, const at::Tensor& b, const at::Tensor& bias,
                     Activation act, const Epilogue* ep = nullptr) {
#ifdef KW_WITH_CUDA
  if (a.is_cuda() && a.scalar_type() != at::kDouble) {
    const at::Tensor contiguous_bias = bias.defined() ? bias.contiguous() : bias;
    at::Tensor out = gemm_cuda(a, b, contiguous_bias, act, ep);
    if (out.defined()) return out;
    if (ep != nullptr) {
      out = gemm_cuda(a, b, contiguous_bias, Activation::kNone, nullptr);
      if (out.defined()) return run_epilogue_aten(out, *ep);
    }
  }
#endif
  at::Tensor out = bias.defined() ? at::addmm(bias, a, b.t()) : at::mm(a, b.t());
  activate_(out, act);
  return ep != nullptr ? run_epilogue_aten(out, *ep) : out;
}

// x as [rows, in_features]; rows from the sizes, since -1 is ambiguous when in_features is 0.
// A 2-D x is returned as it is: a reshape costs host time even when it changes nothing.
at::Tensor rows_of(const at::Tensor& x) {
  if (x.dim() == 2) return x;
  int64_t rows = 1;
  for (int64_t d = 0; d + 1 < x.dim(); ++d) rows *= x.size(d);
  return x.reshape({rows, x.size(-1)});
}

std::vector<int64_t> out_shape(const at::Tensor& x, int64_t n) {
  std::vector<int64_t> shape(x.sizes().begin(), x.sizes().end() - 1);
  shape.push_back(n);
  return shape;
}

}  // namespace

at::Tensor linear(const at::Tensor& x, const at::Tensor& weight,
                  const std::optional<at::Tensor>& bias, c10::string_view activation) {
  check_linear_args("linear", x, weight, bias);
  const Activation act = parse_activation("linear", activation);
  const at::Tensor b = bias.has_value() ? *bias : at::Tensor();
  const at::Tensor out = linear_2d(rows_of(x), weight, b, act);
  return x.dim() == 2 ? out : out.view(out_shape(x, weight.size(0)));
}

namespace {

// The checks of a weight's conversion (linear_prepare_weight's result); true when it holds one.
bool check_prepared(const char* op, const at::Tensor& x, int64_t n, const at::Tensor& weight_parts,
                    const at::Tensor& weight_scales) {
  if (weight_parts.numel() == 0) return false;
  TORCH_CHECK_VALUE(weight_parts.dim() == 2 && weight_parts.scalar_type() == at::kHalf &&
                        weight_parts.is_contiguous() && weight_parts.size(0) >= n &&
                        weight_parts.size(0) <= n + 3 && weight_parts.device() == x.device(),
                    "kernelwright.", op, "(): argument 'weight_parts' must be what "
                    "linear_prepare_weight(weight) returned for this weight, but has shape ",
                    shape_str(weight_parts.sizes()), " and dtype ", weight_parts.scalar_type());
  TORCH_CHECK_VALUE(weight_scales.dim() == 1 && weight_scales.scalar_type() == at::kFloat &&
                        weight_scales.is_contiguous() &&
                        weight_scales.size(0) == weight_parts.size(0) &&
                        weight_scales.device() == x.device(),
                    "kernelwright.", op, "(): argument 'weight_scales' must be what "
                    "linear_prepare_weight(weight) returned for this weight, but has shape ",
                    shape_str(weight_scales.sizes()), " and dtype ", weight_scales.scalar_type());
  return true;
}

// linear_prepared and linear_program: the prepared GEMM where it applies, else linear_2d.
at::Tensor linear_with_parts(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& b,
                             bool prepared, const at::Tensor& weight_parts,
                             const at::Tensor& weight_scales, Activation act, const Epilogue* ep) {
  const int64_t n = weight.size(0);
  // A program that reduces rows answers [rows, p] (linear_program), whatever x's dims.
  auto shaped = [&](const at::Tensor& out) {
    return x.dim() == 2 || (ep != nullptr && ep->program.reduce != 0) ? out : out.view(out_shape(x, n));
  };
#ifdef KW_WITH_CUDA
  if (prepared && x.is_cuda() && x.scalar_type() == at::kFloat && x.numel() > 0) {
    const at::Tensor out = prepared_gemm(rows_of(x), n, weight_parts, weight_scales,
                                         b.defined() ? b.contiguous() : b, act, ep);
    if (out.defined()) return shaped(out);
  }
#endif
  return shaped(linear_2d(rows_of(x), weight, b, act, ep));
}

}  // namespace

at::Tensor linear_prepared(const at::Tensor& x, const at::Tensor& weight,
                           const at::Tensor& weight_parts, const at::Tensor& weight_scales,
                           const std::optional<at::Tensor>& bias, c10::string_view activation) {
  check_linear_args("linear_prepared", x, weight, bias);
  const Activation act = parse_activation("linear_prepared", activation);
  const bool prepared =
      check_prepared("linear_prepared", x, weight.size(0), weight_parts, weight_scales);
  return linear_with_parts(x, weight, bias.has_value() ? *bias : at::Tensor(), prepared,
                           weight_parts, weight_scales, act, nullptr);
}

at::Tensor linear_program(const at::Tensor& x, const at::Tensor& weight,
                          const std::optional<at::Tensor>& bias, at::IntArrayRef code,
                          at::ArrayRef<double> consts, at::TensorList columns, at::TensorList rows,
                          at::TensorList fulls, const std::optional<at::Tensor>& weight_parts,
                          const std::optional<at::Tensor>& weight_scales, int64_t reduce) {
  check_linear_args("linear_program", x, weight, bias);
  const at::Tensor x2 = rows_of(x);
  const Epilogue ep = parse_epilogue("linear_program", code, consts, columns, rows, fulls, reduce,
                                     x2.size(0), weight.size(0), x);
  TORCH_CHECK_VALUE(weight_parts.has_value() == weight_scales.has_value(),
                    "kernelwright.linear_program(): arguments 'weight_parts' and 'weight_scales' "
                    "come together (linear_prepare_weight's result) or not at all");
  const bool prepared =
      weight_parts.has_value() &&
      check_prepared("linear_program", x, weight.size(0), *weight_parts, *weight_scales);
  return linear_with_parts(x, weight, bias.has_value() ? *bias : at::Tensor(), prepared,
                           prepared ? *weight_parts : at::Tensor(),
                           prepared ? *weight_scales : at::Tensor(), Activation::kNone, &ep);
}

void check_matmul_args(const at::Tensor& a, const at::Tensor& b) {
  check_floating("matmul", "a", a);
  check_floating("matmul", "b", b);
  check_same("matmul", "a", a, "b", b);
  TORCH_CHECK_VALUE(b.dim() == 2, "kernelwright.matmul(): argument 'b' must be 2-D [k, n], but has "
                    "shape ", shape_str(b.sizes()));
  TORCH_CHECK_VALUE(a.dim() >= 1 && a.size(-1) == b.size(0), "kernelwright.matmul(): argument 'a' "
                    "must have k = ", num(b.size(0)), " (b.shape[0]) as its last dim, but has "
                    "shape ", shape_str(a.sizes()));
}

bool matmul_goes_to_aten(const at::Tensor& a, const at::Tensor& b) {
#ifdef KW_WITH_CUDA
  if (a.is_cuda() && a.scalar_type() != at::kDouble) {
    // linear_2d's operands: a as rows, b^T, whose k axis is b's rows.
    const bool bt_k_major = b.stride(0) == 1 && b.stride(1) >= b.size(0);
    return !cuda_method(rows_of(a), b.size(1), bt_k_major).has_value();
  }
#endif
  return true;
}

at::Tensor matmul(const at::Tensor& a, const at::Tensor& b) {
  check_matmul_args(a, b);
  static const auto op = c10::Dispatcher::singleton()
                             .findSchemaOrThrow("kernelwright::linear", "")
                             .typed<at::Tensor(const at::Tensor&, const at::Tensor&,
                                               const std::optional<at::Tensor>&, c10::string_view)>();
  return op.call(a, b.t(), std::nullopt, "none");
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> linear_backward(
    const at::Tensor& grad, const at::Tensor& x, const at::Tensor& weight,
    const std::optional<at::Tensor>& bias, const at::Tensor& output, c10::string_view activation,
    std::array<bool, 3> output_mask) {
  check_linear_args("linear_backward", x, weight, bias);
  check_floating("linear_backward", "grad", grad);
  check_same("linear_backward", "x", x, "grad", grad);
  check_same("linear_backward", "x", x, "output", output);
  const Activation act = parse_activation("linear_backward", activation);
  const int64_t n = weight.size(0), k = weight.size(1);
  TORCH_CHECK_VALUE(grad.sizes() == output.sizes() && output.sizes() == out_shape(x, n),
                    "kernelwright.linear_backward(): arguments 'grad' and 'output' must have shape ",
                    shape_str(out_shape(x, n)), ", but have shapes ", shape_str(grad.sizes()),
                    " and ", shape_str(output.sizes()));
  const at::Tensor x2 = rows_of(x);
  at::Tensor g = rows_of(grad);
  const at::Tensor y = rows_of(output);
  const at::Tensor b = bias.has_value() ? *bias : at::Tensor();
  switch (act) {
    case Activation::kRelu: g = at::threshold_backward(g, y, 0); break;
    case Activation::kSigmoid: g = sigmoid_backward(g, y); break;
    case Activation::kGelu:
    case Activation::kGeluTanh: {
      // GELU's derivative needs the pre-activation, which the forward did not keep.
      const at::Tensor z = linear_2d(x2, weight, b, Activation::kNone);
      g = at::gelu_backward(g, z, act == Activation::kGelu ? "none" : "tanh");
      break;
    }
    default: break;
  }
  const at::Tensor none;
  at::Tensor gx = output_mask[0] ? linear_2d(g, weight.t(), none, Activation::kNone).view(x.sizes())
                                 : at::empty({0}, x.options());
  at::Tensor gw = output_mask[1] ? linear_2d(g.t(), x2.t(), none, Activation::kNone)
                                 : at::empty({0}, x.options());
  at::Tensor gb = output_mask[2] && b.defined() ? at::sum(g, 0) : at::empty({0}, x.options());
  return {gx, gw, gb};
}

}  // namespace kw
