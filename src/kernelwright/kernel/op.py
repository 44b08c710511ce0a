"""``cuda_op``: a user's CUDA kernel as a PyTorch custom op, in one call."""

import inspect
import os
import re
import threading

import torch

from . import launch as launching
from . import nvrtc, torch_ext
from .binding import Binding, split_schema
from .errors import KernelInputError, KernelSignatureError
from .signature import parse_kernel

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_registry = {}
_registry_lock = threading.Lock()


def _read_source(source, kernel):
    """(text, filename): a path is read, and its name is what compiler messages cite."""
    if isinstance(source, os.PathLike) or (
        isinstance(source, str) and "\n" not in source and source.strip().endswith((".cu", ".cuh"))
    ):
        path = os.fspath(source)
        with open(path) as f:
            return f.read(), path.replace("\\", "/").replace('"', "")
    if not isinstance(source, str):
        raise TypeError(f"source must be CUDA source text or a path to a .cu file, got {type(source).__name__}")
    return source, kernel.split("::")[-1] + ".cu"


def _op_name(kernel, name):
    if name is None:
        name = re.sub(r"_?[Kk]ernel$", "", kernel.split("::")[-1]) or kernel.split("::")[-1]
    if not _IDENTIFIER.match(name):
        raise KernelSignatureError(f"op name must be an identifier (letters, digits, _), got {name!r}")
    return name


def _wants_output(backward):
    try:
        parameter = inspect.signature(backward).parameters.get("output")
    except (TypeError, ValueError):
        return False
    return parameter is not None and parameter.kind == inspect.Parameter.KEYWORD_ONLY


class _Definition:
    """Everything one ``cuda_op`` call said; swapped whole when the same op is defined again."""

    def __init__(self, qualname, source, filename, sig, binding, launch, outputs, backward, cpu, options, arch, backend):
        self.qualname = qualname
        self.source = source
        self.filename = filename
        self.sig = sig
        self.binding = binding
        self.launch = launch
        self.outputs = outputs
        self.backward = backward
        self.backward_wants_output = backward is not None and _wants_output(backward)
        self.cpu = cpu
        self.options = tuple(options)
        self.arch = arch
        self.backend = backend
        self._kernels = {}
        self._lock = threading.Lock()

    def kernel(self, dtype, device_index):
        key = (dtype, device_index)
        found = self._kernels.get(key)
        if found is None:
            with self._lock:
                found = self._kernels.get(key)
                if found is None:
                    found = self._load(dtype, device_index)
                    self._kernels[key] = found
        return found

    def _load(self, dtype, device_index):
        if self.backend == "torch":
            dtypes = self.binding.dtypes or (None,)
            return torch_ext.load(self.source, self.filename, self.sig, dtypes, dtype, device_index, self.options, self.qualname)
        return nvrtc.load(self.source, self.filename, self.sig, dtype, device_index, self.options, self.arch)

    def _launch_config(self, call, outs, n):
        if self.launch is None:
            self.binding.check_elementwise(call, outs, n)
            return launching.elementwise(n)
        return launching.unpack(self.launch(*call.values), self.sig.name)

    def run_cuda(self, args, kwargs):
        binding = self.binding
        values = binding.bind(args, kwargs)
        call = binding.check(values, launching=True)
        if call.device is None or call.device.type != "cuda":
            raise KernelInputError(f"{self.sig.name}: the kernel runs on CUDA devices, the arguments are on {call.device}")
        outs = binding.allocate_outputs(call, self.outputs, launching=True)
        n = binding.extent(call, outs)
        grid, block, shared_mem = self._launch_config(call, outs, n)
        kernel = self.kernel(call.dtype, call.device.index)
        config = launching.check(self.sig.name, grid, block, shared_mem, kernel.limits)
        if not config.empty:
            _buffer, params = binding.pack(call, outs, n)
            kernel.launch(config, torch.cuda.current_stream(call.device).cuda_stream, params)
        self._mark_written(values)
        return binding.result(outs)

    def run_cpu(self, args, kwargs):
        binding = self.binding
        values = binding.bind(args, kwargs)
        call = binding.check(values, launching=False)
        if self.cpu is None:
            raise KernelInputError(
                f"{self.sig.name}: the arguments are on the CPU; the kernel runs on CUDA devices "
                "(pass cpu= to give the op a CPU implementation)"
            )
        result = self.cpu(*call.values)
        self._mark_written(values)
        if self.launch is None and result is not None:
            outs = [result] if isinstance(result, torch.Tensor) else list(result)
            binding.check_elementwise(call, outs, binding.extent(call, outs))
        return result

    def _mark_written(self, values):
        """Tensors written in place get a new version, as torch's in-place ops give them, so that
        autograd refuses a saved tensor that changed (inference tensors keep no version)."""
        for a, v in zip(self.binding.args, values):
            if a.mutable and isinstance(v, torch.Tensor) and not v.is_inference():
                torch.autograd.graph.increment_version(v)

    def fake(self, args, kwargs):
        binding = self.binding
        call = binding.check(binding.bind(args, kwargs), launching=False)
        outs = binding.allocate_outputs(call, self.outputs, launching=False)
        if self.launch is None:
            binding.check_elementwise(call, outs, binding.extent(call, outs))
        return binding.result(outs)

    def setup_context(self, ctx, inputs, output):
        positions = [i for i, v in enumerate(inputs) if isinstance(v, torch.Tensor)]
        outs = ()
        if self.backward_wants_output:
            outs = output if isinstance(output, tuple) else (output,)
        ctx.save_for_backward(*[inputs[i] for i in positions], *outs)
        ctx.kernelwright = (positions, [None if i in positions else v for i, v in enumerate(inputs)], isinstance(output, tuple))

    def run_backward(self, ctx, grads):
        if self.backward is None:
            raise RuntimeError(f"{self.qualname} has no backward; pass backward= to cuda_op")
        positions, inputs, multiple = ctx.kernelwright
        saved = ctx.saved_tensors
        inputs = list(inputs)
        for i, t in zip(positions, saved):
            inputs[i] = t
        kwargs = {}
        if self.backward_wants_output:
            outs = saved[len(positions):]
            kwargs["output"] = tuple(outs) if multiple else outs[0]
        result = self.backward(*grads, *inputs, **kwargs)
        result = (result,) if result is None or isinstance(result, torch.Tensor) else tuple(result)
        if len(result) == len(inputs):
            return result
        if len(result) == len(positions):
            full = [None] * len(inputs)
            for i, g in zip(positions, result):
                full[i] = g
            return tuple(full)
        raise KernelSignatureError(
            f"{self.qualname}: backward returned {len(result)} gradient(s); expected one per argument "
            f"({len(inputs)}) or one per tensor argument ({len(positions)})"
        )


class KernelOp:
    """A registered op: call it like a function; ``.op`` is the ``torch.ops`` overload."""

    def __init__(self, qualname, definition):
        self.name = qualname
        self._definition = definition
        namespace, opname = qualname.split("::")
        # Defined through torch.library.Library rather than torch.library.custom_op: custom_op
        # wraps each device kernel so that its first call imports torch._dynamo, 1-4 s on a
        # process's first call of the op; these registrations import nothing when called.
        self._lib = torch.library.Library(namespace, "FRAGMENT")
        self._lib.define(opname + definition.binding.schema, tags=(torch.Tag.pt2_compliant_tag,))
        self._lib.impl(opname, self._cuda, "CUDA")
        self._lib.impl(opname, self._cpu, "CPU")
        torch.library.register_fake(qualname, self._fake, lib=self._lib)
        if not definition.binding.mutated:
            # Always there, so that an op defined again with a backward gets it, and one without
            # says so when differentiated (run_backward).
            torch.library.register_autograd(qualname, self._backward, setup_context=self._setup_context, lib=self._lib)
        self.op = getattr(getattr(torch.ops, namespace), opname).default

    def _cuda(self, *args, **kwargs):
        return self._definition.run_cuda(args, kwargs)

    def _cpu(self, *args, **kwargs):
        return self._definition.run_cpu(args, kwargs)

    def _fake(self, *args, **kwargs):
        return self._definition.fake(args, kwargs)

    def _setup_context(self, ctx, inputs, output):
        self._definition.setup_context(ctx, inputs, output)

    def _backward(self, ctx, *grads):
        return self._definition.run_backward(ctx, grads)

    def _define(self, definition):
        self._definition = definition

    @property
    def schema(self):
        return str(self.op._schema)

    def __call__(self, *args, **kwargs):
        return self.op(*args, **kwargs)

    def load(self, device=None, dtypes=None):
        """Compile (or fetch from the cache) and load the kernel now rather than on its first call.

        ``dtypes`` picks a templated kernel's instantiations (all of them by default). Do this
        before capturing a CUDA graph, whose capture must not load modules.
        """
        d = self._definition
        device = torch.device("cuda", torch.cuda.current_device()) if device is None else torch.device(device)
        index = device.index if device.index is not None else torch.cuda.current_device()
        if d.binding.dtypes is None:
            wanted = (None,)  # the parameter types fix the one instantiation
        else:
            wanted = tuple(dtypes) if dtypes else d.binding.dtypes
            unknown = [t for t in wanted if t not in d.binding.dtypes]
            if unknown:
                raise KernelInputError(f"{self.name} isn't instantiated for {unknown}; dtypes= at definition sets them")
        for dtype in wanted:
            d.kernel(dtype, index)
        return self

    def __repr__(self):
        return f"<kernelwright op {self.schema}>"


def cuda_op(
    source,
    kernel,
    *,
    schema=None,
    name=None,
    namespace="kernelwright_user",
    launch=None,
    outputs=None,
    shapes=None,
    dtypes=None,
    contiguous="copy",
    backward=None,
    cpu=None,
    options=(),
    arch=None,
    backend="auto",
):
    """Register the ``__global__`` function ``kernel`` from ``source`` as ``torch.ops.<namespace>.<name>``.

    source: CUDA source text, or a path to a .cu file.
    kernel: the ``__global__`` function's name (``ns::name`` for one in a namespace). A
        ``template <typename T>`` kernel is instantiated per input dtype (``dtypes``, by default
        float32, float16, bfloat16 and float64, as float, __half, __nv_bfloat16 and double).
    schema: ``"(Tensor x, float alpha) -> Tensor"``; by default read off the kernel: ``const T*``
        parameters are input tensors, other pointers are returned outputs, floating and bool
        scalars are float and bool arguments, integers are int arguments except for a size
        (``n``, ``numel``, ``size``, ...) or a dimension named in ``shapes``, filled in by
        kernelwright. With a schema, parameters are matched to arguments by name.
    launch: ``f(*args) -> (grid, block)`` or ``(grid, block, shared_mem)``; by default one thread
        per output element, 256 per block, and every tensor must have as many elements.
    outputs: ``f(*args)`` returning the outputs (tensors or shapes); by default each output is
        shaped like the first input tensor, or as ``shapes`` says.
    shapes: ``{"a": ("M", "K"), "b": ("K", "N"), "c": ("M", "N")}``: checked on every call;
        symbols bind to integer kernel parameters of the same name.
    contiguous: ``"copy"`` makes non-contiguous inputs contiguous; ``"require"`` raises instead.
    backward: ``f(*grads, *args)`` returning one gradient per argument, or per tensor argument;
        a keyword-only ``output`` parameter receives the forward's output. May be another op.
    cpu: ``f(*args)`` computing the same thing on CPU tensors, so the op runs on CPU too.
    options: extra NVRTC (or nvcc) flags; ``arch`` overrides the target, e.g. ``"sm_90a"``.
    backend: ``"nvrtc"``, ``"torch"`` (torch.utils.cpp_extension) or ``"auto"``: torch when the
        source includes torch/ATen/c10 headers, which NVRTC can't compile, or when cuda-bindings
        isn't installed.

    Defining the same op again with the same schema replaces its kernel and functions, so an
    edited source takes effect when re-run; a different schema needs a different name.
    """
    text, filename = _read_source(source, kernel)
    sig = parse_kernel(text, kernel)
    if schema is not None:
        schema_name, schema = split_schema(schema)
        if name is None and schema_name is not None:
            name = schema_name
    if not _IDENTIFIER.match(namespace):
        raise KernelSignatureError(f"namespace must be an identifier, got {namespace!r}")
    qualname = f"{namespace}::{_op_name(kernel, name)}"
    for what, fn in (("launch", launch), ("outputs", outputs), ("backward", backward), ("cpu", cpu)):
        if fn is not None and not callable(fn):
            raise TypeError(f"{what} must be callable, got {type(fn).__name__}")
    binding = Binding(sig, schema, shapes, dtypes, contiguous, has_outputs_fn=outputs is not None)
    if backward is not None and binding.mutated:
        raise KernelSignatureError(f"{qualname} writes to its inputs in place; torch can't attach a backward to such an op")
    if backward is not None and not binding.outputs:
        raise KernelSignatureError(f"{qualname} returns nothing, so it has nothing to differentiate")
    if backend == "auto":
        backend = "torch" if torch_ext.needs_torch(text) or not nvrtc.available() else "nvrtc"
    elif backend not in ("nvrtc", "torch"):
        raise ValueError(f"backend must be 'auto', 'nvrtc' or 'torch', got {backend!r}")
    definition = _Definition(qualname, text, filename, sig, binding, launch, outputs, backward, cpu, options, arch, backend)

    with _registry_lock:
        op = _registry.get(qualname)
        if op is None:
            op = KernelOp(qualname, definition)
            _registry[qualname] = op
        elif op._definition.binding.schema.replace(" ", "") != binding.schema.replace(" ", ""):
            raise KernelSignatureError(
                f"{qualname} is already registered with schema {op._definition.binding.schema}; torch can't "
                f"change it to {binding.schema} in this process, so pass a different name="
            )
        op._define(definition)
    return op
