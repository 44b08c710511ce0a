// The Python module of the extension. Importing it registers the ops (registration.cpp); its
// functions are a host-time fast path for calls that need no autograd: the Python autograd
// layer that torch.library.register_autograd installs costs more host time per call than a
// small tensor's kernel. Each function parses its arguments with the CPython API, calls the op
// through the dispatcher below autograd (so devices, dispatch modes and the profiler behave as
// for torch.ops), and returns NotImplemented whenever the general path is needed: an argument
// that is not a plain tensor, or grad mode on with an input that requires grad.
#include <Python.h>

#include <ATen/core/LegacyTypeDispatch.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/GradMode.h>
#include <torch/csrc/Exceptions.h>
#include <torch/csrc/autograd/python_variable.h>

#include <vector>

namespace {

constexpr char kElu[] = "kernelwright::elu";
constexpr char kSigmoid[] = "kernelwright::sigmoid";
constexpr char kSquare[] = "kernelwright::square";
constexpr char kMul[] = "kernelwright::mul";
constexpr char kAdd[] = "kernelwright::add";
constexpr char kLogsumexp[] = "kernelwright::logsumexp";

// One handle per op, looked up once: the lookup is a hash-map search, too slow for every call.
template <const char* Name, typename Sig>
const c10::TypedOperatorHandle<Sig>& op() {
  static const auto handle =
      c10::Dispatcher::singleton().findSchemaOrThrow(Name, "").template typed<Sig>();
  return handle;
}

bool plain_tensor(PyObject* obj) { return THPVariable_CheckExact(obj); }

bool needs_autograd(const at::Tensor& t) { return c10::GradMode::is_enabled() && t.requires_grad(); }

PyObject* not_implemented() { Py_RETURN_NOTIMPLEMENTED; }

using Unary = at::Tensor(const at::Tensor&);
using Binary = at::Tensor(const at::Tensor&, const at::Tensor&);

template <const char* Name>
PyObject* unary(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  HANDLE_TH_ERRORS
  if (nargs != 1 || !plain_tensor(args[0])) return not_implemented();
  const at::Tensor& x = THPVariable_Unpack(args[0]);
  if (needs_autograd(x)) return not_implemented();
  at::Tensor out;
  {
    pybind11::gil_scoped_release no_gil;
    at::AutoDispatchBelowADInplaceOrView guard;
    out = op<Name, Unary>().call(x);
  }
  return THPVariable_Wrap(std::move(out));
  END_HANDLE_TH_ERRORS
}

PyObject* elu(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  HANDLE_TH_ERRORS
  if (nargs != 2 || !plain_tensor(args[0]) || !PyFloat_CheckExact(args[1])) return not_implemented();
  const at::Tensor& x = THPVariable_Unpack(args[0]);
  if (needs_autograd(x)) return not_implemented();
  const double alpha = PyFloat_AS_DOUBLE(args[1]);
  at::Tensor out;
  {
    pybind11::gil_scoped_release no_gil;
    at::AutoDispatchBelowADInplaceOrView guard;
    out = op<kElu, at::Tensor(const at::Tensor&, double)>().call(x, alpha);
  }
  return THPVariable_Wrap(std::move(out));
  END_HANDLE_TH_ERRORS
}

PyObject* mul(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  HANDLE_TH_ERRORS
  if (nargs != 2 || !plain_tensor(args[0]) || !plain_tensor(args[1])) return not_implemented();
  const at::Tensor& a = THPVariable_Unpack(args[0]);
  const at::Tensor& b = THPVariable_Unpack(args[1]);
  if (needs_autograd(a) || needs_autograd(b)) return not_implemented();
  at::Tensor out;
  {
    pybind11::gil_scoped_release no_gil;
    at::AutoDispatchBelowADInplaceOrView guard;
    out = op<kMul, Binary>().call(a, b);
  }
  return THPVariable_Wrap(std::move(out));
  END_HANDLE_TH_ERRORS
}

PyObject* add(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  HANDLE_TH_ERRORS
  if (nargs != 3 || !plain_tensor(args[0]) || !plain_tensor(args[1]) || !PyFloat_CheckExact(args[2]))
    return not_implemented();
  const at::Tensor& a = THPVariable_Unpack(args[0]);
  const at::Tensor& b = THPVariable_Unpack(args[1]);
  if (needs_autograd(a) || needs_autograd(b)) return not_implemented();
  const double alpha = PyFloat_AS_DOUBLE(args[2]);
  at::Tensor out;
  {
    pybind11::gil_scoped_release no_gil;
    at::AutoDispatchBelowADInplaceOrView guard;
    out = op<kAdd, at::Tensor(const at::Tensor&, const at::Tensor&, double)>().call(a, b, alpha);
  }
  return THPVariable_Wrap(std::move(out));
  END_HANDLE_TH_ERRORS
}

PyObject* logsumexp(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  HANDLE_TH_ERRORS
  if (nargs != 3 || !plain_tensor(args[0]) || !PyList_CheckExact(args[1]) || !PyBool_Check(args[2]))
    return not_implemented();
  const at::Tensor& x = THPVariable_Unpack(args[0]);
  if (needs_autograd(x)) return not_implemented();
  std::vector<int64_t> dims;
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(args[1]); ++i) {
    PyObject* d = PyList_GET_ITEM(args[1], i);
    if (!PyLong_CheckExact(d)) return not_implemented();
    dims.push_back(PyLong_AsLongLong(d));
  }
  const bool keepdim = args[2] == Py_True;
  at::Tensor out;
  {
    pybind11::gil_scoped_release no_gil;
    at::AutoDispatchBelowADInplaceOrView guard;
    out = op<kLogsumexp, at::Tensor(const at::Tensor&, at::IntArrayRef, bool)>().call(x, dims, keepdim);
  }
  return THPVariable_Wrap(std::move(out));
  END_HANDLE_TH_ERRORS
}

#define KW_FAST(name, fn) \
  { name, reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fn)), METH_FASTCALL, nullptr }

PyMethodDef methods[] = {
    KW_FAST("sigmoid", unary<kSigmoid>),
    KW_FAST("square", unary<kSquare>),
    KW_FAST("elu", elu),
    KW_FAST("mul", mul),
    KW_FAST("add", add),
    KW_FAST("logsumexp", logsumexp),
    {nullptr, nullptr, 0, nullptr}};

#define KW_STR2(x) #x
#define KW_STR(x) KW_STR2(x)
#define KW_CONCAT2(a, b) a##b
#define KW_CONCAT(a, b) KW_CONCAT2(a, b)

PyModuleDef module_def = {PyModuleDef_HEAD_INIT, KW_STR(TORCH_EXTENSION_NAME), nullptr, -1, methods};

}  // namespace

// Named after the build: kernelwright._C ahead of time, kernelwright_ops just in time.
PyMODINIT_FUNC KW_CONCAT(PyInit_, TORCH_EXTENSION_NAME)(void) { return PyModule_Create(&module_def); }
