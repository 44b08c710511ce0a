"""Matmul with a large inner dimension: (256 x 131072) @ (131072 x 256)."""

import os

import torch
import torch.nn as nn

SMALL = os.environ.get("KERNELWRIGHT_PROBLEM_SIZE") == "small"
M, K, N = (32, 4096, 32) if SMALL else (256, 131072, 256)


class Model(nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b)


def get_inputs():
    return [torch.randn(M, K), torch.randn(K, N)]


def get_init_inputs():
    return []
