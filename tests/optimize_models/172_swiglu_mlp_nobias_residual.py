"""SwiGLU feed-forward (Llama style): w2(F.silu(w1(x)) * w3(x)) with three nn.Linear layers
without bias (w1, w3: 40 -> 108; w2: 108 -> 40), plus a residual x + ffn(x).
Input (5, 11, 40); output (5, 11, 40)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, HIDDEN = 5, 11, 40, 108


class Model(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden, bias=False)

    def forward(self, x):
        return x + self.w2(F.silu(self.w1(x)) * self.w3(x))


def get_inputs():
    return [torch.randn(B, T, D)]


def get_init_inputs():
    return [D, HIDDEN]
