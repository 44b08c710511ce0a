import torch

from kernelwright.ops._common import check_floating, ext, int_arg, run
from kernelwright.ops._rows import check_grad, contiguous_like

_op = torch.ops.kernelwright.softmax.default
_backward_op = torch.ops.kernelwright.softmax_backward.default


def softmax(x, dim):
    """Same as ``torch.softmax(x, dim)`` for floating-point tensors; float16 and bfloat16 are
    computed in fp32. The result is contiguous."""
    return run(ext.softmax, _op, x, int_arg("softmax", "dim", dim))


def _check_dim(op, x, dim):
    nd = x.dim()
    lo, hi = (-1, 0) if nd == 0 else (-nd, nd - 1)
    if not lo <= dim <= hi:
        raise IndexError(
            "kernelwright.%s(): argument 'dim' is %d, out of range for a tensor of %d dims (expected a "
            "value in [%d, %d])" % (op, dim, nd, lo, hi)
        )


@torch.library.register_fake("kernelwright::softmax")
def _(x, dim):
    check_floating("softmax", "x", x)
    _check_dim("softmax", x, dim)
    return contiguous_like(x)


@torch.library.register_fake("kernelwright::softmax_backward")
def _(grad, y, dim):
    check_floating("softmax_backward", "y", y)
    check_grad("softmax_backward", grad, "y", y)
    _check_dim("softmax_backward", y, dim)
    return contiguous_like(y)


def _setup_context(ctx, inputs, output):
    ctx.save_for_backward(output)
    ctx.dim = inputs[1]


def _backward(ctx, grad):
    (y,) = ctx.saved_tensors
    return _backward_op(grad, y, ctx.dim), None


torch.library.register_autograd("kernelwright::softmax", _backward, setup_context=_setup_context)
