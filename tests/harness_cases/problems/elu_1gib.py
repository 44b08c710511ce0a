"""ELU on one 1 GiB float32 input: large enough that memory use per worker matters."""
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
    return [torch.randn(16384, 16384)]


def get_init_inputs():
    return [0.7]
