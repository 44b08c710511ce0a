"""Scans over different dims of one float32 (4, 17, 23) input, forward and reverse.
c0 = cumsum(x, dim=0); rc = flip(cumsum(flip(x, [-1]), dim=-1), [-1]) (suffix sum over the last
dim); cp = cumprod(1 + 0.1 * tanh(x), dim=1); out1 = 0.1 * c0 + 0.05 * rc + cp.
lce = logcumsumexp(x, dim=2); rlce = flip(logcumsumexp(flip(x, [1]), dim=1), [1]) (reverse
log-space scan over dim 1); out2 = lce - 0.5 * rlce.
cm, ci = cummax(clamp(x, max=0.5), dim=1): the clamp makes ties at 0.5; PyTorch's cummax takes
the latest index among equal values (>=), so ci moves on every repeated 0.5;
mn, mi = cummin(flip(x, [2]), dim=2); out3 = cm - mn.
Decay scan (Mamba / linear-attention style): ld = logsigmoid(0.5 * x + bias) with a (23,) bias;
dec = exp(cumsum(ld, dim=1)) in (0, 1]; out4 = dec * cumsum(x.transpose(1, 2), dim=2)
.transpose(1, 2) (a scan over the last dim of a transposed view: the scan axis has stride 23).
Outputs: out1, out2, out3, ci (int64), mi (int64), out4, all (4, 17, 23)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(width))

    def forward(self, x):
        c0 = torch.cumsum(x, dim=0)
        rc = torch.flip(torch.cumsum(torch.flip(x, [-1]), dim=-1), [-1])
        cp = torch.cumprod(1.0 + 0.1 * torch.tanh(x), dim=1)
        out1 = 0.1 * c0 + 0.05 * rc + cp

        lce = torch.logcumsumexp(x, dim=2)
        rlce = torch.flip(torch.logcumsumexp(torch.flip(x, [1]), dim=1), [1])
        out2 = lce - 0.5 * rlce

        cm, ci = torch.cummax(torch.clamp(x, max=0.5), dim=1)
        mn, mi = torch.cummin(torch.flip(x, [2]), dim=2)
        out3 = cm - mn

        ld = F.logsigmoid(0.5 * x + self.bias)
        dec = torch.exp(torch.cumsum(ld, dim=1))
        xt = x.transpose(1, 2)
        out4 = dec * torch.cumsum(xt, dim=2).transpose(1, 2)
        return out1, out2, out3, ci, mi, out4


def get_inputs():
    return [torch.randn(4, 17, 23)]


def get_init_inputs():
    return [23]
