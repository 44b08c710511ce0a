import torch

from kernelwright.ops._common import ext, run
from kernelwright.ops._rows import check_grad, check_normalized, contiguous_like, shape_list, stat_dtype

_op = torch.ops.kernelwright.layer_norm.default
_backward_op = torch.ops.kernelwright.layer_norm_backward.default


def layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Same as ``torch.nn.functional.layer_norm(x, normalized_shape, weight, bias, eps)`` for
    floating-point tensors; float16 and bfloat16 are computed in fp32. weight and bias must have
    x's dtype. The result is contiguous."""
    return run(ext.layer_norm, _output, x, shape_list("layer_norm", normalized_shape), weight, bias, float(eps))


def _output(*args):
    return _op(*args)[0]


@torch.library.register_fake("kernelwright::layer_norm")
def _(x, normalized_shape, weight=None, bias=None, eps=1e-5):
    lead = check_normalized("layer_norm", x, normalized_shape, (("weight", weight), ("bias", bias)))
    return contiguous_like(x), x.new_empty(lead, dtype=stat_dtype(x)), x.new_empty(lead, dtype=stat_dtype(x))


@torch.library.register_fake("kernelwright::layer_norm_backward")
def _(grad, x, mean, rstd, normalized_shape, weight, has_bias):
    check_normalized("layer_norm_backward", x, normalized_shape, (("weight", weight),))
    check_grad("layer_norm_backward", grad, "x", x)
    return (
        contiguous_like(x),
        x.new_empty(normalized_shape if weight is not None else [0]),
        x.new_empty(normalized_shape if has_bias else [0]),
    )


def _setup_context(ctx, inputs, output):
    x, normalized_shape, weight, bias, _eps = inputs
    _, mean, rstd = output
    ctx.save_for_backward(x, mean, rstd, weight)
    ctx.normalized_shape = normalized_shape
    ctx.has_bias = bias is not None
    ctx.mark_non_differentiable(mean, rstd)


def _backward(ctx, grad, _grad_mean, _grad_rstd):
    x, mean, rstd, weight = ctx.saved_tensors
    gx, gw, gb = _backward_op(grad, x, mean, rstd, ctx.normalized_shape, weight, ctx.has_bias)
    return gx, None, gw if weight is not None else None, gb if ctx.has_bias else None, None


torch.library.register_autograd("kernelwright::layer_norm", _backward, setup_context=_setup_context)
