import torch

from kernelwright.ops._common import call, check_floating

_op = torch.ops.kernelwright.sigmoid.default


def sigmoid(x):
    """Same as ``torch.sigmoid(x)``."""
    return call(_op, x)


@torch.library.register_fake("kernelwright::sigmoid")
def _(x):
    check_floating("sigmoid", "x", x)
    return torch.sigmoid(x)


@torch.library.register_fake("kernelwright::sigmoid_backward")
def _(grad, y):
    check_floating("sigmoid_backward", "grad", grad)
    check_floating("sigmoid_backward", "y", y)
    return torch.mul(grad, y)


def _setup_context(ctx, inputs, output):
    ctx.save_for_backward(output)


def _backward(ctx, grad):
    (y,) = ctx.saved_tensors
    return torch.ops.kernelwright.sigmoid_backward(grad, y)


torch.library.register_autograd("kernelwright::sigmoid", _backward, setup_context=_setup_context)
