"""nn.Linear (64 -> 129, with bias) on a (33, 64) batch whose rows 1 and 32 are scaled by 1e3
(values of several hundred, several thousand after * 4.0: a naive exp overflows), then two
logsumexps of the same GEMM result with different pre-scales:
lse_a = torch.logsumexp(z * 0.25, dim=-1) and lse_b = torch.logsumexp(z * 4.0, dim=-1,
keepdim=True); outputs lse_a, lse_b and lse_a * 4.0 - lse_b.squeeze(-1).
Input x: (33, 64); outputs (33,), (33, 1), (33,) as a tuple."""

import torch
import torch.nn as nn

B, D_IN, D_OUT = 33, 64, 129


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        z = self.fc(x)
        lse_a = torch.logsumexp(z * 0.25, dim=-1)
        lse_b = torch.logsumexp(z * 4.0, dim=-1, keepdim=True)
        return lse_a, lse_b, lse_a * 4.0 - lse_b.squeeze(-1)


def get_inputs():
    x = torch.randn(B, D_IN)
    x[1] *= 1.0e3
    x[32] *= 1.0e3
    return [x]


def get_init_inputs():
    return [D_IN, D_OUT]
