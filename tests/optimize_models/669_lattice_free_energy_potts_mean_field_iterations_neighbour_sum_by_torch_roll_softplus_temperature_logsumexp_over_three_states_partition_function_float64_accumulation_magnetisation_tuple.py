"""Mean-field Ising / Potts free energy on a periodic 2-D lattice (B, H, W) with q = 3 states:
local fields from an input h (B, q, H, W) plus learned per-state bias; couplings J (q, q) symmetrised
(0.5 (J + J^T)); 6 unrolled mean-field iterations m <- softmax(beta (h + J m_nbr)) over the state
dim, where the neighbour sum uses torch.roll in both directions along H and W and the coupling is
applied by einsum over states; beta = 1 / softplus(raw_T). Free energy per site
-1/beta logsumexp(beta * field, dim=1) plus the double-counting correction 0.5 m J m_nbr,
accumulated over the lattice in float64 (.double()) and cast back. Outputs: free energy per sample
(B,), magnetisation per state (B, q) by mean over (H, W), final marginals (B, q, H, W)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, Q, H, W = 3, 3, 29, 31


class Model(nn.Module):
    def __init__(self, q, iters):
        super().__init__()
        self.J = nn.Parameter(torch.randn(q, q) * 0.3)
        self.bias = nn.Parameter(torch.randn(q) * 0.1)
        self.raw_T = nn.Parameter(torch.tensor(0.7))
        self.iters = iters

    @staticmethod
    def nbr(m):
        return (torch.roll(m, 1, dims=2) + torch.roll(m, -1, dims=2)
                + torch.roll(m, 1, dims=3) + torch.roll(m, -1, dims=3))

    def forward(self, h):
        J = 0.5 * (self.J + self.J.T)
        beta = 1.0 / (F.softplus(self.raw_T) + 0.05)
        ext = h + self.bias.view(1, -1, 1, 1)
        m = torch.softmax(beta * ext, dim=1)
        for _ in range(self.iters):
            field = ext + torch.einsum("pq,bqhw->bphw", J, self.nbr(m))
            m = torch.softmax(beta * field, dim=1)
        field = ext + torch.einsum("pq,bqhw->bphw", J, self.nbr(m))
        f_site = -torch.logsumexp(beta * field, dim=1) / beta
        corr = 0.5 * (m * torch.einsum("pq,bqhw->bphw", J, self.nbr(m))).sum(dim=1)
        free = (f_site + corr).double().sum(dim=(1, 2)).float()
        mag = m.mean(dim=(2, 3))
        return free, mag, m


def get_inputs():
    return [torch.randn(B, Q, H, W)]


def get_init_inputs():
    return [Q, 6]
