import torch

from kernelwright.ops._common import call, check_floating

_op = torch.ops.kernelwright.elu.default


def elu(x, alpha=1.0):
    """Same as ``torch.nn.functional.elu(x, alpha)``."""
    return call(_op, x, float(alpha))


@torch.library.register_fake("kernelwright::elu")
def _(x, alpha=1.0):
    check_floating("elu", "x", x)
    return torch.nn.functional.elu(x, alpha)


@torch.library.register_fake("kernelwright::elu_backward")
def _(grad, x, alpha):
    check_floating("elu_backward", "grad", grad)
    check_floating("elu_backward", "x", x)
    return torch.mul(grad, x)


def _setup_context(ctx, inputs, output):
    x, alpha = inputs
    ctx.save_for_backward(x)
    ctx.alpha = alpha


def _backward(ctx, grad):
    (x,) = ctx.saved_tensors
    return torch.ops.kernelwright.elu_backward(grad, x, ctx.alpha), None


torch.library.register_autograd("kernelwright::elu", _backward, setup_context=_setup_context)
