"""What the row ops (softmax, layer_norm, rms_norm) share: the fake-kernel twins of the C++
checks in csrc/ops/rows.h, same exception types, same words."""

import torch

from kernelwright.ops._common import check_floating, int_list_arg


def shape_list(op, normalized_shape):
    """normalized_shape as torch.nn.functional.layer_norm takes it: an int or a sequence."""
    return int_list_arg(op, "normalized_shape", normalized_shape)


def stat_dtype(x):
    """Per-row statistics are kept in the accumulator type, as torch.native_layer_norm does."""
    return torch.float64 if x.dtype == torch.float64 else torch.float32


def check_same_device(op, arg, t, other_arg, other):
    if t.device != other.device:
        raise ValueError(
            "kernelwright.%s(): argument '%s' is on %s but argument '%s' is on %s; tensors must "
            "be on the same device" % (op, arg, t.device, other_arg, other.device)
        )


def check_normalized(op, x, normalized_shape, params=()):
    """x must end in normalized_shape; params: (name, tensor or None) pairs of weights and
    biases. Returns x's leading dims, the saved statistics' shape."""
    check_floating(op, "x", x)
    k = len(normalized_shape)
    if k < 1:
        raise ValueError("kernelwright.%s(): argument 'normalized_shape' must name at least one dim, got []" % op)
    if x.dim() < k or list(x.shape[x.dim() - k :]) != list(normalized_shape):
        raise ValueError(
            "kernelwright.%s(): argument 'normalized_shape' is %s but argument 'x' has shape %s; x must "
            "end in normalized_shape" % (op, list(normalized_shape), list(x.shape))
        )
    for name, t in params:
        if t is None:
            continue
        check_floating(op, name, t)
        if t.dtype != x.dtype:
            raise TypeError(
                "kernelwright.%s(): argument '%s' has dtype %s but argument 'x' has dtype %s; they must "
                "match" % (op, name, t.dtype, x.dtype)
            )
        check_same_device(op, name, t, "x", x)
        if list(t.shape) != list(normalized_shape):
            raise ValueError(
                "kernelwright.%s(): argument '%s' has shape %s but normalized_shape is %s"
                % (op, name, list(t.shape), list(normalized_shape))
            )
    return list(x.shape[: x.dim() - k])


def check_grad(op, grad, like_arg, like):
    check_floating(op, "grad", grad)
    check_same_device(op, "grad", grad, like_arg, like)
    if grad.shape != like.shape:
        raise ValueError(
            "kernelwright.%s(): argument 'grad' has shape %s but argument '%s' has shape %s"
            % (op, list(grad.shape), like_arg, list(like.shape))
        )


def contiguous_like(x):
    return x.new_empty(x.shape)
