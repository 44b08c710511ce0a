"""Finite differences on a 2-D field batch (N, H, W): central differences by slicing
(x[:, 2:] - x[:, :-2]) / (2h) on the interior, one-sided forward / backward differences at the
edges joined with cat, torch.diff along W with prepend / append, torch.diff n=2, periodic
second differences with torch.roll in two dims, the same stencil on a transposed
(non-contiguous) view; gradient magnitude. Outputs a tuple: gradient magnitude (N, H, W),
diff-based Laplacian (N, H-2, W-2), periodic Laplacian, 0-dim mean |d2/dx2| on the transpose."""

import torch
import torch.nn as nn

N, H, W = 3, 37, 41


class Model(nn.Module):
    def __init__(self, hx, hy):
        super().__init__()
        self.hx = hx
        self.hy = hy

    def forward(self, u):
        # d/dy along H: central inside, one-sided at the ends
        cy = (u[:, 2:, :] - u[:, :-2, :]) / (2 * self.hy)
        fy = (u[:, 1:2, :] - u[:, 0:1, :]) / self.hy
        by = (u[:, -1:, :] - u[:, -2:-1, :]) / self.hy
        dy = torch.cat([fy, cy, by], dim=1)
        # d/dx along W with torch.diff prepend / append (half-sum of forward and backward)
        fwd = torch.diff(u, dim=2, append=u[:, :, -1:])
        bwd = torch.diff(u, dim=2, prepend=u[:, :, :1])
        dx = 0.5 * (fwd + bwd) / self.hx
        grad_mag = torch.sqrt(dx * dx + dy * dy + 1e-12)
        d2x = torch.diff(u, n=2, dim=2)[:, 1:-1, :] / (self.hx ** 2)
        d2y = torch.diff(u, n=2, dim=1)[:, :, 1:-1] / (self.hy ** 2)
        lap = d2x + d2y
        lap_per = ((torch.roll(u, 1, 2) + torch.roll(u, -1, 2) - 2 * u) / self.hx ** 2
                   + (torch.roll(u, shifts=(1,), dims=(1,)) + torch.roll(u, -1, 1) - 2 * u) / self.hy ** 2)
        ut = u.transpose(1, 2)  # (N, W, H) non-contiguous
        d2t = ut[:, :, 2:] - 2 * ut[:, :, 1:-1] + ut[:, :, :-2]
        return grad_mag, lap, lap_per, d2t.abs().mean()


def get_inputs():
    return [torch.randn(N, H, W)]


def get_init_inputs():
    return [0.1, 0.125]
