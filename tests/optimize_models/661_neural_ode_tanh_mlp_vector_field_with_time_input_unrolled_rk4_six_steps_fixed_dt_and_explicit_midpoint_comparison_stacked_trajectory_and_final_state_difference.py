"""Neural ODE: dz/dt = f(t, z) with f an MLP on cat(z, t) (tanh, softplus-scaled output gain) plus a
linear damping -softplus(k) * z. Integrated from t0 = 0 by six unrolled classic RK4 steps with fixed
dt (four stages, the time input broadcast as a (B, 1) column via full_like), and separately by three
explicit midpoint steps of 2 dt, and by six explicit Euler steps of dt. Outputs: RK4 trajectory
stacked (7, B, D), final midpoint state (B, D), and per-sample squared differences of RK4 vs midpoint
and vs Euler (B, 2)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, D, HID = 29, 11, 47


class Model(nn.Module):
    def __init__(self, dim, hidden, steps, dt):
        super().__init__()
        self.fc1 = nn.Linear(dim + 1, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.fc3 = nn.Linear(hidden, dim)
        self.raw_gain = nn.Parameter(torch.tensor(-0.5))
        self.raw_damp = nn.Parameter(torch.full((dim,), -1.0))
        self.steps = steps
        self.dt = dt

    def f(self, t, z):
        tt = torch.full_like(z[:, :1], t)
        h = torch.tanh(self.fc1(torch.cat([z, tt], dim=1)))
        h = torch.tanh(self.fc2(h))
        return F.softplus(self.raw_gain) * self.fc3(h) - F.softplus(self.raw_damp) * z

    def forward(self, z0):
        dt = self.dt
        z = z0
        traj = [z]
        t = 0.0
        for _ in range(self.steps):
            k1 = self.f(t, z)
            k2 = self.f(t + dt / 2, z + dt / 2 * k1)
            k3 = self.f(t + dt / 2, z + dt / 2 * k2)
            k4 = self.f(t + dt, z + dt * k3)
            z = z + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
            t = t + dt
            traj.append(z)
        zm = z0
        h = 2 * dt
        t = 0.0
        for _ in range(self.steps // 2):
            zm = zm + h * self.f(t + h / 2, zm + h / 2 * self.f(t, zm))
            t = t + h
        ze = z0
        for i in range(self.steps):
            ze = ze + dt * self.f(i * dt, ze)
        diff = torch.stack([(z - zm).pow(2).sum(dim=1), (z - ze).pow(2).sum(dim=1)], dim=1)
        return torch.stack(traj), zm, diff


def get_inputs():
    return [torch.randn(B, D)]


def get_init_inputs():
    return [D, HID, 6, 0.15]
