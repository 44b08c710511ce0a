// The Python module of the extension. Importing it registers the ops (registration.cpp); its
// functions are the eager fast path of kernelwright.ops.
//
// The autograd that torch.library.register_autograd installs (src/kernelwright/ops) is Python
// code: it serves torch.compile, opcheck and direct torch.ops calls, but in eager mode it costs
// ~15 us per forward and ~35 us per forward+backward of host time, more than a small tensor's
// kernels. These functions parse their arguments with the CPython API and call the op through
// the dispatcher (so devices, dispatch modes and the profiler behave as for torch.ops): below
// autograd when no gradient is needed, else through a C++ autograd Function whose backward
// calls the same backward ops as the Python formula. They return NotImplemented whenever the
// general path is needed: an argument that is not a plain tensor, or a torch function mode.
#include <Python.h>

#include <ATen/PythonTorchFunctionTLS.h>
#include <ATen/core/LegacyTypeDispatch.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/ExpandUtils.h>
#include <ATen/ops/matmul.h>
#include <ATen/ops/scalar_tensor.h>
#include <c10/core/GradMode.h>
#include <torch/csrc/Exceptions.h>
#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/functions/utils.h>
#include <torch/csrc/autograd/saved_variable.h>
#include <torch/csrc/autograd/python_variable.h>

#include <array>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "kw/ops.h"
#include "ops/epilogue_kernels.h"

namespace {

using torch::autograd::variable_list;

constexpr char kElu[] = "kernelwright::elu";
constexpr char kEluBackward[] = "kernelwright::elu_backward";
constexpr char kSigmoid[] = "kernelwright::sigmoid";
constexpr char kSigmoidBackward[] = "kernelwright::sigmoid_backward";
constexpr char kSquare[] = "kernelwright::square";
constexpr char kSquareBackward[] = "kernelwright::square_backward";
constexpr char kMul[] = "kernelwright::mul";
constexpr char kMulBackward[] = "kernelwright::mul_backward";
constexpr char kAdd[] = "kernelwright::add";
constexpr char kLogsumexp[] = "kernelwright::logsumexp";
constexpr char kLogsumexpBackward[] = "kernelwright::logsumexp_backward";
constexpr char kSoftmax[] = "kernelwright::softmax";
constexpr char kSoftmaxBackward[] = "kernelwright::softmax_backward";
constexpr char kLayerNorm[] = "kernelwright::layer_norm";
constexpr char kLayerNormBackward[] = "kernelwright::layer_norm_backward";
constexpr char kRmsNorm[] = "kernelwright::rms_norm";
constexpr char kRmsNormBackward[] = "kernelwright::rms_norm_backward";
constexpr char kLinear[] = "kernelwright::linear";
constexpr char kLinearBackward[] = "kernelwright::linear_backward";
constexpr char kLinearProgram[] = "kernelwright::linear_program";

using Tensor = at::Tensor;
using Unary = Tensor(const Tensor&);
using Binary = Tensor(const Tensor&, const Tensor&);
using EluSig = Tensor(const Tensor&, double);
using EluBackwardSig = Tensor(const Tensor&, const Tensor&, double);
using MulBackwardSig = std::tuple<Tensor, Tensor>(const Tensor&, const Tensor&, const Tensor&);
using AddSig = Tensor(const Tensor&, const Tensor&, double);
using LogsumexpSig = Tensor(const Tensor&, at::IntArrayRef, bool);
using LogsumexpBackwardSig =
    Tensor(const Tensor&, const Tensor&, const Tensor&, at::IntArrayRef, bool);
using OptTensor = std::optional<Tensor>;
using Tensor2 = std::tuple<Tensor, Tensor>;
using Tensor3 = std::tuple<Tensor, Tensor, Tensor>;
using SoftmaxSig = Tensor(const Tensor&, int64_t);
using SoftmaxBackwardSig = Tensor(const Tensor&, const Tensor&, int64_t);
using LayerNormSig = Tensor3(const Tensor&, at::IntArrayRef, const OptTensor&, const OptTensor&, double);
using LayerNormBackwardSig = Tensor3(const Tensor&, const Tensor&, const Tensor&, const Tensor&,
                                     at::IntArrayRef, const OptTensor&, bool);
using RmsNormSig = Tensor2(const Tensor&, at::IntArrayRef, const OptTensor&, std::optional<double>);
using RmsNormBackwardSig =
    Tensor2(const Tensor&, const Tensor&, const Tensor&, at::IntArrayRef, const OptTensor&);
using LinearSig = Tensor(const Tensor&, const Tensor&, const OptTensor&, c10::string_view);
using LinearProgramSig = Tensor(const Tensor&, const Tensor&, const OptTensor&, at::IntArrayRef,
                                at::ArrayRef<double>, at::TensorList, at::TensorList,
                                at::TensorList, const OptTensor&, const OptTensor&, int64_t);
using LinearBackwardSig = Tensor3(const Tensor&, const Tensor&, const Tensor&, const OptTensor&,
                                  const Tensor&, c10::string_view, std::array<bool, 3>);

// One handle per op, looked up once: the lookup is a hash-map search, too slow for every call.
template <const char* Name, typename Sig>
const c10::TypedOperatorHandle<Sig>& op() {
  static const auto handle =
      c10::Dispatcher::singleton().findSchemaOrThrow(Name, "").template typed<Sig>();
  return handle;
}

// The op's own kernels, skipping the (Python) autograd layer.
template <const char* Name, typename Sig, typename... Args>
auto below_autograd(Args&&... args) {
  at::AutoDispatchBelowADInplaceOrView guard;
  return op<Name, Sig>().call(std::forward<Args>(args)...);
}

// Ops called from a backward. Under create_graph (grad mode on) they go through the Autograd
// key as the Python formula calls them, so that differentiating a backward fails or succeeds
// the same way on both paths; otherwise that key has nothing to record, and skipping it saves
// host time on every backward call.
template <const char* Name, typename Sig, typename... Args>
auto dispatch(Args&&... args) {
  if (!c10::GradMode::is_enabled()) return below_autograd<Name, Sig>(std::forward<Args>(args)...);
  return op<Name, Sig>().call(std::forward<Args>(args)...);
}

// The fast path's backward nodes are built as ATen's generated ones are: Function<>'s node also
// keeps a context with a hash map of saved values, wraps outputs for views and in-place use and
// materialises undefined gradients, none of which these ops need, and on a 16 x 16384 tensor
// that host time showed next to eager's (benchmarks/NOTES.md change 14). A node's edges are its
// op's tensor inputs, in order; None (an undefined tensor) gets an empty edge.
using torch::autograd::Node;
using torch::autograd::SavedVariable;

// torch 2.13 holds autograd nodes in c10::intrusive_ptr, earlier releases in std::shared_ptr
// freed by deleteNode (found by argument lookup: it is gone from 2.13), which frees long
// chains of nodes without deep recursion.
template <typename N, typename Base = Node>
auto make_node() {
  if constexpr (std::is_base_of_v<c10::intrusive_ptr_target, Base>) {
    return c10::make_intrusive<N>();
  } else {
    return std::shared_ptr<N>(new N(), [](Base* node) { deleteNode(node); });
  }
}

// N, the backward of `out` computed from `inputs`, wired into the graph.
template <typename N, typename... Ts>
auto record(const Tensor& out, const Ts&... inputs) {
  auto node = make_node<N>();
  node->set_next_edges(torch::autograd::collect_next_edges(inputs...));
  torch::autograd::set_history(out, node);
  return node;
}

// A node holding NSaved saved tensors, dropped once the graph is freed. Its gradients come from
// backward(grad), under the node's lock; an undefined incoming gradient gives undefined ones.
template <size_t NSaved>
struct SavingNode : Node {
  std::array<SavedVariable, NSaved> saved;
  variable_list apply(variable_list&& grad) final {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!grad[0].defined()) return variable_list(num_outputs());
    return backward(grad[0]);
  }
  virtual variable_list backward(const Tensor& grad) = 0;
  void release_variables() override {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& v : saved) v.reset_data();
  }
};

struct EluBackward : SavingNode<1> {
  double alpha = 1.0;
  variable_list backward(const Tensor& grad) override {
    return {dispatch<kEluBackward, EluBackwardSig>(grad, saved[0].unpack(), alpha)};
  }
  std::string name() const override { return "kernelwright::EluBackward"; }
};

Tensor elu_with_grad(const Tensor& x, double alpha) {
  Tensor y = below_autograd<kElu, EluSig>(x, alpha);
  auto node = record<EluBackward>(y, x);
  node->saved[0] = SavedVariable(x, false);
  node->alpha = alpha;
  return y;
}

// d sigmoid = y (1 - y): the saved output is all the backward needs.
struct SigmoidBackward : SavingNode<1> {
  variable_list backward(const Tensor& grad) override {
    return {dispatch<kSigmoidBackward, Binary>(grad, saved[0].unpack(getptr()))};
  }
  std::string name() const override { return "kernelwright::SigmoidBackward"; }
};

Tensor sigmoid_with_grad(const Tensor& x) {
  Tensor y = below_autograd<kSigmoid, Unary>(x);
  auto node = record<SigmoidBackward>(y, x);
  node->saved[0] = SavedVariable(y, /*is_output=*/true);
  return y;
}

struct SquareBackward : SavingNode<1> {
  variable_list backward(const Tensor& grad) override {
    return {dispatch<kSquareBackward, Binary>(grad, saved[0].unpack())};
  }
  std::string name() const override { return "kernelwright::SquareBackward"; }
};

Tensor square_with_grad(const Tensor& x) {
  Tensor y = below_autograd<kSquare, Unary>(x);
  record<SquareBackward>(y, x)->saved[0] = SavedVariable(x, false);
  return y;
}

struct MulBackward : SavingNode<2> {
  variable_list backward(const Tensor& grad) override {
    auto grads = dispatch<kMulBackward, MulBackwardSig>(grad, saved[0].unpack(), saved[1].unpack());
    return {task_should_compute_output(0) ? std::get<0>(grads) : Tensor(),
            task_should_compute_output(1) ? std::get<1>(grads) : Tensor()};
  }
  std::string name() const override { return "kernelwright::MulBackward"; }
};

Tensor mul_with_grad(const Tensor& a, const Tensor& b) {
  Tensor y = below_autograd<kMul, Binary>(a, b);
  auto node = record<MulBackward>(y, a, b);
  node->saved[0] = SavedVariable(a, false);
  node->saved[1] = SavedVariable(b, false);
  return y;
}

// A broadcast operand's gradient is summed back to its shape, in its dtype.
Tensor reduce_to(Tensor grad, at::IntArrayRef shape, at::ScalarType dtype) {
  if (grad.sizes() != shape) grad = at::sum_to(grad, shape);
  return grad.scalar_type() == dtype ? grad : grad.to(dtype);
}

struct AddBackward : SavingNode<0> {
  double alpha = 1.0;
  std::vector<int64_t> a_sizes, b_sizes;
  at::ScalarType a_dtype = at::kFloat, b_dtype = at::kFloat;
  variable_list backward(const Tensor& grad) override {
    Tensor grad_a, grad_b;
    if (task_should_compute_output(0)) grad_a = reduce_to(grad, a_sizes, a_dtype);
    if (task_should_compute_output(1)) {
      // A 0-dim CPU scalar reaches the kernel by value: no fill kernel, no device read.
      Tensor scaled = grad;
      if (alpha != 1.0)
        scaled = dispatch<kMul, Binary>(grad, at::scalar_tensor(alpha, grad.scalar_type()));
      grad_b = reduce_to(scaled, b_sizes, b_dtype);
    }
    return {grad_a, grad_b};
  }
  std::string name() const override { return "kernelwright::AddBackward"; }
};

Tensor add_with_grad(const Tensor& a, const Tensor& b, double alpha) {
  Tensor y = below_autograd<kAdd, AddSig>(a, b, alpha);
  auto node = record<AddBackward>(y, a, b);
  node->alpha = alpha;
  node->a_sizes = a.sizes().vec();
  node->b_sizes = b.sizes().vec();
  node->a_dtype = a.scalar_type();
  node->b_dtype = b.scalar_type();
  return y;
}

struct LogsumexpBackward : SavingNode<2> {
  std::vector<int64_t> dims;
  bool keepdim = false;
  variable_list backward(const Tensor& grad) override {
    return {dispatch<kLogsumexpBackward, LogsumexpBackwardSig>(
        grad, saved[0].unpack(), saved[1].unpack(getptr()), dims, keepdim)};
  }
  std::string name() const override { return "kernelwright::LogsumexpBackward"; }
};

Tensor logsumexp_with_grad(const Tensor& x, const std::vector<int64_t>& dims, bool keepdim) {
  Tensor out = below_autograd<kLogsumexp, LogsumexpSig>(x, dims, keepdim);
  auto node = record<LogsumexpBackward>(out, x);
  node->saved[0] = SavedVariable(x, false);
  node->saved[1] = SavedVariable(out, /*is_output=*/true);
  node->dims = dims;
  node->keepdim = keepdim;
  return out;
}

struct SoftmaxBackward : SavingNode<1> {
  int64_t dim = 0;
  variable_list backward(const Tensor& grad) override {
    return {dispatch<kSoftmaxBackward, SoftmaxBackwardSig>(grad, saved[0].unpack(getptr()), dim)};
  }
  std::string name() const override { return "kernelwright::SoftmaxBackward"; }
};

Tensor softmax_with_grad(const Tensor& x, int64_t dim) {
  Tensor y = below_autograd<kSoftmax, SoftmaxSig>(x, dim);
  auto node = record<SoftmaxBackward>(y, x);
  node->saved[0] = SavedVariable(y, /*is_output=*/true);
  node->dim = dim;
  return y;
}

// None arrives as an undefined tensor; the ops take it as nullopt.
OptTensor optional(const Tensor& t) { return t.defined() ? OptTensor(t) : std::nullopt; }

// The statistics are saved, not returned: the public function returns the normalised tensor
// alone, as torch's does. Inputs (edges): x, weight, bias; absent ones have no edge to follow.
struct LayerNormBackward : SavingNode<4> {
  std::vector<int64_t> shape;
  bool has_bias = false;
  variable_list backward(const Tensor& grad) override {
    const Tensor weight = saved[3].unpack();
    auto [gx, gw, gb] = dispatch<kLayerNormBackward, LayerNormBackwardSig>(
        grad, saved[0].unpack(), saved[1].unpack(), saved[2].unpack(), shape, optional(weight),
        has_bias);
    return {gx, weight.defined() ? gw : Tensor(), has_bias ? gb : Tensor()};
  }
  std::string name() const override { return "kernelwright::LayerNormBackward"; }
};

Tensor layer_norm_with_grad(const Tensor& x, const std::vector<int64_t>& shape, const Tensor& weight,
                            const Tensor& bias, double eps) {
  auto [y, mean, rstd] =
      below_autograd<kLayerNorm, LayerNormSig>(x, shape, optional(weight), optional(bias), eps);
  auto node = record<LayerNormBackward>(y, x, weight, bias);
  node->saved[0] = SavedVariable(x, false);
  node->saved[1] = SavedVariable(mean, false);
  node->saved[2] = SavedVariable(rstd, false);
  node->saved[3] = SavedVariable(weight, false);
  node->shape = shape;
  node->has_bias = bias.defined();
  return y;
}

struct RmsNormBackward : SavingNode<3> {
  std::vector<int64_t> shape;
  variable_list backward(const Tensor& grad) override {
    const Tensor weight = saved[2].unpack();
    auto [gx, gw] = dispatch<kRmsNormBackward, RmsNormBackwardSig>(
        grad, saved[0].unpack(), saved[1].unpack(), shape, optional(weight));
    return {gx, weight.defined() ? gw : Tensor()};
  }
  std::string name() const override { return "kernelwright::RmsNormBackward"; }
};

Tensor rms_norm_with_grad(const Tensor& x, const std::vector<int64_t>& shape, const Tensor& weight,
                          std::optional<double> eps) {
  auto [y, rstd] = below_autograd<kRmsNorm, RmsNormSig>(x, shape, optional(weight), eps);
  auto node = record<RmsNormBackward>(y, x, weight);
  node->saved[0] = SavedVariable(x, false);
  node->saved[1] = SavedVariable(rstd, false);
  node->saved[2] = SavedVariable(weight, false);
  node->shape = shape;
  return y;
}

// Only the gradients some input needs are computed: a frozen weight costs no GEMM.
struct LinearBackward : SavingNode<4> {
  std::string activation;
  variable_list backward(const Tensor& grad) override {
    const Tensor bias = saved[2].unpack();
    const std::array<bool, 3> mask = {task_should_compute_output(0), task_should_compute_output(1),
                                      bias.defined() && task_should_compute_output(2)};
    auto [gx, gw, gb] = dispatch<kLinearBackward, LinearBackwardSig>(
        grad, saved[0].unpack(), saved[1].unpack(), optional(bias), saved[3].unpack(getptr()),
        activation, mask);
    return {mask[0] ? gx : Tensor(), mask[1] ? gw : Tensor(), mask[2] ? gb : Tensor()};
  }
  std::string name() const override { return "kernelwright::LinearBackward"; }
};

Tensor linear_with_grad(const Tensor& x, const Tensor& weight, const Tensor& bias,
                        const std::string& activation) {
  Tensor y = below_autograd<kLinear, LinearSig>(x, weight, optional(bias), activation);
  auto node = record<LinearBackward>(y, x, weight, bias);
  node->saved[0] = SavedVariable(x, false);
  node->saved[1] = SavedVariable(weight, false);
  node->saved[2] = SavedVariable(bias, false);
  node->saved[3] = SavedVariable(y, /*is_output=*/true);
  node->activation = activation;
  return y;
}

bool plain_tensor(PyObject* obj) { return THPVariable_CheckExact(obj); }

bool needs_autograd(const Tensor& t) {
  return c10::GradMode::is_enabled() && t.defined() && t.requires_grad();
}

// A torch function mode must see the call, which only the torch.ops path gives it.
bool fast_path_allowed() { return !at::impl::torch_function_mode_enabled(); }

PyObject* not_implemented() { Py_RETURN_NOTIMPLEMENTED; }

// None or a plain tensor (undefined for None); false for anything else.
bool optional_tensor(PyObject* obj, Tensor& out) {
  if (obj == Py_None) return true;
  if (!plain_tensor(obj)) return false;
  out = THPVariable_Unpack(obj);
  return true;
}

// One item of a Python list as the op takes it; false for anything else (the op path then
// raises the proper error).
bool int_item(PyObject* obj, int64_t& out) {
  if (!PyLong_CheckExact(obj)) return false;
  out = PyLong_AsLongLong(obj);
  if (!PyErr_Occurred()) return true;
  PyErr_Clear();  // too large for int64
  return false;
}

bool float_item(PyObject* obj, double& out) {
  if (!PyFloat_CheckExact(obj)) return false;
  out = PyFloat_AS_DOUBLE(obj);
  return true;
}

bool tensor_item(PyObject* obj, Tensor& out) {
  if (!plain_tensor(obj)) return false;
  out = THPVariable_Unpack(obj);
  return true;
}

// A Python list whose every item `item` takes.
template <typename T>
bool list_of(PyObject* obj, std::vector<T>& out, bool (*item)(PyObject*, T&)) {
  if (!PyList_CheckExact(obj)) return false;
  out.resize(static_cast<size_t>(PyList_GET_SIZE(obj)));
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(obj); ++i)
    if (!item(PyList_GET_ITEM(obj, i), out[static_cast<size_t>(i)])) return false;
  return true;
}

// Runs fn() without the GIL (the kernels may be long) and wraps its tensor.
template <typename Fn>
PyObject* wrap_result(Fn&& fn) {
  Tensor out;
  {
    pybind11::gil_scoped_release no_gil;
    out = fn();
  }
  return THPVariable_Wrap(std::move(out));
}

#define KW_REQUIRE(cond) \
  if (!(cond) || !fast_path_allowed()) return not_implemented()

template <const char* Name, Tensor (*WithGrad)(const Tensor&)>
PyObject* unary(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  HANDLE_TH_ERRORS
  KW_REQUIRE(nargs == 1 && plain_tensor(args[0]));
  const Tensor& x = THPVariable_Unpack(args[0]);
  return wrap_result([&] { return needs_autograd(x) ? WithGrad(x) : below_autograd<Name, Unary>(x); });
  END_HANDLE_TH_ERRORS
}

PyObject* elu(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  HANDLE_TH_ERRORS
  KW_REQUIRE(nargs == 2 && plain_tensor(args[0]) && PyFloat_CheckExact(args[1]));
  const Tensor& x = THPVariable_Unpack(args[0]);
  const double alpha = PyFloat_AS_DOUBLE(args[1]);
  return wrap_result(
      [&] { return needs_autograd(x) ? elu_with_grad(x, alpha) : below_autograd<kElu, EluSig>(x, alpha); });
  END_HANDLE_TH_ERRORS
}

PyObject* mul(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  HANDLE_TH_ERRORS
  KW_REQUIRE(nargs == 2 && plain_tensor(args[0]) && plain_tensor(args[1]));
  const Tensor& a = THPVariable_Unpack(args[0]);
  const Tensor& b = THPVariable_Unpack(args[1]);
  return wrap_result([&] {
    return needs_autograd(a) || needs_autograd(b) ? mul_with_grad(a, b) : below_autograd<kMul, Binary>(a, b);
  });
  END_HANDLE_TH_ERRORS
}

PyObject* add(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  HANDLE_TH_ERRORS
  KW_REQUIRE(nargs == 3 && plain_tensor(args[0]) && plain_tensor(args[1]) && PyFloat_CheckExact(args[2]));
  const Tensor& a = THPVariable_Unpack(args[0]);
  const Tensor& b = THPVariable_Unpack(args[1]);
  const double alpha = PyFloat_AS_DOUBLE(args[2]);
  return wrap_result([&] {
    return needs_autograd(a) || needs_autograd(b) ? add_with_grad(a, b, alpha)
                                                  : below_autograd<kAdd, AddSig>(a, b, alpha);
  });
  END_HANDLE_TH_ERRORS
}

PyObject* logsumexp(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  HANDLE_TH_ERRORS
  std::vector<int64_t> dims;
  KW_REQUIRE(nargs == 3 && plain_tensor(args[0]) && list_of(args[1], dims, int_item) && PyBool_Check(args[2]));
  const Tensor& x = THPVariable_Unpack(args[0]);
  const bool keepdim = args[2] == Py_True;
  return wrap_result([&] {
    return needs_autograd(x) ? logsumexp_with_grad(x, dims, keepdim)
                             : below_autograd<kLogsumexp, LogsumexpSig>(x, dims, keepdim);
  });
  END_HANDLE_TH_ERRORS
}

PyObject* softmax(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  HANDLE_TH_ERRORS
  int overflow = 0;
  const int64_t dim = nargs == 2 && PyLong_CheckExact(args[1]) ? PyLong_AsLongLongAndOverflow(args[1], &overflow) : 0;
  KW_REQUIRE(nargs == 2 && plain_tensor(args[0]) && PyLong_CheckExact(args[1]) && !overflow);
  const Tensor& x = THPVariable_Unpack(args[0]);
  return wrap_result([&] {
    return needs_autograd(x) ? softmax_with_grad(x, dim) : below_autograd<kSoftmax, SoftmaxSig>(x, dim);
  });
  END_HANDLE_TH_ERRORS
}

// layer_norm(x, normalized_shape, weight, bias, eps) -> the normalised tensor only.
PyObject* layer_norm(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  HANDLE_TH_ERRORS
  std::vector<int64_t> shape;
  Tensor weight, bias;
  KW_REQUIRE(nargs == 5 && plain_tensor(args[0]) && list_of(args[1], shape, int_item) &&
             optional_tensor(args[2], weight) && optional_tensor(args[3], bias) &&
             PyFloat_CheckExact(args[4]));
  const Tensor& x = THPVariable_Unpack(args[0]);
  const double eps = PyFloat_AS_DOUBLE(args[4]);
  return wrap_result([&] {
    if (needs_autograd(x) || needs_autograd(weight) || needs_autograd(bias))
      return layer_norm_with_grad(x, shape, weight, bias, eps);
    return std::get<0>(below_autograd<kLayerNorm, LayerNormSig>(x, shape, optional(weight),
                                                                optional(bias), eps));
  });
  END_HANDLE_TH_ERRORS
}

// rms_norm(x, normalized_shape, weight, eps or None) -> the normalised tensor only.
PyObject* rms_norm(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  HANDLE_TH_ERRORS
  std::vector<int64_t> shape;
  Tensor weight;
  KW_REQUIRE(nargs == 4 && plain_tensor(args[0]) && list_of(args[1], shape, int_item) &&
             optional_tensor(args[2], weight) && (args[3] == Py_None || PyFloat_CheckExact(args[3])));
  const Tensor& x = THPVariable_Unpack(args[0]);
  const std::optional<double> eps =
      args[3] == Py_None ? std::nullopt : std::optional<double>(PyFloat_AS_DOUBLE(args[3]));
  return wrap_result([&] {
    if (needs_autograd(x) || needs_autograd(weight)) return rms_norm_with_grad(x, shape, weight, eps);
    return std::get<0>(below_autograd<kRmsNorm, RmsNormSig>(x, shape, optional(weight), eps));
  });
  END_HANDLE_TH_ERRORS
}

// linear(x, weight, bias or None, activation)
PyObject* linear(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  HANDLE_TH_ERRORS
  Tensor bias;
  KW_REQUIRE(nargs == 4 && plain_tensor(args[0]) && plain_tensor(args[1]) &&
             optional_tensor(args[2], bias) && PyUnicode_CheckExact(args[3]));
  const Tensor& x = THPVariable_Unpack(args[0]);
  const Tensor& weight = THPVariable_Unpack(args[1]);
  Py_ssize_t len = 0;
  const char* act = PyUnicode_AsUTF8AndSize(args[3], &len);
  if (act == nullptr) return nullptr;
  std::string activation(act, static_cast<size_t>(len));
  return wrap_result([&] {
    if (needs_autograd(x) || needs_autograd(weight) || needs_autograd(bias))
      return linear_with_grad(x, weight, bias, activation);
    return below_autograd<kLinear, LinearSig>(x, weight, optional(bias), activation);
  });
  END_HANDLE_TH_ERRORS
}

// linear_program(x, weight, bias, code, consts, columns, rows, fulls, weight_parts,
// weight_scales[, reduce]), where no gradient is needed: the autograd registered from Python recomputes the
// product, so a call that records one takes the op path.
PyObject* linear_program(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  HANDLE_TH_ERRORS
  Tensor bias, parts, scales;
  std::vector<int64_t> code;
  std::vector<double> consts;
  std::vector<Tensor> columns, rows, fulls;
  int64_t reduce = 0;
  KW_REQUIRE((nargs == 10 || nargs == 11) && plain_tensor(args[0]) && plain_tensor(args[1]) &&
             optional_tensor(args[2], bias) && list_of(args[3], code, int_item) &&
             list_of(args[4], consts, float_item) && list_of(args[5], columns, tensor_item) &&
             list_of(args[6], rows, tensor_item) && list_of(args[7], fulls, tensor_item) &&
             optional_tensor(args[8], parts) && optional_tensor(args[9], scales) &&
             (nargs == 10 || int_item(args[10], reduce)));
  const Tensor& x = THPVariable_Unpack(args[0]);
  const Tensor& weight = THPVariable_Unpack(args[1]);
  bool grad = needs_autograd(x) || needs_autograd(weight) || needs_autograd(bias);
  for (const auto& v : columns) grad = grad || needs_autograd(v);
  for (const auto& v : rows) grad = grad || needs_autograd(v);
  for (const auto& v : fulls) grad = grad || needs_autograd(v);
  if (grad) return not_implemented();
  return wrap_result([&] {
    return below_autograd<kLinearProgram, LinearProgramSig>(x, weight, optional(bias), code, consts,
                                                            columns, rows, fulls, optional(parts),
                                                            optional(scales), reduce);
  });
  END_HANDLE_TH_ERRORS
}

// matmul(a, b): kernelwright::matmul is linear(a, b^T) (registration.cpp); here too, with the
// transpose taken in C++ rather than by the caller.
PyObject* matmul(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  HANDLE_TH_ERRORS
  KW_REQUIRE(nargs == 2 && plain_tensor(args[0]) && plain_tensor(args[1]));
  const Tensor& a = THPVariable_Unpack(args[0]);
  const Tensor& b = THPVariable_Unpack(args[1]);
  return wrap_result([&] {
    kw::check_matmul_args(a, b);
    if (needs_autograd(a) || needs_autograd(b)) return linear_with_grad(a, b.t(), Tensor(), "none");
    // A thin product on cuBLAS is host-bound enough for the way through linear to show.
    if (kw::matmul_goes_to_aten(a, b)) return at::matmul(a, b);
    return below_autograd<kLinear, LinearSig>(a, b.t(), OptTensor(), "none");
  });
  END_HANDLE_TH_ERRORS
}

// The keys of GEMM epilogue kernels asked for and not loaded since the last call (a list of
// str, usually empty: it is asked after each programmed linear call).
PyObject* epilogue_kernels_wanted(PyObject*, PyObject*) {
  HANDLE_TH_ERRORS
  const std::vector<std::string> keys = kw::take_wanted_epilogue_kernels();
  PyObject* list = PyList_New(static_cast<Py_ssize_t>(keys.size()));
  if (list == nullptr) return nullptr;
  for (size_t i = 0; i < keys.size(); ++i) {
    PyObject* item = PyUnicode_FromStringAndSize(keys[i].data(), static_cast<Py_ssize_t>(keys[i].size()));
    if (item == nullptr) {
      Py_DECREF(list);
      return nullptr;
    }
    PyList_SET_ITEM(list, static_cast<Py_ssize_t>(i), item);
  }
  return list;
  END_HANDLE_TH_ERRORS
}

// load_epilogue_kernel(library, image, key): loads a compiled epilogue kernel (epilogue_kernels.h).
PyObject* load_epilogue_kernel(PyObject*, PyObject* args) {
  HANDLE_TH_ERRORS
  const char *library = nullptr, *image = nullptr, *key = nullptr;
  if (!PyArg_ParseTuple(args, "sss:load_epilogue_kernel", &library, &image, &key)) return nullptr;
  kw::load_epilogue_kernel(library, image, key);
  Py_RETURN_NONE;
  END_HANDLE_TH_ERRORS
}

#define KW_FAST(name, fn) \
  { name, reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fn)), METH_FASTCALL, nullptr }

PyMethodDef methods[] = {
    KW_FAST("sigmoid", (unary<kSigmoid, sigmoid_with_grad>)),
    KW_FAST("square", (unary<kSquare, square_with_grad>)),
    KW_FAST("elu", elu),
    KW_FAST("mul", mul),
    KW_FAST("add", add),
    KW_FAST("logsumexp", logsumexp),
    KW_FAST("softmax", softmax),
    KW_FAST("layer_norm", layer_norm),
    KW_FAST("rms_norm", rms_norm),
    KW_FAST("linear", linear),
    KW_FAST("linear_program", linear_program),
    KW_FAST("matmul", matmul),
    {"epilogue_kernels_wanted", epilogue_kernels_wanted, METH_NOARGS, nullptr},
    {"load_epilogue_kernel", load_epilogue_kernel, METH_VARARGS, nullptr},
    {nullptr, nullptr, 0, nullptr}};

#define KW_STR2(x) #x
#define KW_STR(x) KW_STR2(x)
#define KW_CONCAT2(a, b) a##b
#define KW_CONCAT(a, b) KW_CONCAT2(a, b)

PyModuleDef module_def = {PyModuleDef_HEAD_INIT, KW_STR(TORCH_EXTENSION_NAME), nullptr, -1, methods};

}  // namespace

// Named after the build: kernelwright._C ahead of time, kernelwright_ops just in time.
PyMODINIT_FUNC KW_CONCAT(PyInit_, TORCH_EXTENSION_NAME)(void) { return PyModule_Create(&module_def); }
