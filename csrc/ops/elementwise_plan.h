// Turns op arguments into ElementwiseArgs: checks, type promotion, broadcasting, output
// allocation with PyTorch's memory layout (through TensorIterator), and the choice between the
// dense vectorised path, the broadcast-scalar path and the strided path.
#pragma once

#include <ATen/ExpandUtils.h>
#include <ATen/TensorIterator.h>
#include <ATen/core/Tensor.h>
#include <ATen/native/TypeProperties.h>

#include <array>
#include <cstdint>
#include <limits>
#include <string>

#include "kw/elementwise_args.h"
#include "kw/tensor_checks.h"
#include "launch.h"

namespace kw {

template <int NIn, int NOut>
struct ElementwisePlan {
  ElementwiseArgs<NIn, NOut> args{};
  std::array<at::Tensor, NOut> outputs;
  std::array<at::Tensor, NIn> inputs;  // keeps converted inputs alive until the launch
  at::Device device{at::kCPU};
};

namespace detail {

template <int NIn>
std::vector<int64_t> broadcast_shape(const char* op, const std::array<at::Tensor, NIn>& ins,
                                     const char* const (&names)[NIn]) {
  std::vector<int64_t> shape = ins[0].sizes().vec();
  for (int k = 1; k < NIn; ++k) {
    const auto s = ins[k].sizes();
    const size_t nd = std::max(shape.size(), s.size());
    std::vector<int64_t> out(nd, 1);
    for (size_t i = 0; i < nd; ++i) {
      const int64_t a = i < nd - shape.size() ? 1 : shape[i - (nd - shape.size())];
      const int64_t b = i < nd - s.size() ? 1 : s[i - (nd - s.size())];
      TORCH_CHECK_VALUE(a == b || a == 1 || b == 1, "kernelwright.", op, "(): argument '",
                        names[k], "' has shape ", shape_str(s), " which cannot be broadcast with ",
                        k == 1 ? "argument '" + std::string(names[0]) + "' of shape "
                               : std::string("the other arguments' shape "),
                        shape_str(shape));
      out[i] = a == 1 ? b : a;
    }
    shape = std::move(out);
  }
  return shape;
}

template <int NIn, int NOut>
void fill_geometry(ElementwisePlan<NIn, NOut>& plan, const at::TensorIteratorBase& iter,
                   const std::array<int, NIn>& iter_operand_of_input) {
  auto& a = plan.args;
  a.numel = iter.numel();
  a.contiguous = iter.is_contiguous();
  a.use_32bit_index = iter.can_use_32bit_indexing();
  a.ndim = std::max<int>(iter.ndim(), 1);
  const auto shape = iter.shape();
  for (int d = 0; d < a.ndim; ++d) a.sizes[d] = iter.ndim() ? shape[d] : 1;
  const int64_t elem = iter.element_size(0);
  auto fill = [&](int arg_k, int iter_k) {
    const auto strides = iter.strides(iter_k);
    for (int d = 0; d < a.ndim; ++d) a.strides[arg_k][d] = iter.ndim() ? strides[d] / elem : 1;
  };
  for (int k = 0; k < NOut; ++k) {
    fill(k, k);
    a.out[k] = iter.data_ptr(k);
  }
  for (int k = 0; k < NIn; ++k) {
    if (a.is_scalar[k]) continue;
    fill(NOut + k, iter_operand_of_input[k]);
    a.in[k] = iter.data_ptr(iter_operand_of_input[k]);
  }
}

// Every input contiguous, of one shape, dtype and device: nothing to broadcast, promote or
// lay out.
template <int NIn>
bool all_dense_alike(const at::Tensor* const (&inputs)[NIn]) {
  const at::Tensor& lead = *inputs[0];
  if (!lead.is_contiguous()) return false;
  for (int k = 1; k < NIn; ++k) {
    const at::Tensor& t = *inputs[k];
    if (t.scalar_type() != lead.scalar_type() || t.device() != lead.device() ||
        t.sizes() != lead.sizes() || !t.is_contiguous())
      return false;
  }
  return true;
}

// The plan of all_dense_alike inputs: one flat dimension, outputs contiguous as TensorIterator
// would make them. Building a TensorIterator and allocating its outputs through the dispatcher
// costs more host time than a small kernel runs.
template <int NIn, int NOut>
void plan_dense(ElementwisePlan<NIn, NOut>& plan, const at::Tensor* const (&inputs)[NIn]) {
  const at::Tensor& lead = *inputs[0];
  auto& a = plan.args;
  a.dtype = to_kw_dtype(lead.scalar_type());
  a.numel = lead.numel();
  a.contiguous = true;
  a.use_32bit_index = a.numel * static_cast<int64_t>(lead.element_size()) <=
                      static_cast<int64_t>(std::numeric_limits<int32_t>::max());
  a.ndim = 1;
  a.sizes[0] = a.numel;
  for (int k = 0; k < NIn + NOut; ++k) a.strides[k][0] = 1;
  for (int k = 0; k < NOut; ++k) {
    plan.outputs[k] = empty_dense(lead);
    a.out[k] = plan.outputs[k].data_ptr();
  }
  for (int k = 0; k < NIn; ++k) {
    plan.inputs[k] = *inputs[k];
    a.in[k] = plan.inputs[k].data_ptr();
  }
}

}  // namespace detail

// inputs: the op's tensor arguments, in the order the functor takes them.
template <int NIn, int NOut>
ElementwisePlan<NIn, NOut> plan_elementwise(const char* op,
                                            const at::Tensor* const (&inputs)[NIn],
                                            const char* const (&names)[NIn]) {
  ElementwisePlan<NIn, NOut> plan;
  for (int k = 0; k < NIn; ++k) check_floating(op, names[k], *inputs[k]);
  plan.device = common_device(op, inputs, names);
  if (detail::all_dense_alike<NIn>(inputs)) {
    detail::plan_dense<NIn, NOut>(plan, inputs);
    return plan;
  }

  at::ScalarType dtype = inputs[0]->scalar_type();
  if (NIn > 1) {
    at::native::ResultTypeState state{};
    for (int k = 0; k < NIn; ++k) state = at::native::update_result_type_state(*inputs[k], state);
    dtype = at::native::result_type(state);
  }
  for (int k = 0; k < NIn; ++k) plan.inputs[k] = *inputs[k];
  const auto shape = detail::broadcast_shape<NIn>(op, plan.inputs, names);

  // A one-element input that does not shape the result is read once per thread instead of
  // through a zero stride, which keeps the other operands on the vectorised path.
  int tensors = 0;
  for (int k = 0; k < NIn; ++k) {
    const at::Tensor& t = plan.inputs[k];
    const bool scalar = NIn > 1 && t.numel() == 1 && t.dim() <= static_cast<int64_t>(shape.size());
    plan.args.is_scalar[k] = scalar;
    tensors += !scalar;
  }
  if (tensors > 0) {
    // A scalar must not be what gives the result its shape.
    std::vector<int64_t> rest;
    bool first = true;
    for (int k = 0; k < NIn; ++k) {
      if (plan.args.is_scalar[k]) continue;
      rest = first ? plan.inputs[k].sizes().vec() : at::infer_size(rest, plan.inputs[k].sizes());
      first = false;
    }
    if (rest != shape) tensors = 0;
  }
  if (tensors == 0)
    for (int k = 0; k < NIn; ++k) plan.args.is_scalar[k] = false;

  for (int k = 0; k < NIn; ++k) {
    at::Tensor& t = plan.inputs[k];
    if (plan.args.is_scalar[k]) {
      if (t.device().is_cpu()) {
        // Read on the host (no device sync) and taken in the compute type, not rounded to
        // the result dtype first: torch.mul(bf16, 0.1) multiplies by float 0.1 too.
        plan.args.scalar_ptr[k] = nullptr;
        plan.args.scalar_value[k] = t.item<double>();
        continue;
      }
      if (t.scalar_type() != dtype) t = t.to(dtype);
      plan.args.scalar_ptr[k] = t.data_ptr();
      continue;
    }
    if (t.scalar_type() != dtype || t.device() != plan.device)
      t = t.to(plan.device, dtype, /*non_blocking=*/false, /*copy=*/false);
  }

  auto build = [&]() {
    at::TensorIteratorConfig config;
    config.check_all_same_dtype(true).resize_outputs(true);
    for (int k = 0; k < NOut; ++k) config.add_owned_output(at::Tensor());
    std::array<int, NIn> iter_index{};
    int next = NOut;
    for (int k = 0; k < NIn; ++k)
      if (!plan.args.is_scalar[k]) {
        config.add_const_input(plan.inputs[k]);
        iter_index[k] = next++;
      }
    return std::make_pair(config.build(), iter_index);
  };
  auto built = build();
  if (built.first.ndim() > kMaxDims) {
    // Rare layouts that do not coalesce into kMaxDims dims: compute on dense copies.
    for (int k = 0; k < NIn; ++k)
      if (!plan.args.is_scalar[k]) plan.inputs[k] = plan.inputs[k].expand(shape).contiguous();
    built = build();
  }
  plan.args.dtype = to_kw_dtype(dtype);
  detail::fill_geometry<NIn, NOut>(plan, built.first, built.second);
  for (int k = 0; k < NOut; ++k) plan.outputs[k] = built.first.output(k);
  return plan;
}

}  // namespace kw
