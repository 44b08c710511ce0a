"""LayerNorm over the trailing (features, dim1, dim2) dims, with nn.LayerNorm's weight and bias."""

import os

import torch
import torch.nn as nn

# KernelBench's level-1 size; small for CPU runs (`kernelwright run` sets this).
SMALL = os.environ.get("KERNELWRIGHT_PROBLEM_SIZE") == "small"
BATCH, FEATURES, DIM1, DIM2 = (4, 8, 32, 32) if SMALL else (16, 64, 256, 256)


class Model(nn.Module):
    def __init__(self, normalized_shape):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)

    def forward(self, x):
        return self.ln(x)


def get_inputs():
    return [torch.randn(BATCH, FEATURES, DIM1, DIM2)]


def get_init_inputs():
    return [(FEATURES, DIM1, DIM2)]
