"""GEMM outputs that are both returned and reduced: h = gelu(nn.Linear (97, 48) -> 129) returned
unreduced beside its row max h.amax(dim=-1); and p = sigmoid(second nn.Linear 48 -> 129), normalised
by its own row sum p / p.sum(-1, keepdim=True) (the reduction feeds back into the same tensor).
Three outputs (97, 129), (97,), (97, 129)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, D_IN, D_OUT = 97, 48, 129


class Model(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_out)
        self.fc2 = nn.Linear(d_in, d_out)

    def forward(self, x):
        h = F.gelu(self.fc1(x))
        row_max = h.amax(dim=-1)
        p = torch.sigmoid(self.fc2(x))
        p = p / p.sum(-1, keepdim=True)
        return h, row_max, p


def get_inputs():
    return [torch.randn(N, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT]
