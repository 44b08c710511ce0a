"""Linear on a 3-D input followed by a transformer-style epilogue ending in reductions.
x = randn(5, 9, 33).
h = Linear(33 -> 47)(x) (5, 9, 47); y = gelu(h, approximate='tanh') -> Dropout(p=0.3) (eval,
identity) -> LayerNorm(47) (random affine); y = (y + h) * (1, 47) gain (residual of the anchor
output); m = softplus(y.amax(dim=-1)) (5, 9); out = m.mean(dim=1) (5,).
The model is put in eval mode in __init__.
Outputs: out (5,), m (5, 9)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, d_in, d_out, p):
        super().__init__()
        self.fc = nn.Linear(d_in, d_out)
        self.drop = nn.Dropout(p)
        self.ln = nn.LayerNorm(d_out)
        with torch.no_grad():
            self.ln.weight.copy_(1.0 + 0.2 * torch.randn(d_out))
            self.ln.bias.copy_(0.1 * torch.randn(d_out))
        self.gain = nn.Parameter(1.0 + 0.3 * torch.randn(1, d_out))
        self.eval()

    def forward(self, x):
        h = self.fc(x)
        y = self.ln(self.drop(F.gelu(h, approximate="tanh")))
        y = (y + h) * self.gain
        m = F.softplus(y.amax(dim=-1))
        return m.mean(dim=1), m


def get_inputs():
    return [torch.randn(5, 9, 33)]


def get_init_inputs():
    return [33, 47, 0.3]
