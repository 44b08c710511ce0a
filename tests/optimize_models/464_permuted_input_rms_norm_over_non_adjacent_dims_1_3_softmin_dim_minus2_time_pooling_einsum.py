"""RMS norm over two non-adjacent dims and softmin pooling over dim -2 on a permuted input:
x = randn(3, 17, 5, 29).permute(0, 2, 1, 3) (3, 5, 17, 29) (B, C, T, D), non-contiguous,
made in get_inputs. r = rsqrt(x.pow(2).mean(dim=(1, 3), keepdim=True) + 1e-6) (statistics
over channels and features, per (b, t)); y = x * r * w with w (5, 1, 29);
dist = (y @ P) (P (29, 7)) squared distance proxy: q = (y @ P - c).pow(2) with c (7,);
a = F.softmin(q, dim=-2) (over the 17 time steps, a middle-position dim of (3, 5, 17, 7));
pooled = einsum('bctk,bctd->bckd', a, y) (3, 5, 7, 29); pooled normalised again by its
L2 norm over dim 1 (5 channels, keepdim=False broadcast back with unsqueeze, clamped).
Outputs: pooled (3, 5, 7, 29), a (3, 5, 17, 7), r squeezed to (3, 17)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, C, T, D, K = 3, 5, 17, 29, 7


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(1.0 + 0.2 * torch.randn(C, 1, D))
        self.P = nn.Parameter(torch.randn(D, K) / D ** 0.5)
        self.c = nn.Parameter(0.3 * torch.randn(K))

    def forward(self, x):
        r = torch.rsqrt(x.pow(2).mean(dim=(1, 3), keepdim=True) + 1e-6)
        y = x * r * self.w
        q = (y @ self.P - self.c).pow(2)
        a = F.softmin(q, dim=-2)
        pooled = torch.einsum("bctk,bctd->bckd", a, y)
        nrm = pooled.pow(2).sum(dim=1).sqrt().clamp_min(1e-6)
        pooled = pooled / nrm.unsqueeze(1)
        return pooled, a, r.squeeze(3).squeeze(1)


def get_inputs():
    return [torch.randn(B, T, C, D).permute(0, 2, 1, 3)]


def get_init_inputs():
    return []
