"""Unrolled sparse coding of signals y (B, N) against a dictionary D (N, K) with unit-norm columns
(F.normalize over dim 0). The Lipschitz constant L of D^T D comes from 6 unrolled power-iteration
steps on a fixed start vector buffer (matvec, vector_norm, divide; L = Rayleigh quotient * 1.01).
FISTA, 12 iterations: z = S(v - (v D^T - y) D / L, lam / L) with soft-threshold
S(u, t) = sign(u) * relu(|u| - t) and lam = softplus(raw_lam); Nesterov momentum coefficients
(t_k - 1) / t_{k+1} are Python floats; lasso objective 0.5 ||y - z D^T||^2 + lam ||z||_1 kept per
iteration. ADMM for the same lasso, 5 iterations: the x-update multiplies by (D^T D + rho I)^-1,
obtained by 8 unrolled Newton-Schulz steps X <- X (2I - A X) from X0 = I / (L + rho) (identities
by torch.eye in forward), u-update by soft-threshold, scaled dual update w <- w + x - u.
Outputs: FISTA code (B, K), reconstruction (B, N), objective history (B, 12), ADMM code (B, K)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, N, K = 9, 31, 53


def soft(u, t):
    return torch.sign(u) * torch.relu(u.abs() - t)


class Model(nn.Module):
    def __init__(self, n, k, fista_iters, admm_iters, rho):
        super().__init__()
        self.D = nn.Parameter(torch.randn(n, k))
        self.raw_lam = nn.Parameter(torch.tensor(-1.5))
        self.register_buffer("v0", torch.linspace(-1.0, 1.0, k) + 0.3)
        self.fista_iters = fista_iters
        self.admm_iters = admm_iters
        self.rho = rho

    def forward(self, y):
        D = F.normalize(self.D, dim=0)
        G = D.T @ D
        v = self.v0 / torch.linalg.vector_norm(self.v0)
        for _ in range(6):
            w = G @ v
            v = w / torch.linalg.vector_norm(w)
        L = (v @ (G @ v)) * 1.01
        lam = F.softplus(self.raw_lam)
        z = torch.zeros(y.shape[0], D.shape[1], dtype=y.dtype)
        v = z
        t = 1.0
        objs = []
        for _ in range(self.fista_iters):
            grad = (v @ D.T - y) @ D
            z_new = soft(v - grad / L, lam / L)
            t_new = (1.0 + (1.0 + 4.0 * t * t) ** 0.5) / 2.0
            v = z_new + ((t - 1.0) / t_new) * (z_new - z)
            z, t = z_new, t_new
            r = y - z @ D.T
            objs.append(0.5 * r.pow(2).sum(dim=1) + lam * z.abs().sum(dim=1))
        # ADMM: minimise 0.5||y - x D^T||^2 + lam ||u||_1  s.t. x = u
        A = G + self.rho * torch.eye(G.shape[0], dtype=G.dtype)
        X = torch.eye(G.shape[0], dtype=G.dtype) / (L + self.rho)
        I2 = 2.0 * torch.eye(G.shape[0], dtype=G.dtype)
        for _ in range(8):
            X = X @ (I2 - A @ X)
        Dty = y @ D
        u = torch.zeros_like(z)
        w = torch.zeros_like(z)
        for _ in range(self.admm_iters):
            x = (Dty + self.rho * (u - w)) @ X
            u = soft(x + w, lam / self.rho)
            w = w + x - u
        return z, z @ D.T, torch.stack(objs, dim=1), u


def get_inputs():
    return [torch.randn(B, N)]


def get_init_inputs():
    return [N, K, 12, 5, 1.0]
