"""Minimal discrete linear state-space model computed two ways.
u = randn(2, 4, 7) (batch, channels, time); state size 6.
A (6, 6) = 0.6 * I + 0.08 * randn, B (6, 4), C (4, 6), D (4,) parameters.
Recurrence, unrolled over the 7 steps: s = s @ A^T + u[:, :, t] @ B^T (s starts at zeros);
y_t = s @ C^T + D * u[:, :, t]; y_rec = stack(y_t, -1) (2, 4, 7).
Convolution form: K_k = C @ A^k @ B for k = 0..6 (matrix powers by repeated matmul in
forward), kernel = stack(K_k, -1).flip(-1) (4, 4, 7); y_conv = conv1d(F.pad(u, (6, 0)), kernel)
+ D[:, None] * u.
Outputs: y_rec (2, 4, 7), y_conv (2, 4, 7) (equal to y_rec up to rounding) and the final state
(2, 6)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH, CH, L, N = 2, 4, 7, 6


class Model(nn.Module):
    def __init__(self, channels, state):
        super().__init__()
        self.A = nn.Parameter(0.6 * torch.eye(state) + 0.08 * torch.randn(state, state))
        self.B = nn.Parameter(0.5 * torch.randn(state, channels))
        self.C = nn.Parameter(0.5 * torch.randn(channels, state))
        self.D = nn.Parameter(torch.randn(channels))

    def forward(self, u):
        b, c, l = u.shape
        s = u.new_zeros(b, self.A.shape[0])
        ys = []
        for t in range(l):
            ut = u[:, :, t]
            s = s @ self.A.t() + ut @ self.B.t()
            ys.append(s @ self.C.t() + self.D * ut)
        y_rec = torch.stack(ys, dim=-1)

        ks = []
        ak = torch.eye(self.A.shape[0], dtype=u.dtype, device=u.device)
        for _ in range(l):
            ks.append(self.C @ ak @ self.B)
            ak = ak @ self.A
        kernel = torch.stack(ks, dim=-1).flip(-1)
        y_conv = F.conv1d(F.pad(u, (l - 1, 0)), kernel) + self.D[:, None] * u
        return y_rec, y_conv, s


def get_inputs():
    return [torch.randn(BATCH, CH, L)]


def get_init_inputs():
    return [CH, N]
