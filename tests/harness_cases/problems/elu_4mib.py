"""ELU on a 4 MiB input: large enough that the exchange files' sizes, not their margins,
decide whether an evaluation fits a small exchange space."""
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
    return [torch.rand(1024, 1024)]


def get_init_inputs():
    return [0.7]
