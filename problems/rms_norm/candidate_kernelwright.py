"""Memory-bound: a 4096-wide row is 16 KB, so a block per row reads it once for the mean square
and again, mostly from cache, to write x * rstd * weight: close to one read and one write per
element, with 16-byte loads."""

import torch.nn as nn

import kernelwright.ops as K


class ModelNew(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.norm = nn.RMSNorm(hidden)

    def forward(self, x):
        return K.rms_norm(x, self.norm.normalized_shape, self.norm.weight, self.norm.eps)
