"""What every op module shares: argument checks for fake kernels and the call path."""

import operator

import torch

from kernelwright._build.loader import load_extension

# Loading registers the ops; the module's functions are their eager fast path (see `run`).
ext = load_extension()

FLOATING = (torch.float32, torch.float16, torch.bfloat16, torch.float64)

_is_compiling = torch.compiler.is_compiling


def check_floating(op, arg, t):
    """The fake-kernel twin of the C++ checks: same exception types, same words."""
    if not isinstance(t, torch.Tensor):
        raise TypeError("kernelwright.%s(): argument '%s' must be a tensor, got %s" % (op, arg, type(t).__name__))
    if t.dtype not in FLOATING:
        raise TypeError(
            "kernelwright.%s(): argument '%s' must be a floating-point tensor "
            "(float32, float16, bfloat16 or float64), but got %s" % (op, arg, t.dtype)
        )


def check_same_device(op, named):
    """named: (arg name, tensor) pairs; a 0-dim CPU tensor may join others as a scalar."""
    lead = next(((n, t) for n, t in named if not (t.device.type == "cpu" and t.dim() == 0)), None)
    if lead is None:
        return
    for name, t in named:
        if t.device != lead[1].device and not (t.device.type == "cpu" and t.dim() == 0):
            raise ValueError(
                "kernelwright.%s(): argument '%s' is on %s but argument '%s' is on %s; tensors "
                "must be on the same device (only a 0-dim CPU tensor may be mixed in, as a "
                "scalar)" % (op, name, t.device, lead[0], lead[1].device)
            )


def int_arg(op, arg, value, what="an int"):
    """``value`` as an int, or a TypeError naming the argument: the dispatcher's own error for
    a schema's int or int[] names only the C++ type it expected.  bool is refused, as torch
    refuses it for a dim."""
    if type(value) is int:
        return value
    if not isinstance(value, bool):
        try:
            return operator.index(value)
        except TypeError:
            pass
    raise TypeError("kernelwright.%s(): argument '%s' must be %s, got %s" % (op, arg, what, type(value).__name__))


def int_list_arg(op, arg, value):
    """An int or a sequence of ints, as the list a schema's int[] takes."""
    what = "an int or a sequence of ints"
    if isinstance(value, (list, tuple)):
        return [int_arg(op, arg, v, what) for v in value]
    return [int_arg(op, arg, value, what)]


def run(fast, op, *args):
    """Calls the extension's fast path ``fast``, or the custom op ``op`` where it declines.

    ``fast`` serves plain tensors from C++, with a C++ autograd node when a gradient is needed
    (csrc/python_module.cpp); it answers NotImplemented otherwise (tensor subclasses, torch
    function modes), and is never used while torch.compile traces, which sees only ``op`` and
    the autograd registered here.  Callers make Python numbers tensors first (:func:`as_tensor`),
    so that numbers take the fast path too.
    """
    if not _is_compiling():
        out = fast(*args)
        if out is not NotImplemented:
            return out
    return op(*args)


def as_tensor(value, like, arg, op):
    """``value`` as the kernels take it beside the other operand ``like``, so that the result
    has torch.mul's dtype.

    A scalar (a Python number, or a 0-dim integer or bool tensor) beside a tensor of higher
    rank never sets the result's dtype: it becomes a 0-dim float64 CPU tensor, whose value the
    kernels take in their compute type, as torch.mul takes 0.1 into a bfloat16 product as
    float 0.1, not as bfloat16's 0.10009765625.  Beside another scalar it takes the dtype
    torch's promotion gives the pair, and alone the default dtype.  Integer and bool tensors
    of higher rank are passed on for the kernels to refuse."""
    is_tensor = isinstance(value, torch.Tensor)
    if is_tensor and (value.is_floating_point() or value.dim() > 0):
        return value
    if not is_tensor and (isinstance(value, bool) or not isinstance(value, (int, float))):
        raise TypeError(
            "kernelwright.%s(): argument '%s' must be a tensor or a Python number, got %s"
            % (op, arg, type(value).__name__)
        )
    if isinstance(like, torch.Tensor) and like.dim() > 0:
        dtype = torch.float64
    elif isinstance(like, (torch.Tensor, int, float)):
        dtype = torch.result_type(value, like)
    else:
        dtype = torch.get_default_dtype()
    if is_tensor:
        return value.to(dtype) if dtype.is_floating_point else value
    return torch.tensor(value, dtype=dtype)


def register_unary(name, reference, saves):
    """Fake kernels and autograd of a unary op ``name(x, *args)`` whose backward op is
    ``name_backward(grad, saved, *args)``; ``saves`` is "input" or "output".

    The fake kernels run ``reference`` (the PyTorch function it replaces) on fake tensors, so
    output shapes, dtypes and strides are PyTorch's by construction.
    """
    qualname = "kernelwright::" + name
    backward_op = getattr(torch.ops.kernelwright, name + "_backward").default

    def fake(x, *args):
        check_floating(name, "x", x)
        return reference(x, *args)

    def fake_backward(grad, saved, *args):
        check_floating(name + "_backward", "grad", grad)
        check_floating(name + "_backward", "saved", saved)
        return torch.mul(grad, saved)

    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output if saves == "output" else inputs[0])
        ctx.args = inputs[1:]

    def backward(ctx, grad):
        (saved,) = ctx.saved_tensors
        return (backward_op(grad, saved, *ctx.args),) + (None,) * len(ctx.args)

    torch.library.register_fake(qualname)(fake)
    torch.library.register_fake(qualname + "_backward")(fake_backward)
    torch.library.register_autograd(qualname, backward, setup_context=setup_context)
