"""Forward returns a Python list (not a tuple) of three tensors: softmax over dim 0 (the batch
dim, 5 entries) of a 4-D input scaled by its per-channel mean x.mean(dim=(0, 2, 3)) (keeps only
dim 1, viewed back to (1, C, 1, 1)); y - torch.logsumexp(y, dim=(0, 1, 2)) with a 0-dim
logsumexp over every dim of a 3-D input; x - x.mean(dim=(0, 1), keepdim=True).
Inputs x: (5, 7, 9, 11) randn, y: (7, 13, 17) randn * 3; outputs [(5, 7, 9, 11), (7, 13, 17),
(5, 7, 9, 11)] as a list."""

import torch
import torch.nn as nn

N, C, H, W = 5, 7, 9, 11
A, B, D = 7, 13, 17


class Model(nn.Module):
    def __init__(self, temperature):
        super().__init__()
        self.temperature = temperature

    def forward(self, x, y):
        s = torch.softmax(x / self.temperature, dim=0)
        ch_mean = x.mean(dim=(0, 2, 3))
        first = s * ch_mean.view(1, -1, 1, 1)
        lse = torch.logsumexp(y, dim=(0, 1, 2))
        second = y - lse
        third = x - x.mean(dim=(0, 1), keepdim=True)
        return [first, second, third]


def get_inputs():
    return [torch.randn(N, C, H, W), torch.randn(A, B, D) * 3.0]


def get_init_inputs():
    return [0.7]
