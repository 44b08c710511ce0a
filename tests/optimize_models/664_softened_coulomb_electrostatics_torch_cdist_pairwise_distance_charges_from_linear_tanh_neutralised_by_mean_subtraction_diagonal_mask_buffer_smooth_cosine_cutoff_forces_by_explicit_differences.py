"""Softened Coulomb electrostatics with learned charges: per-atom features (B, N, F) -> charges
q = tanh(Linear) * softplus(scale), neutralised per sample by subtracting the mean (keepdim).
Distances with torch.cdist (B, N, N); softened potential q_i q_j / sqrt(d^2 + a^2) times a smooth
cosine cutoff fc(d) = 0.5 (cos(pi d / rc) + 1) for d < rc (torch.where), diagonal removed by a float
mask buffer (1 - eye). Forces from explicit displacements on a permuted (B, 3, N) coordinate layout:
-dE/dr of the softened kernel times the cutoff (product rule by hand), summed over j.
Outputs: total energy per sample (B,), forces (B, N, 3), charges (B, N)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, N, FE = 4, 41, 9


class Model(nn.Module):
    def __init__(self, n, feat, soft, r_cut):
        super().__init__()
        self.charge = nn.Linear(feat, 1)
        self.raw_scale = nn.Parameter(torch.tensor(0.3))
        self.register_buffer("offdiag", 1.0 - torch.eye(n))
        self.a2 = soft * soft
        self.rc = r_cut

    def forward(self, pos, feat):
        q = torch.tanh(self.charge(feat)).squeeze(-1) * F.softplus(self.raw_scale)
        q = q - q.mean(dim=1, keepdim=True)
        d = torch.cdist(pos, pos)
        inside = d < self.rc
        fc = torch.where(inside, 0.5 * (torch.cos(math.pi * d / self.rc) + 1.0), torch.zeros_like(d))
        dfc = torch.where(inside, -0.5 * math.pi / self.rc * torch.sin(math.pi * d / self.rc), torch.zeros_like(d))
        qq = q.unsqueeze(2) * q.unsqueeze(1) * self.offdiag
        inv = torch.rsqrt(d * d + self.a2)
        e_pair = qq * inv * fc
        energy = 0.5 * e_pair.sum(dim=(1, 2))
        # dE/dd = qq * (-d * inv^3 * fc + inv * dfc); force on i = -sum_j dE/dd * (r_i - r_j) / d
        dEdd_over_d = qq * (-(inv ** 3) * fc + inv * dfc / d.clamp_min(1e-6))
        pt = pos.permute(0, 2, 1)  # (B, 3, N) non-contiguous
        rij = pt.unsqueeze(3) - pt.unsqueeze(2)  # (B, 3, N, N)
        forces = -(dEdd_over_d.unsqueeze(1) * rij).sum(dim=3).permute(0, 2, 1)
        return energy, forces, q


def get_inputs():
    return [torch.randn(B, N, 3) * 1.5, torch.randn(B, N, FE)]


def get_init_inputs():
    return [N, FE, 0.4, 3.5]
