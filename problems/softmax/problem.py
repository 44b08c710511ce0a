"""Row-wise softmax."""

import os

import torch
import torch.nn as nn

# KernelBench's level-1 size; small for CPU runs (`kernelwright run` sets this).
SMALL = os.environ.get("KERNELWRIGHT_PROBLEM_SIZE") == "small"
ROWS, COLS = (64, 4099) if SMALL else (4096, 393216)


class Model(nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=1)


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return []
