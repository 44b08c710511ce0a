"""nn.Linear (17 -> 13) on a (N, D) batch, then F.batch_norm(h, None, None, weight, bias,
training=True, momentum=0.1, eps=1e-5): batch statistics over dim 0 (biased variance), no
running stats to update; mish; then torch.logcumsumexp along dim 0 (the batch dim, length 29)
minus torch.logsumexp over dim 0 (keepdim), so the last row is 0 and earlier rows
are <= 0 (up to rounding, about 2e-7).
Input (29, 17); output (29, 13)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, D, H = 29, 17, 13


class Model(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.fc = nn.Linear(d_in, d_out)
        self.bn_weight = nn.Parameter(torch.randn(d_out) * 0.3 + 1.0)
        self.bn_bias = nn.Parameter(torch.randn(d_out) * 0.2)

    def forward(self, x):
        h = self.fc(x)
        h = F.batch_norm(h, None, None, self.bn_weight, self.bn_bias,
                         training=True, momentum=0.1, eps=1e-5)
        h = F.mish(h)
        return torch.logcumsumexp(h, dim=0) - torch.logsumexp(h, dim=0, keepdim=True)


def get_inputs():
    return [torch.randn(N, D)]


def get_init_inputs():
    return [D, H]
