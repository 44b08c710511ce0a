import torch
import torch.nn.functional as F

from kernelwright.ops._common import ext, register_unary, run

_op = torch.ops.kernelwright.elu.default


def elu(x, alpha=1.0):
    """Same as ``torch.nn.functional.elu(x, alpha)``."""
    return run(ext.elu, _op, x, float(alpha))


register_unary("elu", lambda x, alpha=1.0: F.elu(x, alpha), saves="input")
