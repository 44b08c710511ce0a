import torch

from kernelwright.ops._common import ext, run

_op = torch.ops.kernelwright.matmul.default


def matmul(a, b):
    """``torch.matmul(a, b)`` for ``a`` of shape [..., k] and a 2-D ``b`` of shape [k, n]: the
    GEMM of :func:`kernelwright.ops.linear` with ``weight = b.t()``, at the same precision rules.

    The op is linear with a transposed view of ``b`` (no copy), so it differentiates and traces as
    that call does; batched or 1-D ``b`` is not taken (a ValueError says so).
    """
    return run(ext.matmul, _op, a, b)
