"""torch.matmul of a (33, 48) batch with a (48, 200) weight parameter plus a (200,) bias; the
logsumexp covers only part of the columns: torch.logsumexp(z[:, 3:120], dim=-1) and
torch.logsumexp(z[:, 1::2], dim=1, keepdim=True); the raw GEMM result z is also returned.
Input x: (33, 48); outputs (33,), (33, 1), (33, 200) as a tuple."""

import torch
import torch.nn as nn

B, D_IN, D_OUT = 33, 48, 200


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_features, out_features) * 0.2)
        self.bias = nn.Parameter(torch.randn(out_features) * 0.3)

    def forward(self, x):
        z = torch.matmul(x, self.weight) + self.bias
        a = torch.logsumexp(z[:, 3:120], dim=-1)
        b = torch.logsumexp(z[:, 1::2], dim=1, keepdim=True)
        return a, b, z


def get_inputs():
    return [torch.randn(B, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT]
