"""ELU with a configurable alpha.  get_inputs() is all positive, as in the benchmark
that was once "verified" without ever exercising the negative branch."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, alpha):
        super().__init__()
        self.alpha = alpha

    def forward(self, x):
        return F.elu(x, alpha=self.alpha)


def get_inputs():
    return [torch.rand(16, 512)]


def get_init_inputs():
    return [0.7]
