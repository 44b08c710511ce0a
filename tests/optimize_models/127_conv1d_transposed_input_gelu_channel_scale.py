"""Conv1d with bias on a non-contiguous input: x (3, 37, 5) is transposed inside forward
to a (3, 5, 37) view (strides (185, 1, 5)), Conv1d(5 -> 11, kernel 3, padding 1) gives
(3, 11, 37), then GELU and a learned per-channel scale of shape (11, 1)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, L, CIN, COUT = 3, 37, 5, 11


class Model(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv1d(cin, cout, kernel_size=3, padding=1, bias=True)
        self.scale = nn.Parameter(torch.randn(cout, 1))

    def forward(self, x):
        xt = x.transpose(1, 2)                # (N, CIN, L), non-contiguous view
        y = self.conv(xt)
        return F.gelu(y) * self.scale


def get_inputs():
    return [torch.randn(N, L, CIN)]


def get_init_inputs():
    return [CIN, COUT]
