"""Library calls that can stand in for an ATen op the planner leaves whole, each tried
against ATen in the same run (``tune``) and kept only where correct and faster.

Today: kernelwright's own GEMM for float matrix products (``mm``, ``addmm`` with a bias row,
and ``bmm``: one GEMM where the batch is one product or shares its right operand, else one
product at a time), which at 'highest' is fp32-accurate on the tensor cores (see docs/linear.md).
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


def alternatives(node):
    """The stand-ins worth timing for ``node`` (none for most ops)."""
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
        return [Alternative("kernelwright.ops.matmul", lambda n: "_K.matmul(%s, %s)" % (n(a), n(b)),
                            lambda a, b: _ops().matmul(a, b))]
    bias, a, b = node.args[:3]
    if len(node.args) > 3 or len(meta(bias).shape) != 1 or meta(bias).shape[0] != val.shape[1]:
        return []
    return [Alternative("kernelwright.ops.linear", lambda n: "_K.linear(%s, %s.t(), %s)" % (n(a), n(b), n(bias)),
                        lambda bias, a, b: _ops().linear(a, b.t(), bias))]
