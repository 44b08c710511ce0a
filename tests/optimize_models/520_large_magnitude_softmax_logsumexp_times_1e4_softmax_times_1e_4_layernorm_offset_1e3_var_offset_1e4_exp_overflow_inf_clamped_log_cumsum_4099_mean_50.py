"""Large and tiny magnitudes in float32.
x (9, 41) randn; gain (41,) parameter; big = 1e4, small = 1e-4, offset = 1e3 (constructor).
p = softmax(x * 1e4, dim=-1) (almost one-hot: needs the max subtraction);
lse = logsumexp(x * 1e4, dim=-1) (about 1e4 * row max);
pu = softmax(x * 1e-4, dim=-1) * 41 - 1 (deviation from uniform, about 1e-4 in size);
ln = LayerNorm(41)(x + 1e3) * gain (mean far from zero, unit variance: E[x^2] - E[x]^2 in
float32 would cancel badly);
lns = F.layer_norm(x * 1e-4, (41,), eps=1e-5) (variance 1e-8, far below eps);
v = (x * 100 + 1e4).var(dim=-1) (mean 1e4, variance about 1e4);
e = exp(x * 100) overflows to +inf where x > 0.887 and underflows towards 0 where x < -0.87;
ec = clamp(e, 1e-30, 1e30) (inf -> 1e30, zeros / denormals -> 1e-30); el = log(ec) (in
[-69.08, 69.08], equal to x * 100 in the middle).
c (3, 4099) = randn + 50 (mean far from zero): cs = cumsum(c, dim=-1) (grows to about 2e5);
tail = cs[:, -1] / 4099 (3,).
Outputs: p, lse, pu, ln, lns, v, ec, el, cs, tail."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, D = 9, 41
R, L = 3, 4099


class Model(nn.Module):
    def __init__(self, dim, big, small, offset):
        super().__init__()
        self.big = big
        self.small = small
        self.offset = offset
        self.ln = nn.LayerNorm(dim)
        self.gain = nn.Parameter(torch.randn(dim))

    def forward(self, x, c):
        xb = x * self.big
        p = torch.softmax(xb, dim=-1)
        lse = torch.logsumexp(xb, dim=-1)
        pu = torch.softmax(x * self.small, dim=-1) * x.shape[-1] - 1.0
        ln = self.ln(x + self.offset) * self.gain
        lns = F.layer_norm(x * self.small, (x.shape[-1],), eps=1e-5)
        v = (x * 100.0 + 1e4).var(dim=-1)
        e = torch.exp(x * 100.0)
        ec = torch.clamp(e, min=1e-30, max=1e30)
        el = torch.log(ec)
        cs = torch.cumsum(c, dim=-1)
        tail = cs[:, -1] / c.shape[-1]
        return p, lse, pu, ln, lns, v, ec, el, cs, tail


def get_inputs():
    return [torch.randn(N, D), torch.randn(R, L) + 50.0]


def get_init_inputs():
    return [D, 1e4, 1e-4, 1e3]
