"""local_response_norm, F.normalize with eps, weight standardisation inside forward.
x (2, 9, 13, 15): lrn1 = F.local_response_norm(x, size=5, alpha=0.1, beta=0.75, k=2.0);
nn.LocalResponseNorm(4, alpha=0.05, beta=0.5, k=1.0) (even window) on x * 2 -> lrn2; on a 3-D
input z (3, 8, 29): F.local_response_norm(z, size=3, alpha=0.2, beta=0.6, k=1.5) -> lrn3.
r (11, 17) with rows 2 and 5 scaled by 1e-2 (L1 norm below eps) and row 8 all zeros:
n1 = F.normalize(r, p=1, dim=1, eps=0.5) (small rows divided by eps, not their norm),
n2 = F.normalize(r, p=2, dim=-1, eps=1e-3) (zero row stays zero), n3 = F.normalize(r, p=1,
dim=0, eps=1e-6) (column-wise).
Weight standardisation: w (16, 9, 3, 3) parameter -> (w - mean over (1, 2, 3)) /
sqrt(var(correction=0) over (1, 2, 3) + 1e-5) computed in forward -> F.conv2d(x, w_hat, b,
padding=1) -> F.group_norm(4 groups, affine) -> relu -> ws (2, 16, 13, 15).
Outputs: lrn1, lrn2, lrn3, n1, n2, n3, ws."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, c_in, c_out, groups):
        super().__init__()
        self.lrn = nn.LocalResponseNorm(4, alpha=0.05, beta=0.5, k=1.0)
        self.weight = nn.Parameter(torch.randn(c_out, c_in, 3, 3) * 0.7 + 0.1)
        self.bias = nn.Parameter(0.1 * torch.randn(c_out))
        self.gn_w = nn.Parameter(1.0 + 0.2 * torch.randn(c_out))
        self.gn_b = nn.Parameter(0.1 * torch.randn(c_out))
        self.groups = groups

    def forward(self, x, z, r):
        lrn1 = F.local_response_norm(x, size=5, alpha=0.1, beta=0.75, k=2.0)
        lrn2 = self.lrn(x * 2.0)
        lrn3 = F.local_response_norm(z, size=3, alpha=0.2, beta=0.6, k=1.5)
        n1 = F.normalize(r, p=1, dim=1, eps=0.5)
        n2 = F.normalize(r, p=2, dim=-1, eps=1e-3)
        n3 = F.normalize(r, p=1, dim=0, eps=1e-6)
        w = self.weight
        m = w.mean(dim=(1, 2, 3), keepdim=True)
        v = w.var(dim=(1, 2, 3), keepdim=True, correction=0)
        w_hat = (w - m) / torch.sqrt(v + 1e-5)
        ws = F.conv2d(x, w_hat, self.bias, padding=1)
        ws = torch.relu(F.group_norm(ws, self.groups, self.gn_w, self.gn_b))
        return lrn1, lrn2, lrn3, n1, n2, n3, ws


def get_inputs():
    r = torch.randn(11, 17)
    r[2] = r[2] * 1e-2
    r[5] = r[5] * 1e-2
    r[8] = 0.0
    return [torch.randn(2, 9, 13, 15), torch.randn(3, 8, 29), r]


def get_init_inputs():
    return [9, 16, 4]
