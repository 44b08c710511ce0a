// Torch-facing glue of the elementwise ops: plan (checks, promotion, broadcasting, layout),
// then launch on the CPU or the CUDA device.
#include <ATen/ExpandUtils.h>

#include "kw/launchers.h"
#include "kw/ops.h"
#include "elementwise_plan.h"
#include "launch.h"

namespace kw {
namespace {

// Plans and launches an op with one output; cpu_fn/cuda_fn take the plan's args.
template <int NIn, typename CpuFn, typename CudaFn>
at::Tensor run(const char* op, const at::Tensor* const (&inputs)[NIn],
               const char* const (&names)[NIn], CpuFn&& cpu_fn, CudaFn&& cuda_fn) {
  auto plan = plan_elementwise<NIn, 1>(op, inputs, names);
  if (plan.args.numel > 0)
    launch_on(
        op, plan.device, [&] { cpu_fn(plan.args); },
        [&](void* stream) { return cuda_fn(plan.args, stream); });
  return plan.outputs[0];
}

#ifdef KW_WITH_CUDA
#define KW_CUDA_FN(expr) [&](const auto& a, void* stream) { return cuda::expr; }
#else
#define KW_CUDA_FN(expr) [&](const auto&, void*) { return 0; }
#endif
#define KW_CPU_FN(expr) [&](const auto& a) { cpu::expr; }

}  // namespace

at::Tensor elu(const at::Tensor& x, double alpha) {
  return run<1>("elu", {&x}, {"x"}, KW_CPU_FN(elu_forward(a, alpha)),
                KW_CUDA_FN(elu_forward(a, alpha, stream)));
}

at::Tensor elu_backward(const at::Tensor& grad, const at::Tensor& x, double alpha) {
  return run<2>("elu_backward", {&grad, &x}, {"grad", "x"}, KW_CPU_FN(elu_backward(a, alpha)),
                KW_CUDA_FN(elu_backward(a, alpha, stream)));
}

at::Tensor sigmoid(const at::Tensor& x) {
  return run<1>("sigmoid", {&x}, {"x"}, KW_CPU_FN(sigmoid_forward(a)),
                KW_CUDA_FN(sigmoid_forward(a, stream)));
}

at::Tensor sigmoid_backward(const at::Tensor& grad, const at::Tensor& y) {
  return run<2>("sigmoid_backward", {&grad, &y}, {"grad", "y"}, KW_CPU_FN(sigmoid_backward(a)),
                KW_CUDA_FN(sigmoid_backward(a, stream)));
}

at::Tensor square(const at::Tensor& x) {
  return run<1>("square", {&x}, {"x"}, KW_CPU_FN(square_forward(a)),
                KW_CUDA_FN(square_forward(a, stream)));
}

at::Tensor square_backward(const at::Tensor& grad, const at::Tensor& x) {
  return run<2>("square_backward", {&grad, &x}, {"grad", "x"}, KW_CPU_FN(square_backward(a)),
                KW_CUDA_FN(square_backward(a, stream)));
}

at::Tensor mul(const at::Tensor& a_, const at::Tensor& b) {
  return run<2>("mul", {&a_, &b}, {"a", "b"}, KW_CPU_FN(mul_forward(a)),
                KW_CUDA_FN(mul_forward(a, stream)));
}

at::Tensor add(const at::Tensor& a_, const at::Tensor& b, double alpha) {
  return run<2>("add", {&a_, &b}, {"a", "b"}, KW_CPU_FN(add_forward(a, alpha)),
                KW_CUDA_FN(add_forward(a, alpha, stream)));
}

std::tuple<at::Tensor, at::Tensor> mul_backward(const at::Tensor& grad, const at::Tensor& a_,
                                                const at::Tensor& b) {
  const char* op = "mul_backward";
  const at::Tensor* inputs[3] = {&grad, &a_, &b};
  const char* const names[3] = {"grad", "a", "b"};
  if (a_.sizes() == grad.sizes() && b.sizes() == grad.sizes()) {
    auto plan = plan_elementwise<3, 2>(op, inputs, names);
    auto cpu_fn = KW_CPU_FN(mul_backward(a));
    auto cuda_fn = KW_CUDA_FN(mul_backward(a, stream));
    if (plan.args.numel > 0)
      launch_on(
          op, plan.device, [&] { cpu_fn(plan.args); },
          [&](void* stream) { return cuda_fn(plan.args, stream); });
    return {plan.outputs[0], plan.outputs[1]};
  }
  // Broadcast inputs: each gradient is a product reduced back to its input's shape.
  at::Tensor ga = at::sum_to(kw::mul(grad, b), a_.sizes());
  at::Tensor gb = at::sum_to(kw::mul(grad, a_), b.sizes());
  return {ga.to(a_.scalar_type()), gb.to(b.scalar_type())};
}

}  // namespace kw
