"""Library calls that can stand in for an ATen op the planner leaves whole, each tried
against ATen in the same run (``tune``) and kept only where correct and faster.

Today: kernelwright's own GEMM for float matrix products (``mm``, ``addmm`` with a bias row,
and ``bmm``: one GEMM where the batch is one product or shares its right operand, else one
product at a time), which at 'highest' is fp32-accurate on the tensor cores (see docs/linear.md).
Where the right operand of ``mm``/``addmm`` is a parameter or buffer (seen through transposes),
a second stand-in keeps its conversion for the tensor cores between calls
(``kernelwright.ops.WeightCache``), so that a call converts its input alone.
"""

from dataclasses import dataclass
from typing import Callable

import torch

from . import opset
from .emitter import meta

aten = torch.ops.aten
_FLOATS = (torch.float32, torch.float16, torch.bfloat16)


@dataclass
class Alternative:
    label: str
    code: Callable  # name_of -> the Python expression the emitted forward uses
    call: Callable  # (*node args as values) -> the result


def _ops():
    import kernelwright.ops as K  # loads the compiled extension: only where a GPU run asks for it

    return K


def weight_cache():
    """A fresh ``kernelwright.ops.WeightCache``."""
    return _ops().WeightCache()


def held_weight(node, params):
    """Whether ``node`` is a parameter or buffer (a placeholder named in ``params``), directly or
    through 2-D transposes: a value that stays the same from call to call unless written."""
    while node.op == "call_function" and opset.op_name(node.target) in ("t", "permute", "transpose"):
        node = node.args[0]
    return node.op == "placeholder" and node.name in params


def _cached_linear(node, has_bias):
    """The stand-in that runs ``a @ b`` (+ bias) with b's conversion kept (``WeightCache``), one
    cache per call site: held by the module in the emitted code, by the closure here."""
    a, b = node.args[-2:]
    held = {}

    def call(*args):
        if "cache" not in held:
            held["cache"] = weight_cache()
        return _ops().linear(args[-2], args[-1].t(), args[0] if has_bias else None, cache=held["cache"])

    def code(n):
        return "_K.linear(%s, %s.t(), %s, cache=_kw.weight_cache(self, %r, _K.WeightCache))" % (
            n(a), n(b), n(node.args[0]) if has_bias else "None", node.name)

    return Alternative("kernelwright.ops.linear, weight converted once", code, call)


def alternatives(node, params=frozenset()):
    """The stand-ins worth timing for ``node`` (none for most ops); ``params``: the placeholder
    names that are the model's parameters and buffers."""
    name = opset.op_name(node.target) if node.op == "call_function" else None
    if name not in ("mm", "addmm", "bmm") or node.kwargs:
        return []
    val = meta(node)
    if val.dtype not in _FLOATS or val.device.type != "cuda":
        return []
    if name == "bmm":
        # One launch per product: worth it where each is large (an einsum that lowers to a
        # batch of one, attention's few heads of long sequences); the measurement decides.
        a, b = node.args[:2]
        if val.shape[0] == 0:
            return []
        if val.shape[0] == 1:  # a view of the one product: no copy into a stacked result
            return [Alternative("kernelwright.ops.matmul", lambda n: "_K.matmul(%s[0], %s[0])[None]" % (n(a), n(b)),
                                lambda a, b: _ops().matmul(a[0], b[0])[None])]
        if meta(b).stride()[0] == 0:  # one right operand expanded over the batch: one GEMM of all rows
            return [Alternative("kernelwright.ops.matmul", lambda n: "_K.matmul(%s.reshape(-1, %d), %s[0]).view(%r)" % (
                                    n(a), meta(a).shape[2], n(b), tuple(val.shape)),
                                lambda a, b: _ops().matmul(a.reshape(-1, a.shape[2]), b[0]).view(tuple(val.shape)))]
        return [Alternative("kernelwright.ops.matmul per batch",
                            lambda n: "torch.stack([_K.matmul(x, y) for x, y in zip(%s, %s)])" % (n(a), n(b)),
                            lambda a, b: torch.stack([_ops().matmul(x, y) for x, y in zip(a, b)]))]
    if name == "mm":
        a, b = node.args[:2]
        options = [Alternative("kernelwright.ops.matmul", lambda n: "_K.matmul(%s, %s)" % (n(a), n(b)),
                               lambda a, b: _ops().matmul(a, b))]
        if held_weight(b, params) and val.dtype == torch.float32:
            options.append(_cached_linear(node, has_bias=False))
        return options
    bias, a, b = node.args[:3]
    if len(node.args) > 3 or len(meta(bias).shape) != 1 or meta(bias).shape[0] != val.shape[1]:
        return []
    options = [Alternative("kernelwright.ops.linear", lambda n: "_K.linear(%s, %s.t(), %s)" % (n(a), n(b), n(bias)),
                           lambda bias, a, b: _ops().linear(a, b.t(), bias))]
    if held_weight(b, params) and val.dtype == torch.float32:
        options.append(_cached_linear(node, has_bias=True))
    return options
