"""What an emitted ModelNew imports: a generated kernel, compiled with NVRTC on its first
call (cached on disk) and launched on the current stream; and the guard that keeps the
kernels to the shapes, dtypes, strides and device they were generated for.

Off those (another shape, a CPU tensor, autograd recording a graph) the module runs the
kernel's ATen twin, which computes the same from the same ops.
"""

import concurrent.futures
import ctypes
import functools
import os
import struct
import threading

import torch

from kernelwright.kernel import launch as launching
from kernelwright.kernel import nvrtc
from kernelwright.kernel.errors import KernelCompileError, KernelLaunchError
from kernelwright.kernel.signature import parse_kernel

from .cuda_math import CUDA_PRELUDE
from .cluster import CUDA_HELPERS as CUDA_CLUSTER_HELPERS
from .kernels import CUDA_REDUCE_OPS
from .scan import CUDA_HELPERS as CUDA_SCAN_HELPERS
from .split import CUDA_HELPERS as CUDA_SPLIT_HELPERS

# The helpers every generated kernel may call (kw_exp, kw_reduce_rows ...), put in front of
# each kernel's source when it is compiled.
PRELUDE = CUDA_PRELUDE + CUDA_REDUCE_OPS + CUDA_SPLIT_HELPERS + CUDA_CLUSTER_HELPERS + CUDA_SCAN_HELPERS


def _unit(name, source):
    """What NVRTC compiles for the generated kernel ``name``: (text, file name, signature)."""
    text = PRELUDE + source
    return text, name + ".cu", parse_kernel(text, name)


class Kernel:
    """A generated kernel: ``Kernel(...)(*inputs)`` returns its outputs as a tuple."""

    def __init__(self, name, source, grid, block, inputs, outputs, fallback, workspace=0, cooperative=False,
                 strict=False, shared=0):
        """``workspace``: bytes of zeroed scratch passed last; ``cooperative``: launched so that
        all blocks are resident at once; ``shared``: bytes of dynamic shared memory a block.
        Where the device refuses the launch's shape (a cooperative grid or a cluster it cannot
        hold), the call runs ``fallback`` from then on (``strict``: raises instead, for measuring)."""
        self.name = name
        self.workspace, self.cooperative, self.strict, self.shared = workspace, cooperative, strict, shared
        self._refused = set()
        self.source = source
        self.grid, self.block = tuple(grid), tuple(block)
        self.inputs = [(tuple(s), tuple(st), d) for s, st, d in inputs]
        self.outputs = [(tuple(s), tuple(st), d) for s, st, d in outputs]
        self.fallback = fallback
        self._loaded = {}
        self._lock = threading.Lock()
        self._format = "<" + "Q" * (2 * (len(self.inputs) + len(self.outputs) + (1 if workspace else 0)))

    def _kernel(self, device_index):
        found = self._loaded.get(device_index)
        if found is None:
            with self._lock:
                found = self._loaded.get(device_index)
                if found is None:
                    kernel = nvrtc.load(*_unit(self.name, self.source), None, device_index)
                    config = launching.check(self.name, self.grid, self.block, self.shared, kernel.limits)
                    launch = kernel.direct_launcher(config, self.cooperative) or functools.partial(
                        kernel.launch, config, cooperative=self.cooperative)
                    found = self._loaded[device_index] = (kernel, launch)
        return found

    def __call__(self, *tensors):
        device = tensors[0].device if tensors else torch.device("cuda", torch.cuda.current_device())
        if device.type != "cuda" or device.index in self._refused:
            return self.fallback(*tensors)
        args = []
        for t, (shape, stride, dtype) in zip(tensors, self.inputs):
            # A tensor on another device (a CPU scalar) would be read through a pointer this
            # device cannot follow: ATen's ops take it, or say why not.
            if t.shape != shape or t.dtype != dtype or t.device != device:
                return self.fallback(*tensors)
            if t.stride() != stride:  # the same values in the layout the kernel reads
                t = torch.empty_strided(shape, stride, dtype=dtype, device=device).copy_(t)
            args.append(t)
        outs = [torch.empty_strided(shape, stride, dtype=dtype, device=device) for shape, stride, dtype in self.outputs]
        _, launch = self._kernel(device.index)
        pointers = [t.data_ptr() for t in args] + [o.data_ptr() for o in outs]
        if self.workspace:
            scratch = torch.zeros(self.workspace, dtype=torch.uint8, device=device)
            pointers.append(scratch.data_ptr())
        count = len(pointers)
        buffer = ctypes.create_string_buffer(16 * count or 8)
        base = ctypes.addressof(buffer)
        struct.pack_into(self._format, buffer, 0, *[base + 8 * count + 8 * i for i in range(count)], *pointers)
        try:
            launch(_raw_stream(device.index), base)
        except KernelLaunchError as error:
            if self.strict or not refused_shape(str(error)):
                raise
            self._refused.add(device.index)
            return self.fallback(*tensors)
        return tuple(outs)

    def load(self, device=None):
        """Compile and load now (before timing, or before capturing a CUDA graph)."""
        device = torch.device(device) if device is not None else torch.device("cuda", torch.cuda.current_device())
        self._kernel(device.index if device.index is not None else torch.cuda.current_device())
        return self


def compile_into_cache(kernels, device_index):
    """Compiles ``kernels`` ((name, source) pairs, as Kernel takes them) for the device into
    NVRTC's cache, several at once (NVRTC runs without the GIL), so that each Kernel's first call
    finds its binary there; one that does not compile is left for that call to report."""
    def build(item):
        try:
            nvrtc.binary(*_unit(*item), None, device_index)
        except (KernelCompileError, ValueError):
            pass

    if kernels:
        with concurrent.futures.ThreadPoolExecutor(min(len(kernels), os.cpu_count() or 1)) as pool:
            list(pool.map(build, kernels))


def _raw_stream(device_index):
    """The handle of the device's current stream; torch's private accessor skips building a
    Stream object (a few microseconds of a launch on the hot path)."""
    if _RAW_STREAM is not None:
        return _RAW_STREAM(device_index)
    return torch.cuda.current_stream(device_index).cuda_stream


_RAW_STREAM = getattr(torch._C, "_cuda_getCurrentRawStream", None)


def refused_shape(message):
    """Whether a launch failed because the device cannot hold its grid or cluster at once (the
    launch is refused before anything runs; nothing is left half done)."""
    return any(code in message for code in ("COOPERATIVE_LAUNCH_TOO_LARGE", "INVALID_CLUSTER_SIZE", "OUT_OF_RESOURCES"))


# Runs the generated forward on CPU tensors too, each kernel through its ATen twin: a check
# of the emitted module's wiring on a machine without a GPU.
CPU_PATH = os.environ.get("KERNELWRIGHT_OPTIMIZE_CPU_PATH") == "1"


def guard(tensors, expected, scalars=(), expected_scalars=()):
    """Whether the generated path applies: every input as captured, on a CUDA device, and no
    autograd graph to record (the kernels have no backward)."""
    if tuple(scalars) != tuple(expected_scalars):
        return False
    grad = torch.is_grad_enabled()
    devices = ("cuda", "cpu") if CPU_PATH else ("cuda",)
    for t, (shape, stride, dtype) in zip(tensors, expected):
        if not isinstance(t, torch.Tensor) or t.device.type not in devices or t.shape != shape \
                or t.dtype != dtype or t.stride() != stride or (grad and t.requires_grad):
            return False
    return True


def strided(t, stride):
    """``t`` with ``stride`` (itself when it has it already, else a copy)."""
    if t.stride() == tuple(stride):
        return t
    return torch.empty_strided(t.shape, stride, dtype=t.dtype, device=t.device).copy_(t)


def constant(values, dtype, device, _cache={}):
    """A tensor of ``values`` on ``device``, made once a device: a constant forward built from
    literals, without a host-to-device copy on every call. (The cache is a default argument so
    that the standalone module's copy of this function carries its own.)"""
    key = (repr(values), dtype, str(device))
    if key not in _cache:
        _cache[key] = torch.tensor(values, dtype=dtype, device=device)
    return _cache[key]


def attr(module, fqn):
    """``module.a.b.c`` for the FQN ``"a.b.c"`` (parameters, buffers and plain tensor attributes)."""
    for part in fqn.split("."):
        module = getattr(module, part)
    return module


def weight_cache(module, key, make):
    """``module``'s weight cache for its call ``key`` (``make()`` on first use): a GEMM operand's
    conversion kept between calls in the module, outside its state_dict."""
    caches = module.__dict__.setdefault("_kw_weight_caches", {})
    if key not in caches:
        caches[key] = make()
    return caches[key]
