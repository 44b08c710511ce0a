"""Heat equation u_t = alpha * lap(u) + f, six explicit Euler steps unrolled in forward:
field A with Neumann boundary (F.pad replicate + 5-point stencil), field B with Dirichlet
boundary (interior mask buffer zeroes the border each step, boundary value buffer added back),
source term broadcast over the batch, clamp to [-5, 5] after each step; energy (mean of u^2
over dims (1, 2, 3)) recorded per step and stacked. Outputs: final A, final B, energies
(6, N) for A."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, H, W = 3, 33, 27


def lap(u):
    p = F.pad(u, (1, 1, 1, 1), mode="replicate")
    return p[:, :, :-2, 1:-1] + p[:, :, 2:, 1:-1] + p[:, :, 1:-1, :-2] + p[:, :, 1:-1, 2:] - 4 * u


class Model(nn.Module):
    def __init__(self, h, w, steps, alpha, dt):
        super().__init__()
        mask = torch.zeros(1, 1, h, w)
        mask[:, :, 1:-1, 1:-1] = 1.0
        self.register_buffer("interior", mask)
        bval = torch.zeros(1, 1, h, w)
        bval[:, :, 0, :] = 1.0
        bval[:, :, -1, :] = -0.5
        self.register_buffer("boundary", bval * (1.0 - mask))
        self.steps = steps
        self.coef = alpha * dt
        self.dt = dt

    def forward(self, u0, src):
        a = u0
        b = u0 * self.interior + self.boundary
        energies = []
        for _ in range(self.steps):
            a = (a + self.coef * lap(a) + self.dt * src).clamp(-5.0, 5.0)
            b = b + self.coef * lap(b) + self.dt * src
            b = b.clamp(-5.0, 5.0) * self.interior + self.boundary
            energies.append(a.pow(2).mean(dim=(1, 2, 3)))
        return a, b, torch.stack(energies)


def get_inputs():
    return [torch.randn(N, 1, H, W), torch.randn(1, 1, H, W) * 0.5]


def get_init_inputs():
    return [H, W, 6, 1.0, 0.2]
