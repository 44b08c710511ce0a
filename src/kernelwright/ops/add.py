import torch

from kernelwright.ops._common import as_tensor, check_floating, check_same_device, ext, run

_op = torch.ops.kernelwright.add.default


def add(a, b, alpha=1):
    """Same as ``torch.add(a, b, alpha=alpha)`` for floating-point tensors."""
    return run(ext.add, _add, as_tensor(a, b, "a", "add"), as_tensor(b, a, "b", "add"), float(alpha))


def _add(a, b, alpha):
    return _op(a, b, alpha=alpha)


@torch.library.register_fake("kernelwright::add")
def _(a, b, *, alpha=1.0):
    for name, t in (("a", a), ("b", b)):
        check_floating("add", name, t)
    check_same_device("add", [("a", a), ("b", b)])
    return torch.add(a, b, alpha=alpha)


def _setup_context(ctx, inputs, keyword_only_inputs, output):
    a, b = inputs
    ctx.alpha = keyword_only_inputs.get("alpha", 1.0)
    ctx.shapes = (a.shape, b.shape)
    ctx.dtypes = (a.dtype, b.dtype)


def _reduce(grad, shape, dtype):
    # Broadcast inputs get their gradient summed back to their own shape.
    if grad.shape != shape:
        grad = grad.sum_to_size(shape)
    return grad if grad.dtype == dtype else grad.to(dtype)


def _backward(ctx, grad):
    grad_a = _reduce(grad, ctx.shapes[0], ctx.dtypes[0]) if ctx.needs_input_grad[0] else None
    grad_b = None
    if ctx.needs_input_grad[1]:
        # A 0-dim CPU scalar reaches the kernel by value: no fill kernel, no device read.
        alpha = torch.tensor(ctx.alpha, dtype=grad.dtype)
        scaled = grad if ctx.alpha == 1.0 else torch.ops.kernelwright.mul(grad, alpha)
        grad_b = _reduce(scaled, ctx.shapes[1], ctx.dtypes[1])
    return grad_a, grad_b


torch.library.register_autograd("kernelwright::add", _backward, setup_context=_setup_context)
