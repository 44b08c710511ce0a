"""GCN and APPNP on a fixed 53-node undirected graph held as a dense 0/1 adjacency buffer (no self
loops, symmetric, some isolated nodes) with batched node features (2, 53, 29). The normalised
adjacency D^-1/2 (A + I) D^-1/2 is precomputed in __init__ as a buffer and also rebuilt in forward
(A + eye, degree sum, rsqrt, row (N, 1) and column (1, N) broadcasts); two GCN layers
A_hat @ (X W) + b (layer 1 with the buffer, relu, F.dropout training=False; layer 2 with the
forward-built matrix), the (53, 53) matrix broadcast over the batch; APPNP
propagation of the layer-2 logits, 5 steps of h = (1 - alpha) A_hat h + alpha h0 using the random-walk
normalisation D^-1 (A + I) (rows by division). Outputs: GCN log_softmax (2, 53, 7), APPNP
log_softmax (2, 53, 7), row sums of the forward-built A_hat (53,) (1 for the isolated nodes)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, N, DIN, DH, C = 2, 53, 29, 33, 7


def make_graph(n, p):
    g = torch.Generator().manual_seed(1234)
    a = (torch.rand(n, n, generator=g) < p).float()
    a = torch.triu(a, diagonal=1)
    a = a + a.t()
    a[n - 3:, :] = 0.0
    a[:, n - 3:] = 0.0
    return a


class Model(nn.Module):
    def __init__(self, n, din, dh, c, alpha, k):
        super().__init__()
        a = make_graph(n, 0.08)
        self.register_buffer("adj", a)
        at = a + torch.eye(n)
        dinv = at.sum(dim=1).pow(-0.5)
        self.register_buffer("a_hat", dinv[:, None] * at * dinv[None, :])
        self.lin1 = nn.Linear(din, dh)
        self.lin2 = nn.Linear(dh, c)
        self.alpha = alpha
        self.k = k

    def forward(self, x):
        n = self.adj.shape[0]
        at = self.adj + torch.eye(n, device=x.device, dtype=x.dtype)
        deg = at.sum(dim=1)
        dinv = torch.rsqrt(deg)
        a_hat = dinv.unsqueeze(1) * at * dinv.unsqueeze(0)
        h = torch.relu(self.a_hat @ (x @ self.lin1.weight.t()) + self.lin1.bias)
        h = F.dropout(h, 0.5, training=False)
        z = a_hat @ F.linear(h, self.lin2.weight) + self.lin2.bias
        a_rw = at / deg.unsqueeze(1)
        h0 = z
        p = z
        for _ in range(self.k):
            p = (1 - self.alpha) * (a_rw @ p) + self.alpha * h0
        return F.log_softmax(z, dim=-1), F.log_softmax(p, dim=-1), a_hat.sum(dim=1)


def get_inputs():
    return [torch.randn(B, N, DIN)]


def get_init_inputs():
    return [N, DIN, DH, C, 0.15, 5]
