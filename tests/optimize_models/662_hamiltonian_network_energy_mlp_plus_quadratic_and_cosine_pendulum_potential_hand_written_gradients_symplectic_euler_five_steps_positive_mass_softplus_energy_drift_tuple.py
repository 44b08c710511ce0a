"""Hamiltonian dynamics with a learned correction: H(q, p) = sum p^2 / (2 m) + sum k/2 q^2
+ sum g (1 - cos(q_i - q_{i+1})) (coupled pendulum chain) + a small energy MLP on cat(q, p).
Masses m and stiffness k are softplus-positive parameters. Five unrolled symplectic Euler steps with
hand-written gradients of the analytic potential (k q + g sin(dq) scattered to both neighbours by
slicing and F.pad), p updated first, then q with p / m. Energy is evaluated before and after
(analytic part accumulated in float64 via .double(), cast back to float32). Outputs: final q, final
p (B, N), per-sample energy at the end (B,), energy drift (B,), learned-MLP energy (B, 1)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, NQ, HID = 23, 13, 41


class Model(nn.Module):
    def __init__(self, n, hidden, steps, dt, g):
        super().__init__()
        self.raw_m = nn.Parameter(torch.randn(n) * 0.3)
        self.raw_k = nn.Parameter(torch.randn(n) * 0.3 - 0.5)
        self.mlp = nn.Sequential(nn.Linear(2 * n, hidden), nn.Softplus(), nn.Linear(hidden, 1))
        self.steps = steps
        self.dt = dt
        self.g = g

    def energy(self, q, p, m, k):
        dq = q[:, :-1] - q[:, 1:]
        kin = (p * p / (2 * m)).double().sum(dim=1)
        pot = (0.5 * k * q * q).double().sum(dim=1) + (self.g * (1 - torch.cos(dq))).double().sum(dim=1)
        return (kin + pot).float()

    def forward(self, q, p):
        m = F.softplus(self.raw_m) + 0.1
        k = F.softplus(self.raw_k)
        e0 = self.energy(q, p, m, k)
        for _ in range(self.steps):
            s = self.g * torch.sin(q[:, :-1] - q[:, 1:])
            dV = k * q + F.pad(s, (0, 1)) - F.pad(s, (1, 0))
            p = p - self.dt * dV
            q = q + self.dt * p / m
        e1 = self.energy(q, p, m, k)
        e_nn = self.mlp(torch.cat([q, p], dim=1))
        return q, p, e1 + e_nn.squeeze(1), e1 - e0, e_nn


def get_inputs():
    return [torch.randn(B, NQ), torch.randn(B, NQ)]


def get_init_inputs():
    return [NQ, HID, 5, 0.05, 0.7]
