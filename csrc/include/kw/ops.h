// The C++ implementations behind the schemas in csrc/registration.cpp.
#pragma once

#include <ATen/core/Tensor.h>

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

}  // namespace kw
