import torch

from kernelwright.ops._common import call, check_floating

_op = torch.ops.kernelwright.square.default


def square(x):
    """Same as ``torch.square(x)`` for floating-point tensors."""
    return call(_op, x)


@torch.library.register_fake("kernelwright::square")
def _(x):
    check_floating("square", "x", x)
    return torch.square(x)


@torch.library.register_fake("kernelwright::square_backward")
def _(grad, x):
    check_floating("square_backward", "grad", grad)
    check_floating("square_backward", "x", x)
    return torch.mul(grad, x)


def _setup_context(ctx, inputs, output):
    ctx.save_for_backward(inputs[0])


def _backward(ctx, grad):
    (x,) = ctx.saved_tensors
    return torch.ops.kernelwright.square_backward(grad, x)


torch.library.register_autograd("kernelwright::square", _backward, setup_context=_setup_context)
