"""argmax/argmin over last and first dims (int64 results), and argmax with keepdim used as
gather indices back into a pointwise-transformed input."""

import torch
import torch.nn as nn

B, D = 97, 211


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = x * x - x
        amax = torch.argmax(y, dim=-1)                 # (B,)
        amin = torch.argmin(y, dim=0)                  # (D,)
        k = torch.argmax(x, dim=1, keepdim=True)       # (B, 1)
        picked = torch.gather(y, 1, k).squeeze(1)      # (B,)
        return amax, amin, picked


def get_inputs():
    return [torch.randn(B, D)]


def get_init_inputs():
    return []
