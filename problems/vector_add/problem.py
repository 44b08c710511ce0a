"""Vector addition."""

import os

import torch
import torch.nn as nn

SMALL = os.environ.get("KERNELWRIGHT_PROBLEM_SIZE") == "small"
N = 100003 if SMALL else 1 << 28


class Model(nn.Module):
    def forward(self, a, b):
        return a + b


def get_inputs():
    return [torch.randn(N), torch.randn(N)]


def get_init_inputs():
    return []
