import torch

from kernelwright.ops._common import ext, run
from kernelwright.ops._rows import check_grad, check_normalized, contiguous_like, shape_list, stat_dtype

_op = torch.ops.kernelwright.rms_norm.default
_backward_op = torch.ops.kernelwright.rms_norm_backward.default


def rms_norm(x, normalized_shape, weight=None, eps=None):
    """Same as ``torch.nn.functional.rms_norm(x, normalized_shape, weight, eps)`` for
    floating-point tensors; float16 and bfloat16 are computed in fp32, and eps=None means the
    float32 epsilon (float64's for float64 x), as in torch. weight must have x's dtype. The
    result is contiguous."""
    eps = None if eps is None else float(eps)
    return run(ext.rms_norm, _output, x, shape_list("rms_norm", normalized_shape), weight, eps)


def _output(*args):
    return _op(*args)[0]


@torch.library.register_fake("kernelwright::rms_norm")
def _(x, normalized_shape, weight=None, eps=None):
    lead = check_normalized("rms_norm", x, normalized_shape, (("weight", weight),))
    return contiguous_like(x), x.new_empty(lead, dtype=stat_dtype(x))


@torch.library.register_fake("kernelwright::rms_norm_backward")
def _(grad, x, rstd, normalized_shape, weight):
    check_normalized("rms_norm_backward", x, normalized_shape, (("weight", weight),))
    check_grad("rms_norm_backward", grad, "x", x)
    return contiguous_like(x), x.new_empty(normalized_shape if weight is not None else [0])


def _setup_context(ctx, inputs, output):
    x, normalized_shape, weight, _eps = inputs
    ctx.save_for_backward(x, output[1], weight)
    ctx.normalized_shape = normalized_shape
    ctx.mark_non_differentiable(output[1])


def _backward(ctx, grad, _grad_rstd):
    x, rstd, weight = ctx.saved_tensors
    gx, gw = _backward_op(grad, x, rstd, ctx.normalized_shape, weight)
    return gx, None, gw if weight is not None else None, None


torch.library.register_autograd("kernelwright::rms_norm", _backward, setup_context=_setup_context)
