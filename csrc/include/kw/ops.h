// The C++ implementations behind the schemas in csrc/registration.cpp.
#pragma once

#include <ATen/core/Tensor.h>

#include <array>
#include <optional>
#include <tuple>

namespace kw {

at::Tensor elu(const at::Tensor& x, double alpha);
at::Tensor elu_backward(const at::Tensor& grad, const at::Tensor& x, double alpha);
at::Tensor sigmoid(const at::Tensor& x);
at::Tensor sigmoid_backward(const at::Tensor& grad, const at::Tensor& y);
at::Tensor square(const at::Tensor& x);
at::Tensor square_backward(const at::Tensor& grad, const at::Tensor& x);
at::Tensor mul(const at::Tensor& a, const at::Tensor& b);
std::tuple<at::Tensor, at::Tensor> mul_backward(const at::Tensor& grad, const at::Tensor& a,
                                                const at::Tensor& b);
at::Tensor add(const at::Tensor& a, const at::Tensor& b, double alpha);
at::Tensor logsumexp(const at::Tensor& x, at::IntArrayRef dim, bool keepdim);
at::Tensor logsumexp_backward(const at::Tensor& grad, const at::Tensor& x,
                              const at::Tensor& result, at::IntArrayRef dim, bool keepdim);
at::Tensor softmax(const at::Tensor& x, int64_t dim);
at::Tensor softmax_backward(const at::Tensor& grad, const at::Tensor& y, int64_t dim);
std::tuple<at::Tensor, at::Tensor, at::Tensor> layer_norm(const at::Tensor& x,
                                                          at::IntArrayRef normalized_shape,
                                                          const std::optional<at::Tensor>& weight,
                                                          const std::optional<at::Tensor>& bias,
                                                          double eps);
std::tuple<at::Tensor, at::Tensor, at::Tensor> layer_norm_backward(
    const at::Tensor& grad, const at::Tensor& x, const at::Tensor& mean, const at::Tensor& rstd,
    at::IntArrayRef normalized_shape, const std::optional<at::Tensor>& weight, bool has_bias);
std::tuple<at::Tensor, at::Tensor> rms_norm(const at::Tensor& x, at::IntArrayRef normalized_shape,
                                            const std::optional<at::Tensor>& weight,
                                            std::optional<double> eps);
std::tuple<at::Tensor, at::Tensor> rms_norm_backward(const at::Tensor& grad, const at::Tensor& x,
                                                     const at::Tensor& rstd,
                                                     at::IntArrayRef normalized_shape,
                                                     const std::optional<at::Tensor>& weight);
at::Tensor linear(const at::Tensor& x, const at::Tensor& weight,
                  const std::optional<at::Tensor>& bias, c10::string_view activation);
// linear with the weight's conversion for the tensor-core GEMM made once (linear_prepare_weight:
// empty tensors where none applies); falls back to linear where the prepared path does not.
std::tuple<at::Tensor, at::Tensor> linear_prepare_weight(const at::Tensor& weight);
at::Tensor linear_prepared(const at::Tensor& x, const at::Tensor& weight,
                           const at::Tensor& weight_parts, const at::Tensor& weight_scales,
                           const std::optional<at::Tensor>& bias, c10::string_view activation);
// linear whose epilogue runs a pointwise program (kw::EpilogueProgram: `code` five ints a step,
// `consts`, vectors along n in `columns` and along m in `rows`, full-size operands of the
// output's shape in `fulls`) on x @ weight^T + bias; from the
// weight's conversion where weight_parts and weight_scales are given (linear_prepare_weight).
// reduce (an EpilogueReduce, not 0): the result's rows are to be reduced, and the op returns
// [rows, p] whose rows reduced the same way give the answer: the kernel's partials, one per
// output tile of columns (for a logsumexp, each tile's), where it reduced; else the program's
// whole result.
at::Tensor linear_program(const at::Tensor& x, const at::Tensor& weight,
                          const std::optional<at::Tensor>& bias, at::IntArrayRef code,
                          at::ArrayRef<double> consts, at::TensorList columns, at::TensorList rows,
                          at::TensorList fulls, const std::optional<at::Tensor>& weight_parts,
                          const std::optional<at::Tensor>& weight_scales, int64_t reduce);
// a [..., k] @ b [k, n]: checks its arguments, then calls kernelwright::linear(a, b^T).
void check_matmul_args(const at::Tensor& a, const at::Tensor& b);
// True when no kernel of ours would take matmul(a, b) (checked arguments): linear would hand it
// to ATen, so a caller that records no gradient may call at::matmul directly and save the two
// views and the dispatch of the way through linear.
bool matmul_goes_to_aten(const at::Tensor& a, const at::Tensor& b);
at::Tensor matmul(const at::Tensor& a, const at::Tensor& b);
std::tuple<at::Tensor, at::Tensor, at::Tensor> linear_backward(
    const at::Tensor& grad, const at::Tensor& x, const at::Tensor& weight,
    const std::optional<at::Tensor>& bias, const at::Tensor& output, c10::string_view activation,
    std::array<bool, 3> output_mask);

}  // namespace kw
