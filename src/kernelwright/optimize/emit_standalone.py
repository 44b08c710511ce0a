"""``--standalone``: the emitted module with kernels that torch alone compiles
(``torch.utils.cpp_extension.load_inline``), for evaluators that run a file where kernelwright
is not installed, as KernelBench's does (it execs the text and calls ``ModelNew``).

The module is ``emit.module_source``'s with another binding: the header, the problem's code,
the ATen twins and the forward are the same text. Each kernel is its CUDA source, as
``spec.cuda_source(launch)`` gives it, and a C++ launcher that checks the inputs as
``runtime.Kernel`` does, allocates the outputs with the captured strides and launches on the
current stream; ``runtime.PRELUDE`` goes once in front of all of them, and the whole is one
extension, built on the first call with CUDA tensors, so the file imports and runs its
fallbacks without nvcc or a GPU.
"""

import inspect

import torch

from . import emit, runtime

_SCALAR_TYPES = {torch.float32: "at::kFloat", torch.float64: "at::kDouble", torch.float16: "at::kHalf",
                 torch.bfloat16: "at::kBFloat16", torch.int64: "at::kLong", torch.int32: "at::kInt",
                 torch.int16: "at::kShort", torch.int8: "at::kChar", torch.uint8: "at::kByte",
                 torch.bool: "at::kBool"}

# The C++ every launcher calls. An empty answer means "not this kernel": the Python side then
# runs the ATen twin, as runtime.Kernel does for another shape or dtype and for a cooperative
# launch the device refuses.
_LAUNCH = r"""
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <vector>

namespace {

struct KwArg {
  std::vector<int64_t> shape, stride;
  at::ScalarType dtype;
};

std::vector<at::Tensor> kw_run(const char* name, const void* kernel, std::vector<at::Tensor> inputs,
                               const std::vector<KwArg>& want_in, const std::vector<KwArg>& want_out,
                               dim3 grid, dim3 block, int64_t workspace, bool cooperative, int shared) {
  if (inputs.size() != want_in.size()) return {};
  const at::Device device = inputs.empty() ? at::Device(at::kCUDA, c10::cuda::current_device()) : inputs[0].device();
  for (size_t i = 0; i < inputs.size(); ++i) {
    const KwArg& want = want_in[i];
    if (inputs[i].device() != device || !inputs[i].sizes().equals(want.shape) || inputs[i].scalar_type() != want.dtype)
      return {};
    if (!inputs[i].strides().equals(want.stride))  // the same values, in the layout the kernel reads
      inputs[i] = at::empty_strided(want.shape, want.stride, inputs[i].options()).copy_(inputs[i]);
  }
  const c10::cuda::CUDAGuard guard(device);
  std::vector<at::Tensor> outputs;
  std::vector<void*> pointers;
  for (const at::Tensor& t : inputs) pointers.push_back(t.data_ptr());
  for (const KwArg& want : want_out) {
    outputs.push_back(at::empty_strided(want.shape, want.stride, at::TensorOptions().dtype(want.dtype).device(device)));
    pointers.push_back(outputs.back().data_ptr());
  }
  at::Tensor scratch;  // the kernel's last parameter, kw_ws: zeroed, as its barriers count from zero
  if (workspace > 0) {
    scratch = at::zeros({workspace}, at::TensorOptions().dtype(at::kByte).device(device));
    pointers.push_back(scratch.data_ptr());
  }
  if (grid.x == 0 || grid.y == 0 || grid.z == 0) return outputs;
  std::vector<void*> args;
  for (void*& p : pointers) args.push_back(&p);
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream(device.index()).stream();
  if (shared > 48 * 1024) {  // above the default cap a kernel must opt in
    const cudaError_t optin = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared);
    if (optin != cudaSuccess) {
      cudaGetLastError();
      return {};
    }
  }
  const cudaError_t error = cooperative ? cudaLaunchCooperativeKernel(kernel, grid, block, args.data(), shared, stream)
                                        : cudaLaunchKernel(kernel, grid, block, args.data(), shared, stream);
  // A grid or a cluster the device cannot hold at once is refused before anything runs (the
  // codes runtime.refused_shape names): not a sticky error, cleared, and the ATen twin runs.
  if (error == cudaErrorCooperativeLaunchTooLarge || error == cudaErrorInvalidClusterSize ||
      error == cudaErrorLaunchOutOfResources) {
    cudaGetLastError();
    return {};
  }
  TORCH_CHECK(error == cudaSuccess, "launching ", name, ": ", cudaGetErrorString(error));
  return outputs;
}

}  // namespace
"""

# The generated module's own runtime, in front of its kernels. guard, strided, attr and constant
# are runtime's functions, copied from their source, so that both modules check the same things.
_PREAMBLE = '''import hashlib
import operator
import os
import threading

import torch
import torch.utils.cpp_extension

# Read by _kw.guard: set, the generated forward runs on CPU tensors too, each kernel through
# its ATen twin (a check of this file's wiring where there is no GPU).
CPU_PATH = os.environ.get("KERNELWRIGHT_OPTIMIZE_CPU_PATH") == "1"


class _kw:
    """What a module written without --standalone imports from kernelwright.optimize.runtime,
    here so that this file needs only torch."""

@HELPERS@
    class Kernel:
        """A generated kernel (its CUDA source and C++ launcher); called, its outputs as a tuple.
        All kernels of the file compile into one extension on the first call with CUDA tensors:
        importing needs no nvcc, and CPU tensors run the ATen twin without building anything."""

        sources = []  # (name, CUDA source, launcher) of every kernel, in the file's order
        extension = None
        lock = threading.Lock()

        def __init__(self, name, source, launcher, fallback):
            self.name, self.fallback = name, fallback
            _kw.Kernel.sources.append((name, source, launcher))

        def __call__(self, *tensors):
            device = tensors[0].device if tensors else torch.device("cuda" if torch.cuda.is_available() else "cpu")
            if device.type != "cuda":
                return self.fallback(*tensors)
            outputs = getattr(_kw.Kernel.build(), "launch_" + self.name)(list(tensors))
            # Empty where the kernel does not apply: inputs of another shape, dtype or device,
            # or a cooperative grid or cluster the device cannot hold at once.
            return tuple(outputs) if outputs else self.fallback(*tensors)

        @staticmethod
        def cuda():
            """The extension's CUDA source: what the launchers share, the kernels' helpers, and
            each kernel followed by its launcher."""
            return _kw.LAUNCH + _kw.PRELUDE + "".join(source + launcher for _, source, launcher in _kw.Kernel.sources)

        @staticmethod
        def build():
            kernel = _kw.Kernel
            if kernel.extension is None:
                with kernel.lock:
                    if kernel.extension is None:
                        cuda = kernel.cuda()
                        names = ["launch_" + name for name, _, _ in kernel.sources]
                        # Named by the sources' hash, so that torch reuses the build in other processes.
                        kernel.extension = torch.utils.cpp_extension.load_inline(
                            "kw_" + hashlib.sha256(cuda.encode()).hexdigest()[:20],
                            ["std::vector<at::Tensor> %s(std::vector<at::Tensor> inputs);" % n for n in names],
                            cuda_sources=cuda, functions=names, extra_cuda_cflags=_kw.NVCC_FLAGS)
            return kernel.extension

    # The kernels were measured as NVRTC compiled them: without the defines by which torch's
    # builds switch off __half's and __nv_bfloat16's operators and conversions.
    NVCC_FLAGS = ["-O3", "-U__CUDA_NO_HALF_OPERATORS__", "-U__CUDA_NO_HALF_CONVERSIONS__",
                  "-U__CUDA_NO_BFLOAT16_CONVERSIONS__", "-U__CUDA_NO_HALF2_OPERATORS__"]

    # The helpers every kernel may call (kw_exp, kw_reduce_rows ...).
    PRELUDE = r"""@PRELUDE@"""

    # What every launcher calls: the checks, the outputs, the launch.
    LAUNCH = r"""@LAUNCH@"""
'''


class Standalone(emit.Binding):
    """Kernels bound to the generated module's own ``_kw.Kernel``: one load_inline extension."""

    doc = ("This file needs only torch: its kernels and their C++ launchers compile into one extension with "
           "torch.utils.cpp_extension.load_inline (nvcc) on the first call with CUDA tensors.")

    def preamble(self, stand_ins):
        if stand_ins:
            raise ValueError("a standalone module cannot call kernelwright.ops; drop the stand-ins first")
        helpers = "\n".join(_static_method(f) for f in (runtime.guard, runtime.strided, runtime.attr, runtime.constant))
        return (_PREAMBLE.replace("@HELPERS@", helpers)
                .replace("@PRELUDE@", _raw(runtime.PRELUDE)).replace("@LAUNCH@", _raw(_LAUNCH)))

    def kernel(self, spec, launch):
        return '%s = _kw.Kernel(\n    "%s", r"""\n%s""", r"""\n%s""",\n    fallback=_%s_aten)' % (
            spec.name, spec.name, _raw(spec.cuda_source(launch)), _raw(launcher(spec, launch)), spec.name)


STANDALONE = Standalone()


def module_source(plan, problem_source, problem_name, choices, design_lines):
    """The standalone module's text; ``choices`` as ``emit.module_source`` takes them. Calls that
    measured faster on kernelwright's own GEMM (a stand-in) run ATen's here: that GEMM is
    kernelwright's compiled extension, which this file cannot import."""
    kept = {key: value for key, value in choices.items() if not isinstance(value, str)}
    return emit.module_source(plan, problem_source, problem_name, kept, design_lines, STANDALONE)


def launcher(spec, launch):
    """The C++ that launches ``spec``'s kernel with ``launch``: ``launch_<name>(inputs)``. It ends
    the kernel's #defines first, as the next kernel of the extension sets its own."""
    undefs = "".join("#undef %s\n" % name for name, _ in launch.defines)
    return ('%sstd::vector<at::Tensor> launch_%s(std::vector<at::Tensor> inputs) {\n'
            '  static const std::vector<KwArg> want_in{%s};\n'
            '  static const std::vector<KwArg> want_out{%s};\n'
            '  return kw_run("%s", (const void*)%s, std::move(inputs), want_in, want_out,\n'
            '                dim3(%d, %d, %d), dim3(%d, %d, %d), %d, %s, %d);\n'
            '}\n') % (undefs, spec.name, _args(spec.inputs), _args(spec.outputs), spec.name, spec.name,
                      *launch.grid, *launch.block, launch.workspace, "true" if launch.cooperative else "false",
                      launch.shared)


def _args(args):
    return ", ".join("{{%s}, {%s}, %s}" % (", ".join(map(str, t.shape)), ", ".join(map(str, t.stride)),
                                           _SCALAR_TYPES[t.dtype]) for t in args)


def _static_method(function):
    return "    @staticmethod\n" + "".join("    " + line if line.strip() else line
                                           for line in inspect.getsource(function).splitlines(True))


def _raw(text):
    """``text`` as the body of a r\"\"\"...\"\"\" literal, which cannot hold three quotes."""
    if '"""' in text or text.endswith("\\"):
        raise ValueError("text cannot go in a raw triple-quoted literal")
    return text
