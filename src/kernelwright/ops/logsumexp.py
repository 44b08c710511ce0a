import torch

from kernelwright.ops._common import check_floating, check_same_device, ext, int_list_arg, run

_op = torch.ops.kernelwright.logsumexp.default


def logsumexp(x, dim, keepdim=False):
    """Same as ``torch.logsumexp(x, dim, keepdim)`` for floating-point tensors."""
    return run(ext.logsumexp, _op, x, int_list_arg("logsumexp", "dim", dim), bool(keepdim))


@torch.library.register_fake("kernelwright::logsumexp")
def _(x, dim, keepdim=False):
    check_floating("logsumexp", "x", x)
    return torch.logsumexp(x, dim, keepdim)


@torch.library.register_fake("kernelwright::logsumexp_backward")
def _(grad, x, result, dim, keepdim):
    for name, t in (("grad", grad), ("x", x), ("result", result)):
        check_floating("logsumexp_backward", name, t)
    check_same_device("logsumexp_backward", [("grad", grad), ("x", x), ("result", result)])
    return x.new_empty(x.shape)


def _setup_context(ctx, inputs, output):
    x, dim, keepdim = inputs
    ctx.save_for_backward(x, output)
    ctx.dim = dim
    ctx.keepdim = keepdim


def _backward(ctx, grad):
    x, result = ctx.saved_tensors
    return torch.ops.kernelwright.logsumexp_backward(grad, x, result, ctx.dim, ctx.keepdim), None, None


torch.library.register_autograd("kernelwright::logsumexp", _backward, setup_context=_setup_context)
