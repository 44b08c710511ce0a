"""Physics-informed loss for viscous Burgers u_t + u u_x = nu u_xx on a space-time grid (T, X):
an MLP (tanh) on cat(x, t, sin(k x), cos(k x)) feature columns evaluated on a (B, T, X) grid built by
broadcasting a coordinate buffer plus a per-sample input perturbation; u_x by central differences
with torch.roll along X (periodic), u_xx by the three-point stencil with roll, u_t by forward
differences along T via slicing u[:, 1:] - u[:, :-1]; the PDE residual on the trimmed grid; an
upwind variant of u u_x selected by torch.where(u > 0, backward, forward); initial-condition loss
against an input profile, periodicity loss between first and last columns by step slicing.
Outputs: residual field (B, T-1, X), 0-dim total loss, per-sample losses (B, 3)."""

import math

import torch
import torch.nn as nn

B, T, X, HID = 2, 17, 63, 32


class Model(nn.Module):
    def __init__(self, t_pts, x_pts, hidden, nu, t_max):
        super().__init__()
        xs = torch.linspace(0, 2 * math.pi, x_pts + 1)[:-1]
        ts = torch.linspace(0, t_max, t_pts)
        self.register_buffer("xg", xs.view(1, 1, x_pts, 1).expand(1, t_pts, x_pts, 1).clone())
        self.register_buffer("tg", ts.view(1, t_pts, 1, 1).expand(1, t_pts, x_pts, 1).clone())
        self.register_buffer("kx", torch.tensor([1.0, 2.0, 3.0]))
        self.net = nn.Sequential(
            nn.Linear(8, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(), nn.Linear(hidden, 1)
        )
        self.nu = nu
        self.dx = 2 * math.pi / x_pts
        self.dt = t_max / (t_pts - 1)

    def forward(self, noise, u0):
        b = noise.shape[0]
        xg = self.xg.expand(b, -1, -1, -1)
        tg = self.tg.expand(b, -1, -1, -1) + 0.01 * noise.unsqueeze(-1)
        feats = torch.cat([xg, tg, torch.sin(self.kx * xg), torch.cos(self.kx * xg)], dim=-1)
        u = self.net(feats).squeeze(-1)  # (B, T, X)
        up = torch.roll(u, -1, dims=2)
        um = torch.roll(u, 1, dims=2)
        ux = (up - um) / (2 * self.dx)
        uxx = (up - 2 * u + um) / (self.dx * self.dx)
        ut = (u[:, 1:] - u[:, :-1]) / self.dt
        adv_c = u * ux
        adv_up = u * torch.where(u > 0, (u - um) / self.dx, (up - u) / self.dx)
        adv = 0.5 * (adv_c + adv_up)
        res = ut + adv[:, :-1] - self.nu * uxx[:, :-1]
        l_pde = res.pow(2).mean(dim=(1, 2))
        l_ic = (u[:, 0] - u0).pow(2).mean(dim=1)
        l_per = (u[:, ::2, 0] - u[:, ::2, -1]).abs().mean(dim=1)
        per = torch.stack([l_pde, l_ic, l_per], dim=1)
        total = (per * torch.tensor([1.0, 10.0, 0.5])).sum() / b
        return res, total, per


def get_inputs():
    return [torch.randn(B, T, X), torch.randn(B, X)]


def get_init_inputs():
    return [T, X, HID, 0.05, 1.0]
