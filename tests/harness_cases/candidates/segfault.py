"""forward() dereferences a null pointer: the worker process dies with SIGSEGV."""
import ctypes

import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, alpha):
        super().__init__()

    def forward(self, x):
        ctypes.memset(16, 0, 64)
        return x
