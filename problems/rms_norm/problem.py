"""RMSNorm over the hidden size of a (batch, sequence, hidden) activation with a learned weight:
a transformer layer's shape, 1 GiB in float32."""

import os

import torch
import torch.nn as nn

# A realistic size; small for CPU runs (`kernelwright run` sets this).
SMALL = os.environ.get("KERNELWRIGHT_PROBLEM_SIZE") == "small"
BATCH, SEQ, HIDDEN = (4, 64, 512) if SMALL else (16, 4096, 4096)


class Model(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.norm = nn.RMSNorm(hidden)
        with torch.no_grad():  # a trained weight, not the initial ones
            self.norm.weight.normal_(1.0, 0.1)

    def forward(self, x):
        return self.norm(x)


def get_inputs():
    return [torch.randn(BATCH, SEQ, HIDDEN)]


def get_init_inputs():
    return [HIDDEN]
