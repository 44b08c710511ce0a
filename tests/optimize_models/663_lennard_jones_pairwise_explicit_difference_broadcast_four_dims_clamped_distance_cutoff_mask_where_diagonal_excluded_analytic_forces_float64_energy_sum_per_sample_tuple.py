"""Lennard-Jones particle system: positions (B, N, 3). Pairwise displacement r_ij = x_i - x_j via
broadcasting (B, N, 1, 3) - (B, 1, N, 3), distance by sqrt of sum of squares (keepdim), clamped below
at r_min to avoid the singularity, cutoff mask (d < r_cut) and off-diagonal mask buffer combined with
torch.where. Per-type epsilon / sigma from softplus parameters mixed with Lorentz-Berthelot rules
(arithmetic sigma, geometric epsilon) via 3-D broadcasting of a one-hot species buffer. Energy is
shifted so that it is zero at the cutoff; analytic forces F_i = sum_j 24 eps (2 s^12/r^13 - s^6/r^7) r_ij/r.
Energy per sample summed in float64. Outputs: energy (B,), forces (B, N, 3)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, N, NT = 5, 37, 3


class Model(nn.Module):
    def __init__(self, n, n_types, r_min, r_cut):
        super().__init__()
        types = torch.arange(n) % n_types
        self.register_buffer("onehot", F.one_hot(types, n_types).float())
        self.register_buffer("offdiag", ~torch.eye(n, dtype=torch.bool))
        self.raw_eps = nn.Parameter(torch.linspace(-0.5, 0.5, n_types))
        self.raw_sig = nn.Parameter(torch.linspace(0.0, 0.3, n_types))
        self.r_min = r_min
        self.r_cut = r_cut

    def forward(self, x):
        eps_t = F.softplus(self.raw_eps)
        sig_t = F.softplus(self.raw_sig)
        eps_i = self.onehot @ eps_t  # (N,)
        sig_i = self.onehot @ sig_t
        eps = torch.sqrt(eps_i[:, None] * eps_i[None, :])
        sig = 0.5 * (sig_i[:, None] + sig_i[None, :])
        rij = x.unsqueeze(2) - x.unsqueeze(1)  # (B, N, N, 3)
        d = torch.sqrt((rij * rij).sum(dim=-1, keepdim=True) + 1e-12).clamp_min(self.r_min)
        d = d.squeeze(-1)
        mask = (d < self.r_cut) & self.offdiag
        sr6 = (sig / d) ** 6
        sc6 = (sig / self.r_cut) ** 6
        e_pair = 4 * eps * (sr6 * sr6 - sr6) - 4 * eps * (sc6 * sc6 - sc6)
        e_pair = torch.where(mask, e_pair, torch.zeros_like(e_pair))
        energy = 0.5 * e_pair.double().sum(dim=(1, 2))
        fmag = 24 * eps * (2 * sr6 * sr6 - sr6) / (d * d)
        fmag = torch.where(mask, fmag, torch.zeros_like(fmag))
        forces = (fmag.unsqueeze(-1) * rij).sum(dim=2)
        return energy.float(), forces


def get_inputs():
    return [torch.randn(B, N, 3) * 1.6]


def get_init_inputs():
    return [N, NT, 0.6, 2.5]
