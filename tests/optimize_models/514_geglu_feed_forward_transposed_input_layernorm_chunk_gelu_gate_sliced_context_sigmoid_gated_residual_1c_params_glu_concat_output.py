"""GEGLU feed-forward with a context-gated residual, on non-contiguous inputs.
x = randn(3, 40, 17).transpose(1, 2) (3, 17, 40), strides (680, 1, 17) (transposed);
ctx = randn(3, 17, 50)[..., 5:45] (3, 17, 40), strides (850, 50, 1), offset 5 (column slice).
xn = LayerNorm(40)(x); a, b = Linear(40 -> 112)(xn).chunk(2, dim=-1) (56 each);
h = a * gelu(b) (GEGLU); y = Linear(56 -> 40)(h);
gate = sigmoid(ctx * gate_w + gate_b) with (1, 40) parameters;
out = x + gate * y * alpha with a (1, 40) alpha;
out2 = F.glu(cat([out, ctx], dim=-1), dim=-1) = out * sigmoid(ctx).
Outputs: out (3, 17, 40), out2 (3, 17, 40)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fc_in = nn.Linear(dim, 2 * hidden)
        self.fc_out = nn.Linear(hidden, dim)
        self.gate_w = nn.Parameter(torch.randn(1, dim))
        self.gate_b = nn.Parameter(0.1 * torch.randn(1, dim))
        self.alpha = nn.Parameter(0.5 + 0.2 * torch.randn(1, dim))

    def forward(self, x, ctx):
        xn = self.norm(x)
        a, b = self.fc_in(xn).chunk(2, dim=-1)
        y = self.fc_out(a * F.gelu(b))
        gate = torch.sigmoid(ctx * self.gate_w + self.gate_b)
        out = x + gate * y * self.alpha
        out2 = F.glu(torch.cat([out, ctx], dim=-1), dim=-1)
        return out, out2


def get_inputs():
    x = torch.randn(3, 40, 17).transpose(1, 2)
    ctx = torch.randn(3, 17, 50)[..., 5:45]
    return [x, ctx]


def get_init_inputs():
    return [40, 56]
