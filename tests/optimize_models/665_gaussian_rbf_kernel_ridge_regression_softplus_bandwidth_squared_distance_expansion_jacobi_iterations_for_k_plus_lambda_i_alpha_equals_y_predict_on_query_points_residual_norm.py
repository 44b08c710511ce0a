"""Kernel ridge regression written by hand: training points X (B, N, D) with targets Y (B, N, T),
query points Z (B, M, D). Gaussian kernel K = exp(-||x - x'||^2 / (2 h^2)) with the squared distances
from the expansion |x|^2 + |x'|^2 - 2 x x^T (bmm, clamp_min 0) and a softplus-positive bandwidth h.
Solve (K + lambda I) alpha = Y by 8 unrolled damped Jacobi-style iterations (diagonal via
torch.diagonal, off-diagonal part K - diag_embed, step 1 / Gershgorin row sum so that it converges),
lambda = softplus(raw) + 1. Predict f(Z) = K(Z, X) alpha
with a second kernel on an ARD (per-dimension) length-scale. Outputs: predictions (B, M, T),
residual norm of the linear system (B,), alpha (B, N, T)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, N, M, D, T = 3, 53, 31, 5, 2


class Model(nn.Module):
    def __init__(self, dim, iters, omega):
        super().__init__()
        self.raw_h = nn.Parameter(torch.tensor(0.8))
        self.raw_ard = nn.Parameter(torch.linspace(-0.3, 0.6, dim))
        self.raw_lam = nn.Parameter(torch.tensor(0.2))
        self.iters = iters
        self.omega = omega

    @staticmethod
    def sqdist(a, b):
        aa = (a * a).sum(-1, keepdim=True)
        bb = (b * b).sum(-1, keepdim=True).transpose(1, 2)
        return (aa + bb - 2 * torch.bmm(a, b.transpose(1, 2))).clamp_min(0.0)

    def forward(self, X, Y, Z):
        h = F.softplus(self.raw_h) + 0.5
        ls = F.softplus(self.raw_ard) + 0.5
        lam = F.softplus(self.raw_lam) + 1.0
        Xs = X / ls
        K = torch.exp(-self.sqdist(Xs, Xs) / (2 * h * h))
        A = K + lam * torch.eye(K.shape[-1], dtype=K.dtype)
        diag = torch.diagonal(A, dim1=-2, dim2=-1)  # (B, N)
        R = A - torch.diag_embed(diag)
        # row sums >= diagonal (K > 0): Jacobi preconditioned by the Gershgorin row sum converges
        inv_d = (1.0 / (diag + R.sum(dim=-1))).unsqueeze(-1)
        alpha = Y * inv_d
        for _ in range(self.iters):
            alpha = alpha + self.omega * inv_d * (Y - diag.unsqueeze(-1) * alpha - R @ alpha)
        res = (A @ alpha - Y).pow(2).sum(dim=(1, 2)).sqrt()
        Kq = torch.exp(-self.sqdist(Z / ls, Xs) / (2 * h * h))
        return Kq @ alpha, res, alpha


def get_inputs():
    return [torch.randn(B, N, D), torch.randn(B, N, T), torch.randn(B, M, D)]


def get_init_inputs():
    return [D, 8, 0.9]
