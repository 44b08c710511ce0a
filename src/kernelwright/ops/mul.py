import torch

from kernelwright.ops._common import as_tensor, check_floating, check_same_device, ext, run

_op = torch.ops.kernelwright.mul.default


def mul(a, b):
    """Same as ``torch.mul(a, b)`` for floating-point tensors; either may be a Python number."""
    return run(ext.mul, _op, as_tensor(a, b, "a", "mul"), as_tensor(b, a, "b", "mul"))


def _check(op, **named):
    for name, t in named.items():
        check_floating(op, name, t)
    check_same_device(op, list(named.items()))


@torch.library.register_fake("kernelwright::mul")
def _(a, b):
    _check("mul", a=a, b=b)
    return torch.mul(a, b)


@torch.library.register_fake("kernelwright::mul_backward")
def _(grad, a, b):
    _check("mul_backward", grad=grad, a=a, b=b)
    grad_a = torch.mul(grad, b).sum_to_size(a.shape).to(a.dtype)
    grad_b = torch.mul(grad, a).sum_to_size(b.shape).to(b.dtype)
    return grad_a, grad_b


def _setup_context(ctx, inputs, output):
    ctx.save_for_backward(*inputs)


def _backward(ctx, grad):
    a, b = ctx.saved_tensors
    grad_a, grad_b = torch.ops.kernelwright.mul_backward(grad, a, b)
    return (
        grad_a if ctx.needs_input_grad[0] else None,
        grad_b if ctx.needs_input_grad[1] else None,
    )


torch.library.register_autograd("kernelwright::mul", _backward, setup_context=_setup_context)
