"""One Mamba (S6) residual block written the way the minimal reference implementations do it,
with the selective scan as a Python loop over 13 time steps.
x (2, 13, 16). Residual block: out = x + mixer(RMSNorm(x)); RMSNorm by hand
(x * rsqrt(mean(x^2, -1) + 1e-5) * weight).
Mixer: in_proj Linear 16 -> 64 (no bias) split into xs, z (32 each); xs.transpose(1, 2) ->
depthwise causal Conv1d(32, 32, k4, groups=32, padding=3, bias) -> [:, :, :13] -> transpose back,
SiLU; x_proj Linear 32 -> 4 + 2 * 8 (no bias) split into delta (4), B (8), C (8);
delta = softplus(dt_proj(delta)) with dt_proj Linear 4 -> 32 (bias);
A = -exp(A_log) with A_log = log(arange(1, 9)).repeat(32, 1) (32, 8) parameter;
dA = exp(einsum('bld,dn->bldn', delta, A)); dBu = einsum('bld,bln,bld->bldn', delta, B, u);
scan: s = zeros(2, 32, 8); for i in range(13): s = dA[:, i] * s + dBu[:, i];
y_i = einsum('bdn,bn->bd', s, C[:, i]); y = stack(ys, dim=1) + u * D (D (32,) parameter);
y = y * silu(z); out_proj Linear 32 -> 16 (no bias).
Outputs: block output (2, 13, 16) and the final scan state s (2, 32, 8)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, L, DM = 2, 13, 16
D_INNER, D_STATE, D_CONV, DT_RANK = 32, 8, 4, 4


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm_weight = nn.Parameter(1.0 + 0.1 * torch.randn(DM))
        self.in_proj = nn.Linear(DM, 2 * D_INNER, bias=False)
        self.conv1d = nn.Conv1d(D_INNER, D_INNER, kernel_size=D_CONV, groups=D_INNER, padding=D_CONV - 1)
        self.x_proj = nn.Linear(D_INNER, DT_RANK + 2 * D_STATE, bias=False)
        self.dt_proj = nn.Linear(DT_RANK, D_INNER, bias=True)
        with torch.no_grad():
            dt = torch.exp(torch.rand(D_INNER) * (math.log(0.5) - math.log(0.05)) + math.log(0.05))
            self.dt_proj.bias.copy_(dt + torch.log(-torch.expm1(-dt)))
        A = torch.arange(1, D_STATE + 1, dtype=torch.float32).repeat(D_INNER, 1)
        self.A_log = nn.Parameter(torch.log(A))
        self.D = nn.Parameter(torch.ones(D_INNER) + 0.1 * torch.randn(D_INNER))
        self.out_proj = nn.Linear(D_INNER, DM, bias=False)

    def rmsnorm(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5) * self.norm_weight

    def selective_scan(self, u, delta, A, Bm, Cm, D):
        b, l, d_in = u.shape
        n = A.shape[1]
        deltaA = torch.exp(torch.einsum("bld,dn->bldn", delta, A))
        deltaB_u = torch.einsum("bld,bln,bld->bldn", delta, Bm, u)
        s = torch.zeros((b, d_in, n), device=u.device, dtype=u.dtype)
        ys = []
        for i in range(l):
            s = deltaA[:, i] * s + deltaB_u[:, i]
            ys.append(torch.einsum("bdn,bn->bd", s, Cm[:, i, :]))
        y = torch.stack(ys, dim=1)
        return y + u * D, s

    def mixer(self, x):
        b, l, _ = x.shape
        xz = self.in_proj(x)
        xs, z = xz.split([D_INNER, D_INNER], dim=-1)
        xs = xs.transpose(1, 2)
        xs = self.conv1d(xs)[:, :, :l]
        xs = xs.transpose(1, 2)
        xs = F.silu(xs)
        x_dbl = self.x_proj(xs)
        delta, Bm, Cm = x_dbl.split([DT_RANK, D_STATE, D_STATE], dim=-1)
        delta = F.softplus(self.dt_proj(delta))
        A = -torch.exp(self.A_log.float())
        y, s = self.selective_scan(xs, delta, A, Bm, Cm, self.D.float())
        y = y * F.silu(z)
        return self.out_proj(y), s

    def forward(self, x):
        h, s = self.mixer(self.rmsnorm(x))
        return x + h, s


def get_inputs():
    return [torch.randn(B, L, DM)]


def get_init_inputs():
    return []
