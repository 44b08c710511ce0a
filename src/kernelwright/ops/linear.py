import torch

from kernelwright.ops._common import check_floating, ext, run

_op = torch.ops.kernelwright.linear.default
_backward_op = torch.ops.kernelwright.linear_backward.default

ACTIVATIONS = ("none", "relu", "sigmoid", "gelu", "gelu_tanh")


def linear(x, weight, bias=None, activation=None):
    """``activation(torch.nn.functional.linear(x, weight, bias))`` in one GEMM whose epilogue adds
    the bias and applies the activation.

    activation: None, "relu", "sigmoid", "gelu" (erf form, torch's default) or "gelu_tanh".
    float32 follows ``torch.get_float32_matmul_precision()``: 'highest' multiplies operands split
    into two fp16 halves per row-scaled element (three products on the tensor cores, partial sums
    promoted to fp32; fp32-accurate), or leaves thin products to cuBLAS fp32; 'high' and
    'medium' multiply the row-scaled operands rounded to fp16 once (TF32's 11 bits at twice its
    rate), or run one TF32 pass where that conversion does not pay off; float16 and bfloat16 use
    the tensor cores directly. On GPUs other than Hopper and for shapes the kernels do not take,
    cuBLAS runs the GEMM at the same precision. See docs/linear.md.
    """
    return run(ext.linear, _op, x, weight, bias, activation or "none")


def _check(op, x, weight, bias, activation):
    check_floating(op, "x", x)
    check_floating(op, "weight", weight)
    if activation not in ACTIVATIONS:
        raise ValueError(
            "kernelwright.%s(): argument 'activation' must be one of %s (or None), but got '%s'"
            % (op, ", ".join("'%s'" % a for a in ACTIVATIONS), activation))
    if weight.dim() != 2 or x.dim() < 1 or x.shape[-1] != weight.shape[1]:
        raise ValueError(
            "kernelwright.%s(): argument 'x' must have in_features = weight.shape[1] as its last "
            "dim; got x %s and weight %s" % (op, tuple(x.shape), tuple(weight.shape)))
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != weight.shape[0]):
        raise ValueError(
            "kernelwright.%s(): argument 'bias' must have shape [%d] (out_features), but has "
            "shape %s" % (op, weight.shape[0], tuple(bias.shape)))


@torch.library.register_fake("kernelwright::linear")
def _(x, weight, bias=None, activation="none"):
    _check("linear", x, weight, bias, activation)
    return x.new_empty(tuple(x.shape[:-1]) + (weight.shape[0],))


@torch.library.register_fake("kernelwright::linear_backward")
def _(grad, x, weight, bias, output, activation, output_mask):
    _check("linear_backward", x, weight, bias, activation)
    empty = x.new_empty((0,))
    return (x.new_empty(x.shape) if output_mask[0] else empty,
            weight.new_empty(weight.shape) if output_mask[1] else empty,
            weight.new_empty((weight.shape[0],)) if output_mask[2] and bias is not None else empty)


def _setup_context(ctx, inputs, output):
    x, weight, bias, activation = inputs
    ctx.save_for_backward(x, weight, bias, output)
    ctx.activation = activation


def _backward(ctx, grad):
    x, weight, bias, output = ctx.saved_tensors
    mask = [ctx.needs_input_grad[0], ctx.needs_input_grad[1],
            bias is not None and ctx.needs_input_grad[2]]
    gx, gw, gb = _backward_op(grad, x, weight, bias, output, ctx.activation, mask)
    return (gx if mask[0] else None, gw if mask[1] else None, gb if mask[2] else None, None)


torch.library.register_autograd("kernelwright::linear", _backward, setup_context=_setup_context)
