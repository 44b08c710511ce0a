"""L1 / L2 / Frobenius norms and x / norm(x) with all-zero rows guarded by clamp_min(eps).
x (7, 19) randn with row 3 all zeros; m (4, 5, 9) randn with m[2] all zeros; c (11, 8) randn with
column 5 all zeros; v (6, 1) randn with v[4] = 0 (size-1 normalized dim).
l1 = linalg.vector_norm(x, ord=1, dim=-1), l1b = x.abs().sum(-1) (7,),
l2 = torch.norm(x, p=2, dim=1, keepdim=True) (7, 1),
fro = torch.norm(m, p='fro', dim=(-2, -1)) (4,), fa = linalg.norm(m) (0-dim, flattened 2-norm);
xn = x / l2.clamp_min(1e-12) (zero row stays 0, not NaN), x1n = x / l1[:, None].clamp_min(1e-6),
xr = x * rsqrt((x * x).sum(-1, keepdim=True).clamp_min(1e-24)) (0 * 1e12 = 0 on the zero row),
mn = m / fro[:, None, None].clamp_min(1e-8) (zero matrix stays 0),
cn = c / c.norm(dim=0, keepdim=True).clamp_min(1e-12) (column normalization over dim 0, zero column),
fv = F.normalize(v, dim=1) (each entry over its own size-1 row: sign(v), 0 for the zero entry),
fx = F.normalize(x, p=1, dim=-1, eps=1e-6).
Outputs: l1, l1b, l2, fro, fa, xn, x1n, xr, mn, cn, fv, fx."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, m, c, v):
        l1 = torch.linalg.vector_norm(x, ord=1, dim=-1)
        l1b = x.abs().sum(-1)
        l2 = torch.norm(x, p=2, dim=1, keepdim=True)
        fro = torch.norm(m, p="fro", dim=(-2, -1))
        fa = torch.linalg.norm(m)
        xn = x / l2.clamp_min(1e-12)
        x1n = x / l1[:, None].clamp_min(1e-6)
        xr = x * torch.rsqrt((x * x).sum(-1, keepdim=True).clamp_min(1e-24))
        mn = m / fro[:, None, None].clamp_min(1e-8)
        cn = c / c.norm(dim=0, keepdim=True).clamp_min(1e-12)
        fv = F.normalize(v, dim=1)
        fx = F.normalize(x, p=1, dim=-1, eps=1e-6)
        return l1, l1b, l2, fro, fa, xn, x1n, xr, mn, cn, fv, fx


def get_inputs():
    x = torch.randn(7, 19)
    x[3] = 0.0
    m = torch.randn(4, 5, 9)
    m[2] = 0.0
    c = torch.randn(11, 8)
    c[:, 5] = 0.0
    v = torch.randn(6, 1)
    v[4] = 0.0
    return [x, m, c, v]


def get_init_inputs():
    return []
