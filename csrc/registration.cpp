// Every kernelwright op is defined here, once. Fake kernels and autograd are registered from
// Python (src/kernelwright/ops); the CPU and CUDA implementations live in csrc/ops; the Python
// module that loading this library creates is in csrc/python_module.cpp.
#include <torch/csrc/autograd/autograd_not_implemented_fallback.h>
#include <torch/library.h>

#include "kw/ops.h"

TORCH_LIBRARY(kernelwright, m) {
  m.def("linear(Tensor x, Tensor weight, Tensor? bias=None, str activation='none') -> Tensor");
  m.def("matmul(Tensor a, Tensor b) -> Tensor");
  m.def("linear_prepare_weight(Tensor weight) -> (Tensor, Tensor)");
  m.def(
      "linear_prepared(Tensor x, Tensor weight, Tensor weight_parts, Tensor weight_scales, "
      "Tensor? bias=None, str activation='none') -> Tensor");
  m.def(
      "linear_program(Tensor x, Tensor weight, Tensor? bias, int[] code, float[] consts, "
      "Tensor[] columns, Tensor[] rows, Tensor[] fulls, Tensor? weight_parts, "
      "Tensor? weight_scales, int reduce=0) -> Tensor");
  m.def(
      "linear_backward(Tensor grad, Tensor x, Tensor weight, Tensor? bias, Tensor output, "
      "str activation, bool[3] output_mask) -> (Tensor, Tensor, Tensor)");
  m.def("elu(Tensor x, float alpha=1.0) -> Tensor");
  m.def("elu_backward(Tensor grad, Tensor x, float alpha) -> Tensor");
  m.def("sigmoid(Tensor x) -> Tensor");
  m.def("sigmoid_backward(Tensor grad, Tensor y) -> Tensor");
  m.def("square(Tensor x) -> Tensor");
  m.def("square_backward(Tensor grad, Tensor x) -> Tensor");
  m.def("mul(Tensor a, Tensor b) -> Tensor");
  m.def("mul_backward(Tensor grad, Tensor a, Tensor b) -> (Tensor, Tensor)");
  m.def("add(Tensor a, Tensor b, *, float alpha=1.0) -> Tensor");
  m.def("logsumexp(Tensor x, int[1] dim, bool keepdim=False) -> Tensor");
  m.def(
      "logsumexp_backward(Tensor grad, Tensor x, Tensor result, int[1] dim, bool keepdim) "
      "-> Tensor");
  m.def("softmax(Tensor x, int dim) -> Tensor");
  m.def("softmax_backward(Tensor grad, Tensor y, int dim) -> Tensor");
  m.def(
      "layer_norm(Tensor x, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None, "
      "float eps=1e-05) -> (Tensor, Tensor, Tensor)");
  m.def(
      "layer_norm_backward(Tensor grad, Tensor x, Tensor mean, Tensor rstd, "
      "int[] normalized_shape, Tensor? weight, bool has_bias) -> (Tensor, Tensor, Tensor)");
  m.def(
      "rms_norm(Tensor x, int[] normalized_shape, Tensor? weight=None, float? eps=None) "
      "-> (Tensor, Tensor)");
  m.def(
      "rms_norm_backward(Tensor grad, Tensor x, Tensor rstd, int[] normalized_shape, "
      "Tensor? weight) -> (Tensor, Tensor)");
}

#define KW_IMPL_ALL(m)                                     \
  m.impl("linear", &kw::linear);                           \
  m.impl("linear_prepare_weight", &kw::linear_prepare_weight); \
  m.impl("linear_prepared", &kw::linear_prepared);         \
  m.impl("linear_program", &kw::linear_program);           \
  m.impl("linear_backward", &kw::linear_backward);         \
  m.impl("elu", &kw::elu);                                 \
  m.impl("elu_backward", &kw::elu_backward);               \
  m.impl("sigmoid", &kw::sigmoid);                         \
  m.impl("sigmoid_backward", &kw::sigmoid_backward);       \
  m.impl("square", &kw::square);                           \
  m.impl("square_backward", &kw::square_backward);         \
  m.impl("mul", &kw::mul);                                 \
  m.impl("mul_backward", &kw::mul_backward);               \
  m.impl("add", &kw::add);                                 \
  m.impl("logsumexp", &kw::logsumexp);                     \
  m.impl("logsumexp_backward", &kw::logsumexp_backward);   \
  m.impl("softmax", &kw::softmax);                         \
  m.impl("softmax_backward", &kw::softmax_backward);       \
  m.impl("layer_norm", &kw::layer_norm);                   \
  m.impl("layer_norm_backward", &kw::layer_norm_backward); \
  m.impl("rms_norm", &kw::rms_norm);                       \
  m.impl("rms_norm_backward", &kw::rms_norm_backward);

TORCH_LIBRARY_IMPL(kernelwright, CPU, m) { KW_IMPL_ALL(m) }

// matmul is linear with b transposed (a view): it has no kernels or autograd of its own, so it
// runs, differentiates and traces as that linear call on every device.
TORCH_LIBRARY_IMPL(kernelwright, CompositeImplicitAutograd, m) { m.impl("matmul", &kw::matmul); }

// The backward ops have no derivatives of their own: differentiating one (a second derivative,
// through create_graph=True) raises "derivative for kernelwright::<op>_backward is not
// implemented" instead of the Autograd key's fallthrough, which treats it as a constant and
// gives a wrong second derivative with only a warning.
TORCH_LIBRARY_IMPL(kernelwright, Autograd, m) {
  for (const char* name : {"linear_backward", "elu_backward", "sigmoid_backward", "square_backward",
                           "mul_backward", "logsumexp_backward", "softmax_backward",
                           "layer_norm_backward", "rms_norm_backward"})
    m.impl(name, torch::autograd::autogradNotImplementedFallback());
}

#ifdef KW_WITH_CUDA
TORCH_LIBRARY_IMPL(kernelwright, CUDA, m) { KW_IMPL_ALL(m) }
#endif
