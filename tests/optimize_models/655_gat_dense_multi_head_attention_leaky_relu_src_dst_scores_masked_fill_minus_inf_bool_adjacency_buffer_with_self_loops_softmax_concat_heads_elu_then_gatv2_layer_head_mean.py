"""Dense graph attention on a batch of 2 graphs of 37 nodes sharing a bool adjacency buffer (37, 37),
directed random edges plus self loops (every row has at least one edge). GAT layer: Wh = x @ W
viewed (2, 37, 4, 9), scores e_ij = leaky_relu(a_src . Wh_i + a_dst . Wh_j, 0.2) by broadcasting
(2, 37, 1, 4) + (2, 1, 37, 4), permuted to (2, 4, 37, 37), masked_fill(~adj, -inf), softmax over
neighbours, aggregation att @ Wh (heads transposed), heads concatenated (36) + bias, elu. GATv2
layer: e_ij = a . leaky_relu(Wl h_i + Wr h_j) over a (2, 37, 37, 3, 7) broadcast, masked softmax,
heads averaged (mean over the head dim) + bias. Outputs: log_softmax node logits (2, 37, 7) and the
first-layer attention (2, 4, 37, 37) (zeros on non-edges)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, N, DIN = 2, 37, 23


def make_adj(n, p):
    g = torch.Generator().manual_seed(77)
    a = torch.rand(n, n, generator=g) < p
    return a | torch.eye(n, dtype=torch.bool)


class Model(nn.Module):
    def __init__(self, n, din, heads1, f1, heads2, f2):
        super().__init__()
        self.register_buffer("adj", make_adj(n, 0.12))
        self.h1, self.f1, self.h2, self.f2 = heads1, f1, heads2, f2
        self.w1 = nn.Linear(din, heads1 * f1, bias=False)
        self.a_src = nn.Parameter(torch.randn(heads1, f1) * 0.3)
        self.a_dst = nn.Parameter(torch.randn(heads1, f1) * 0.3)
        self.b1 = nn.Parameter(torch.zeros(heads1 * f1))
        self.wl = nn.Linear(heads1 * f1, heads2 * f2)
        self.wr = nn.Linear(heads1 * f1, heads2 * f2)
        self.a2 = nn.Parameter(torch.randn(heads2, f2) * 0.3)
        self.b2 = nn.Parameter(torch.randn(f2) * 0.1)

    def forward(self, x):
        b, n, _ = x.shape
        wh = self.w1(x).view(b, n, self.h1, self.f1)
        s_src = (wh * self.a_src).sum(-1)  # (B, N, H)
        s_dst = (wh * self.a_dst).sum(-1)
        e = F.leaky_relu(s_src.unsqueeze(2) + s_dst.unsqueeze(1), 0.2).permute(0, 3, 1, 2)
        e = e.masked_fill(~self.adj, float("-inf"))
        att = torch.softmax(e, dim=-1)
        h = att @ wh.transpose(1, 2)  # (B, H, N, F)
        h = F.elu(h.transpose(1, 2).reshape(b, n, self.h1 * self.f1) + self.b1)
        xl = self.wl(h).view(b, n, 1, self.h2, self.f2)
        xr = self.wr(h).view(b, 1, n, self.h2, self.f2)
        e2 = (F.leaky_relu(xl + xr, 0.2) * self.a2).sum(-1)  # (B, N, N, H2)
        e2 = e2.masked_fill(~self.adj.unsqueeze(-1), float("-inf"))
        att2 = torch.softmax(e2, dim=2)
        out = torch.einsum("bijh,bjhf->bihf", att2, xr.squeeze(1)).mean(dim=2) + self.b2
        return F.log_softmax(out, dim=-1), att


def get_inputs():
    return [torch.randn(B, N, DIN)]


def get_init_inputs():
    return [N, DIN, 4, 9, 3, 7]
