"""SchNet-style interaction blocks on all atom pairs (no graph): atom embeddings from an int64
species input, distances by explicit differences and norm (B, N, N), Gaussian radial basis
expansion exp(-gamma (d - mu_k)^2) over a centre buffer mu (K,) broadcast to (B, N, N, K), smooth
cosine cutoff, filter network (Linear -> shifted softplus -> Linear) giving W (B, N, N, F) times
cutoff times an off-diagonal mask buffer; continuous-filter convolution sum_j x_j * W_ij by broadcast
and reduction over j; two interaction blocks with residuals; atom-wise MLP energy summed per
molecule. Outputs: energy (B,), atomic energies (B, N), final features (B, N, F)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, N, NS, FD, K = 3, 23, 5, 16, 25


def ssp(x):
    return F.softplus(x) - math.log(2.0)


class Interaction(nn.Module):
    def __init__(self, f, k):
        super().__init__()
        self.filt1 = nn.Linear(k, f)
        self.filt2 = nn.Linear(f, f)
        self.in2f = nn.Linear(f, f, bias=False)
        self.f2out = nn.Linear(f, f)
        self.dense = nn.Linear(f, f)

    def forward(self, x, rbf, cmask):
        W = self.filt2(ssp(self.filt1(rbf))) * cmask.unsqueeze(-1)  # (B, N, N, F)
        y = self.in2f(x)
        conv = (W * y.unsqueeze(1)).sum(dim=2)
        return x + self.dense(ssp(self.f2out(conv)))


class Model(nn.Module):
    def __init__(self, n, n_species, f, k, r_cut):
        super().__init__()
        self.emb = nn.Embedding(n_species, f)
        self.register_buffer("mu", torch.linspace(0.0, r_cut, k))
        self.gamma = 0.5 / (r_cut / (k - 1)) ** 2
        self.register_buffer("offdiag", 1.0 - torch.eye(n))
        self.rc = r_cut
        self.blocks = nn.ModuleList([Interaction(f, k), Interaction(f, k)])
        self.out1 = nn.Linear(f, f // 2)
        self.out2 = nn.Linear(f // 2, 1)

    def forward(self, species, pos):
        x = self.emb(species)
        diff = pos[:, :, None, :] - pos[:, None, :, :]
        d = torch.linalg.vector_norm(diff, dim=-1)
        rbf = torch.exp(-self.gamma * (d.unsqueeze(-1) - self.mu) ** 2)
        fc = 0.5 * (torch.cos(d * math.pi / self.rc) + 1.0)
        cmask = torch.where(d < self.rc, fc, torch.zeros_like(fc)) * self.offdiag
        for blk in self.blocks:
            x = blk(x, rbf, cmask)
        e_atom = self.out2(ssp(self.out1(x))).squeeze(-1)
        return e_atom.sum(dim=1), e_atom, x


def get_inputs():
    return [torch.randint(0, NS, (B, N), dtype=torch.int64), torch.randn(B, N, 3) * 1.5]


def get_init_inputs():
    return [N, NS, FD, K, 4.0]
