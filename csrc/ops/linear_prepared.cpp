// A float32 weight converted once for the tensor-core GEMM ('highest': three fp16 products,
// 'high'/'medium': one), so that a linear call converts its input alone. The caller keeps the
// conversion while the weight stays as it is (kernelwright.ops.WeightCache does).
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/zeros.h>
#include <c10/core/DeviceGuard.h>

#include <cstdint>
#include <tuple>
#include <vector>

#include "epilogue.h"
#include "gemm_split.h"
#include "kw/gemm.h"
#include "kw/ops.h"
#include "kw/tensor_checks.h"
#include "launch.h"

namespace kw {

#ifdef KW_WITH_CUDA
namespace {

// The method a prepared weight is converted for at this precision: the one float32_method
// takes for a prepared b with rows enough; kHalf (no conversion) where the environment asks
// for TF32 or cuBLAS.
GemmMethod prepared_method(int64_t n, int64_t k) {
  const GemmMethod method = float32_method(int64_t{1} << 30, n, k, /*b_prepared=*/true);
  return method == GemmMethod::kFp16Split3 || method == GemmMethod::kFp16Scaled ? method
                                                                                 : GemmMethod::kHalf;
}

// GemmArgs for [m, k] rows against n_pad prepared rows of `width` halves; pointers left to
// the caller (set to an aligned placeholder, enough for the kernels' checks).
GemmArgs prepared_args(GemmMethod method, int64_t m, int64_t n_pad, int64_t width) {
  GemmArgs g{};
  g.dtype = static_cast<int>(DType::Float32);
  g.method = static_cast<int>(method);
  g.promotion_interval = method == GemmMethod::kFp16Split3 ? promotion_interval(true) : 0;
  g.m = m;
  g.n = n_pad;
  g.k = width;
  g.lda = g.ldb = width;
  g.ldd = n_pad;
  alignas(16) static float placeholder[4];
  g.a = g.b = g.d = placeholder;
  g.a_scale = g.b_scale = placeholder;
  return g;
}

int64_t parts_width(int64_t k, GemmMethod method) {
  return (method == GemmMethod::kFp16Split3 ? 3 : 1) * split_segment(k, true);
}

}  // namespace

// act(a @ w^T + bias) from w's conversion; an undefined tensor where the prepared path does not
// apply (the caller then runs linear).
at::Tensor prepared_gemm(const at::Tensor& a, int64_t n, const at::Tensor& parts,
                         const at::Tensor& scales, const at::Tensor& bias, Activation act,
                         const Epilogue* ep) {
  const int64_t m = a.size(0), k = a.size(1), n_pad = parts.size(0);
  const GemmMethod method = float32_method(m, n, k, /*b_prepared=*/true);
  if (method != GemmMethod::kFp16Split3 && method != GemmMethod::kFp16Scaled) return at::Tensor();
  if (parts.size(1) != parts_width(k, method)) return at::Tensor();  // made at another precision
  GemmArgs g = prepared_args(method, m, n_pad, parts.size(1));
  g.activation = static_cast<int>(act);
  std::vector<at::Tensor> held;
  const at::Tensor partials = ep != nullptr ? attach_epilogue(g, *ep, n, a, held) : at::Tensor();
  if (cuda::gemm_unsupported(g) != nullptr) return at::Tensor();
  c10::DeviceGuard guard(a.device());
  at::Tensor padded_bias = bias;
  if (bias.defined() && n_pad > n) {
    padded_bias = at::zeros({n_pad}, bias.options());
    padded_bias.narrow(0, 0, n).copy_(bias);
  }
  at::Tensor a_scale = at::zeros({m}, a.options());
  const bool single = method == GemmMethod::kFp16Scaled;
  const at::Tensor a_parts = split_rows(a, m, method, single ? SplitParts::kHi : SplitParts::kLeft3,
                                        a_scale.data_ptr<float>());
  at::Tensor out = at::empty({m, n_pad}, a.options());
  g.a = a_parts.data_ptr();
  g.b = parts.data_ptr();
  g.d = out.data_ptr();
  g.bias = padded_bias.defined() ? padded_bias.data_ptr() : nullptr;
  g.a_scale = a_scale.data_ptr<float>();
  g.b_scale = scales.data_ptr<float>();
  if (cuda::gemm_unsupported(g) != nullptr) return at::Tensor();
  return finish_output(out, n, ep, launch_split_gemm(g, a_parts, parts, out), partials);
}
#endif

std::tuple<at::Tensor, at::Tensor> linear_prepare_weight(const at::Tensor& weight) {
  check_floating("linear_prepare_weight", "weight", weight);
  TORCH_CHECK_VALUE(weight.dim() == 2, "kernelwright.linear_prepare_weight(): argument 'weight' "
                    "must be 2-D [out_features, in_features], but has shape ",
                    shape_str(weight.sizes()));
#ifdef KW_WITH_CUDA
  if (weight.is_cuda() && weight.scalar_type() == at::kFloat && weight.numel() > 0) {
    const int64_t n = weight.size(0), k = weight.size(1);
    const GemmMethod method = prepared_method(n, k);
    const int64_t n_pad = round_up(n, 4);  // the output's rows are 16 bytes a multiple
    if (method != GemmMethod::kHalf &&
        cuda::gemm_unsupported(prepared_args(method, 1, n_pad, parts_width(k, method))) == nullptr) {
      c10::DeviceGuard guard(weight.device());
      at::Tensor scales = at::zeros({n_pad}, weight.options());
      const bool single = method == GemmMethod::kFp16Scaled;
      at::Tensor parts = split_rows(weight, n_pad, method,
                                    single ? SplitParts::kHi : SplitParts::kRight3,
                                    scales.data_ptr<float>());
      return {parts, scales};
    }
  }
#endif
  return {at::empty({0, 0}, weight.options().dtype(at::kHalf)),
          at::empty({0}, weight.options().dtype(at::kFloat))};
}

}  // namespace kw
