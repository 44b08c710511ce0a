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
#include <ATen/ops/scalar_tensor.h>
#include <c10/core/GradMode.h>
#include <torch/csrc/Exceptions.h>
#include <torch/csrc/autograd/custom_function.h>
#include <torch/csrc/autograd/python_variable.h>

#include <array>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "kw/ops.h"

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::Function;
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

struct EluFn : Function<EluFn> {
  static Tensor forward(AutogradContext* ctx, const Tensor& x, double alpha) {
    ctx->save_for_backward({x});
    ctx->saved_data["alpha"] = alpha;
    return below_autograd<kElu, EluSig>(x, alpha);
  }
  static variable_list backward(AutogradContext* ctx, variable_list grad) {
    const auto x = ctx->get_saved_variables()[0];
    return {dispatch<kEluBackward, EluBackwardSig>(grad[0], x, ctx->saved_data["alpha"].toDouble()),
            Tensor()};
  }
};

// d sigmoid = y (1 - y): the saved output is all the backward needs.
struct SigmoidFn : Function<SigmoidFn> {
  static Tensor forward(AutogradContext* ctx, const Tensor& x) {
    Tensor y = below_autograd<kSigmoid, Unary>(x);
    ctx->save_for_backward({y});
    return y;
  }
  static variable_list backward(AutogradContext* ctx, variable_list grad) {
    return {dispatch<kSigmoidBackward, Binary>(grad[0], ctx->get_saved_variables()[0])};
  }
};

struct SquareFn : Function<SquareFn> {
  static Tensor forward(AutogradContext* ctx, const Tensor& x) {
    ctx->save_for_backward({x});
    return below_autograd<kSquare, Unary>(x);
  }
  static variable_list backward(AutogradContext* ctx, variable_list grad) {
    return {dispatch<kSquareBackward, Binary>(grad[0], ctx->get_saved_variables()[0])};
  }
};

struct MulFn : Function<MulFn> {
  static Tensor forward(AutogradContext* ctx, const Tensor& a, const Tensor& b) {
    ctx->save_for_backward({a, b});
    return below_autograd<kMul, Binary>(a, b);
  }
  static variable_list backward(AutogradContext* ctx, variable_list grad) {
    const auto saved = ctx->get_saved_variables();
    auto grads = dispatch<kMulBackward, MulBackwardSig>(grad[0], saved[0], saved[1]);
    return {ctx->needs_input_grad(0) ? std::get<0>(grads) : Tensor(),
            ctx->needs_input_grad(1) ? std::get<1>(grads) : Tensor()};
  }
};

// A broadcast operand's gradient is summed back to its shape, in its dtype.
Tensor reduce_to(Tensor grad, const c10::IValue& sizes, const c10::IValue& dtype) {
  const auto shape = sizes.toIntVector();
  if (grad.sizes() != at::IntArrayRef(shape)) grad = at::sum_to(grad, shape);
  const auto st = static_cast<at::ScalarType>(dtype.toInt());
  return grad.scalar_type() == st ? grad : grad.to(st);
}

struct AddFn : Function<AddFn> {
  static Tensor forward(AutogradContext* ctx, const Tensor& a, const Tensor& b, double alpha) {
    ctx->saved_data["alpha"] = alpha;
    ctx->saved_data["a_sizes"] = a.sizes().vec();
    ctx->saved_data["b_sizes"] = b.sizes().vec();
    ctx->saved_data["a_dtype"] = static_cast<int64_t>(a.scalar_type());
    ctx->saved_data["b_dtype"] = static_cast<int64_t>(b.scalar_type());
    return below_autograd<kAdd, AddSig>(a, b, alpha);
  }
  static variable_list backward(AutogradContext* ctx, variable_list grad) {
    auto& d = ctx->saved_data;
    Tensor grad_a, grad_b;
    if (ctx->needs_input_grad(0)) grad_a = reduce_to(grad[0], d["a_sizes"], d["a_dtype"]);
    if (ctx->needs_input_grad(1)) {
      const double alpha = d["alpha"].toDouble();
      // A 0-dim CPU scalar reaches the kernel by value: no fill kernel, no device read.
      Tensor scaled = grad[0];
      if (alpha != 1.0)
        scaled = dispatch<kMul, Binary>(grad[0], at::scalar_tensor(alpha, grad[0].scalar_type()));
      grad_b = reduce_to(scaled, d["b_sizes"], d["b_dtype"]);
    }
    return {grad_a, grad_b, Tensor()};
  }
};

struct LogsumexpFn : Function<LogsumexpFn> {
  static Tensor forward(AutogradContext* ctx, const Tensor& x, std::vector<int64_t> dims, bool keepdim) {
    Tensor out = below_autograd<kLogsumexp, LogsumexpSig>(x, dims, keepdim);
    ctx->save_for_backward({x, out});
    ctx->saved_data["dims"] = dims;
    ctx->saved_data["keepdim"] = keepdim;
    return out;
  }
  static variable_list backward(AutogradContext* ctx, variable_list grad) {
    const auto saved = ctx->get_saved_variables();
    const auto dims = ctx->saved_data["dims"].toIntVector();
    return {dispatch<kLogsumexpBackward, LogsumexpBackwardSig>(grad[0], saved[0], saved[1], dims,
                                                               ctx->saved_data["keepdim"].toBool()),
            Tensor(), Tensor()};
  }
};

struct SoftmaxFn : Function<SoftmaxFn> {
  static Tensor forward(AutogradContext* ctx, const Tensor& x, int64_t dim) {
    Tensor y = below_autograd<kSoftmax, SoftmaxSig>(x, dim);
    ctx->save_for_backward({y});
    ctx->saved_data["dim"] = dim;
    return y;
  }
  static variable_list backward(AutogradContext* ctx, variable_list grad) {
    return {dispatch<kSoftmaxBackward, SoftmaxBackwardSig>(grad[0], ctx->get_saved_variables()[0],
                                                           ctx->saved_data["dim"].toInt()),
            Tensor()};
  }
};

// None arrives as an undefined tensor; Function::apply and the ops take it as nullopt.
OptTensor optional(const Tensor& t) { return t.defined() ? OptTensor(t) : std::nullopt; }

// The statistics are saved, not returned: the public function returns the normalised tensor
// alone, as torch's does.
struct LayerNormFn : Function<LayerNormFn> {
  static Tensor forward(AutogradContext* ctx, const Tensor& x, std::vector<int64_t> shape,
                        const OptTensor& weight, const OptTensor& bias, double eps) {
    auto [y, mean, rstd] = below_autograd<kLayerNorm, LayerNormSig>(x, shape, weight, bias, eps);
    ctx->save_for_backward({x, mean, rstd, weight.value_or(Tensor())});
    ctx->saved_data["shape"] = shape;
    ctx->saved_data["has_bias"] = bias.has_value();
    return y;
  }
  static variable_list backward(AutogradContext* ctx, variable_list grad) {
    const auto s = ctx->get_saved_variables();
    auto [gx, gw, gb] = dispatch<kLayerNormBackward, LayerNormBackwardSig>(
        grad[0], s[0], s[1], s[2], ctx->saved_data["shape"].toIntVector(), optional(s[3]),
        ctx->saved_data["has_bias"].toBool());
    return {gx, Tensor(), s[3].defined() ? gw : Tensor(),
            ctx->saved_data["has_bias"].toBool() ? gb : Tensor(), Tensor()};
  }
};

struct RmsNormFn : Function<RmsNormFn> {
  static Tensor forward(AutogradContext* ctx, const Tensor& x, std::vector<int64_t> shape,
                        const OptTensor& weight, std::optional<double> eps) {
    auto [y, rstd] = below_autograd<kRmsNorm, RmsNormSig>(x, shape, weight, eps);
    ctx->save_for_backward({x, rstd, weight.value_or(Tensor())});
    ctx->saved_data["shape"] = shape;
    return y;
  }
  static variable_list backward(AutogradContext* ctx, variable_list grad) {
    const auto s = ctx->get_saved_variables();
    auto [gx, gw] = dispatch<kRmsNormBackward, RmsNormBackwardSig>(
        grad[0], s[0], s[1], ctx->saved_data["shape"].toIntVector(), optional(s[2]));
    return {gx, Tensor(), s[2].defined() ? gw : Tensor(), Tensor()};
  }
};

// Only the gradients some input needs are computed: a frozen weight costs no GEMM.
struct LinearFn : Function<LinearFn> {
  static Tensor forward(AutogradContext* ctx, const Tensor& x, const Tensor& weight,
                        const OptTensor& bias, std::string activation) {
    Tensor y = below_autograd<kLinear, LinearSig>(x, weight, bias, activation);
    ctx->save_for_backward({x, weight, bias.value_or(Tensor()), y});
    ctx->saved_data["activation"] = std::move(activation);
    return y;
  }
  static variable_list backward(AutogradContext* ctx, variable_list grad) {
    const auto s = ctx->get_saved_variables();
    const std::array<bool, 3> mask = {ctx->needs_input_grad(0), ctx->needs_input_grad(1),
                                      s[2].defined() && ctx->needs_input_grad(2)};
    auto [gx, gw, gb] = dispatch<kLinearBackward, LinearBackwardSig>(
        grad[0], s[0], s[1], optional(s[2]), s[3], ctx->saved_data["activation"].toStringRef(),
        mask);
    return {mask[0] ? gx : Tensor(), mask[1] ? gw : Tensor(), mask[2] ? gb : Tensor(), Tensor()};
  }
};

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

// A list of Python ints that fit int64; false for anything else.
bool int_list(PyObject* obj, std::vector<int64_t>& out) {
  if (!PyList_CheckExact(obj)) return false;
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(obj); ++i) {
    PyObject* d = PyList_GET_ITEM(obj, i);
    if (!PyLong_CheckExact(d)) return false;
    out.push_back(PyLong_AsLongLong(d));
    if (PyErr_Occurred()) {  // too large for int64: the op path raises the proper error
      PyErr_Clear();
      return false;
    }
  }
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

template <const char* Name, typename Fn>
PyObject* unary(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  HANDLE_TH_ERRORS
  KW_REQUIRE(nargs == 1 && plain_tensor(args[0]));
  const Tensor& x = THPVariable_Unpack(args[0]);
  return wrap_result([&] { return needs_autograd(x) ? Fn::apply(x) : below_autograd<Name, Unary>(x); });
  END_HANDLE_TH_ERRORS
}

PyObject* elu(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  HANDLE_TH_ERRORS
  KW_REQUIRE(nargs == 2 && plain_tensor(args[0]) && PyFloat_CheckExact(args[1]));
  const Tensor& x = THPVariable_Unpack(args[0]);
  const double alpha = PyFloat_AS_DOUBLE(args[1]);
  return wrap_result(
      [&] { return needs_autograd(x) ? EluFn::apply(x, alpha) : below_autograd<kElu, EluSig>(x, alpha); });
  END_HANDLE_TH_ERRORS
}

PyObject* mul(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  HANDLE_TH_ERRORS
  KW_REQUIRE(nargs == 2 && plain_tensor(args[0]) && plain_tensor(args[1]));
  const Tensor& a = THPVariable_Unpack(args[0]);
  const Tensor& b = THPVariable_Unpack(args[1]);
  return wrap_result([&] {
    return needs_autograd(a) || needs_autograd(b) ? MulFn::apply(a, b) : below_autograd<kMul, Binary>(a, b);
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
    return needs_autograd(a) || needs_autograd(b) ? AddFn::apply(a, b, alpha)
                                                  : below_autograd<kAdd, AddSig>(a, b, alpha);
  });
  END_HANDLE_TH_ERRORS
}

PyObject* logsumexp(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  HANDLE_TH_ERRORS
  std::vector<int64_t> dims;
  KW_REQUIRE(nargs == 3 && plain_tensor(args[0]) && int_list(args[1], dims) && PyBool_Check(args[2]));
  const Tensor& x = THPVariable_Unpack(args[0]);
  const bool keepdim = args[2] == Py_True;
  return wrap_result([&] {
    return needs_autograd(x) ? LogsumexpFn::apply(x, dims, keepdim)
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
    return needs_autograd(x) ? SoftmaxFn::apply(x, dim) : below_autograd<kSoftmax, SoftmaxSig>(x, dim);
  });
  END_HANDLE_TH_ERRORS
}

// layer_norm(x, normalized_shape, weight, bias, eps) -> the normalised tensor only.
PyObject* layer_norm(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  HANDLE_TH_ERRORS
  std::vector<int64_t> shape;
  Tensor weight, bias;
  KW_REQUIRE(nargs == 5 && plain_tensor(args[0]) && int_list(args[1], shape) &&
             optional_tensor(args[2], weight) && optional_tensor(args[3], bias) &&
             PyFloat_CheckExact(args[4]));
  const Tensor& x = THPVariable_Unpack(args[0]);
  const double eps = PyFloat_AS_DOUBLE(args[4]);
  return wrap_result([&] {
    if (needs_autograd(x) || needs_autograd(weight) || needs_autograd(bias))
      return LayerNormFn::apply(x, shape, optional(weight), optional(bias), eps);
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
  KW_REQUIRE(nargs == 4 && plain_tensor(args[0]) && int_list(args[1], shape) &&
             optional_tensor(args[2], weight) && (args[3] == Py_None || PyFloat_CheckExact(args[3])));
  const Tensor& x = THPVariable_Unpack(args[0]);
  const std::optional<double> eps =
      args[3] == Py_None ? std::nullopt : std::optional<double>(PyFloat_AS_DOUBLE(args[3]));
  return wrap_result([&] {
    if (needs_autograd(x) || needs_autograd(weight)) return RmsNormFn::apply(x, shape, optional(weight), eps);
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
      return LinearFn::apply(x, weight, optional(bias), activation);
    return below_autograd<kLinear, LinearSig>(x, weight, optional(bias), activation);
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
    if (needs_autograd(a) || needs_autograd(b)) return LinearFn::apply(a, b.t(), OptTensor(), std::string("none"));
    return below_autograd<kLinear, LinearSig>(a, b.t(), OptTensor(), "none");
  });
  END_HANDLE_TH_ERRORS
}

#define KW_FAST(name, fn) \
  { name, reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fn)), METH_FASTCALL, nullptr }

PyMethodDef methods[] = {
    KW_FAST("sigmoid", (unary<kSigmoid, SigmoidFn>)),
    KW_FAST("square", (unary<kSquare, SquareFn>)),
    KW_FAST("elu", elu),
    KW_FAST("mul", mul),
    KW_FAST("add", add),
    KW_FAST("logsumexp", logsumexp),
    KW_FAST("softmax", softmax),
    KW_FAST("layer_norm", layer_norm),
    KW_FAST("rms_norm", rms_norm),
    KW_FAST("linear", linear),
    KW_FAST("matmul", matmul),
    {nullptr, nullptr, 0, nullptr}};

#define KW_STR2(x) #x
#define KW_STR(x) KW_STR2(x)
#define KW_CONCAT2(a, b) a##b
#define KW_CONCAT(a, b) KW_CONCAT2(a, b)

PyModuleDef module_def = {PyModuleDef_HEAD_INIT, KW_STR(TORCH_EXTENSION_NAME), nullptr, -1, methods};

}  // namespace

// Named after the build: kernelwright._C ahead of time, kernelwright_ops just in time.
PyMODINIT_FUNC KW_CONCAT(PyInit_, TORCH_EXTENSION_NAME)(void) { return PyModule_Create(&module_def); }
