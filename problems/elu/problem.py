"""ELU with a configurable alpha (the reference material's first kernel)."""

import os

import torch
import torch.nn as nn
import torch.nn.functional as F

# KernelBench's level-1 size; small for CPU runs (`kernelwright run` sets this).
SMALL = os.environ.get("KERNELWRIGHT_PROBLEM_SIZE") == "small"
ROWS, COLS = (64, 4099) if SMALL else (4096, 393216)


class Model(nn.Module):
    def __init__(self, alpha: float = 1.0):
        super().__init__()
        self.alpha = alpha

    def forward(self, x):
        return F.elu(x, alpha=self.alpha)


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return [0.7]
