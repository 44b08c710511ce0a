"""GEMM followed by epilogue chains that a compiler may fuse into the GEMM or the row
reduction after it.
x = randn(37, 67), r = randn(37, 101) (full-size residual input).
h = Linear(67 -> 101)(x) * col_scale (101,) parameter + r; h = clamp(h, -2.5, 2.5);
l = logsumexp(h, dim=1, keepdim=True) (37, 1); out1 = mish(l) = l * tanh(softplus(l)).
u = randn(3, 13, 67): v = F.linear(u, W2, None) (no-bias 67 -> 29 on a 3-D input) + bias2
(29,); gelu(approximate='tanh'); * (1, 29) gain; out2 = v - v.mean(dim=(0, 1)) (column mean over
all 39 rows broadcast back) (3, 13, 29).
Also returned: colmax = h.amax(dim=0) (101,) (column reduction of the clamped epilogue).
Outputs: out1 (37, 1), out2 (3, 13, 29), colmax (101,)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, d_in, d_out, d_out2):
        super().__init__()
        self.fc = nn.Linear(d_in, d_out)
        self.col_scale = nn.Parameter(1.0 + 0.5 * torch.randn(d_out))
        self.w2 = nn.Parameter(torch.randn(d_out2, d_in) / d_in ** 0.5)
        self.bias2 = nn.Parameter(0.1 * torch.randn(d_out2))
        self.gain = nn.Parameter(1.0 + 0.2 * torch.randn(1, d_out2))

    def forward(self, x, r, u):
        h = self.fc(x) * self.col_scale + r
        h = torch.clamp(h, -2.5, 2.5)
        l = torch.logsumexp(h, dim=1, keepdim=True)
        out1 = F.mish(l)
        v = F.linear(u, self.w2, None) + self.bias2
        v = F.gelu(v, approximate="tanh") * self.gain
        out2 = v - v.mean(dim=(0, 1))
        return out1, out2, h.amax(dim=0)


def get_inputs():
    return [torch.randn(37, 67), torch.randn(37, 101), torch.randn(3, 13, 67)]


def get_init_inputs():
    return [67, 101, 29]
