"""The float32 precision contract, applied to every switch that picks float32 arithmetic.

``torch.set_float32_matmul_precision`` governs matmuls only: cuDNN runs float32 convolutions
in TF32 whenever ``torch.backends.cudnn.allow_tf32`` is on, which is torch's default at every
precision. kernelwright reads 'highest' as float32-accurate methods only, so there cuDNN's TF32
is turned off too: for the references (eager, torch.compile) as for the candidate, whose
timings are then compared at the same accuracy. 'high' and 'medium' allow TF32.
"""

import contextlib

import torch

from kernelwright.harness.protocol import PRECISIONS


def apply(precision):
    if precision not in PRECISIONS:
        raise ValueError("precision must be one of %s, got %r" % (", ".join(PRECISIONS), precision))
    torch.set_float32_matmul_precision(precision)
    torch.backends.cudnn.allow_tf32 = precision != "highest"


@contextlib.contextmanager
def contract(precision):
    """``apply(precision)`` for the block, then the switches as they were."""
    previous = torch.get_float32_matmul_precision(), torch.backends.cudnn.allow_tf32
    apply(precision)
    try:
        yield
    finally:
        torch.set_float32_matmul_precision(previous[0])
        torch.backends.cudnn.allow_tf32 = previous[1]
