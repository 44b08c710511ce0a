"""DLRM (Naumov et al. 2019) on a batch of 7. Dense features (7, 13) -> bottom MLP Linear
13 -> 24 -> relu -> Linear 24 -> 16 -> relu. Sparse feature A: nn.EmbeddingBag(37, 16,
mode='sum') on flat int64 ids (19,) with int64 offsets (7,) (bag 3 empty -> zero row) and
per_sample_weights (19,); feature B: nn.EmbeddingBag(53, 16, mode='mean') on ids (23,) with
offsets (7,) (bag 5 empty); feature C: raw int64 ids (7, 4) in [0, 200) remapped by a hashing
index buffer remap (200,) with values in [0, 29), rows of a (29, 16) parameter table
table.index_select(0, remap[raw].view(-1)).view(7, 4, 16), mean over the 4. Interaction:
T = stack([dense, a, b, c], 1) (7, 4, 16), Z = bmm(T, T^T) (7, 4, 4), strictly lower triangle
Z[:, li, lj] with li, lj = torch.tril_indices(4, 4, offset=-1) index buffers (7, 6); top MLP on
cat([dense, Zflat]) (7, 22) -> Linear 22 -> 16 -> relu -> Linear 16 -> 1 -> sigmoid. Outputs
the click probability (7, 1) and Zflat (7, 6)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, DENSE, D, NA, NB, NC, RAW, MULTI = 7, 13, 16, 37, 53, 29, 200, 4


class Model(nn.Module):
    def __init__(self, n_dense, dim, na, nb, nc, n_raw):
        super().__init__()
        self.bot1 = nn.Linear(n_dense, 24)
        self.bot2 = nn.Linear(24, dim)
        self.emb_a = nn.EmbeddingBag(na, dim, mode="sum")
        self.emb_b = nn.EmbeddingBag(nb, dim, mode="mean")
        self.table_c = nn.Parameter(torch.randn(nc, dim) * 0.3)
        g = torch.Generator().manual_seed(1)
        self.register_buffer("remap", torch.randint(0, nc, (n_raw,), generator=g))
        li, lj = torch.tril_indices(4, 4, offset=-1)
        self.register_buffer("li", li)
        self.register_buffer("lj", lj)
        self.top1 = nn.Linear(dim + li.numel(), 16)
        self.top2 = nn.Linear(16, 1)

    def forward(self, dense, ids_a, offs_a, w_a, ids_b, offs_b, raw_c):
        x = F.relu(self.bot2(F.relu(self.bot1(dense))))
        a = self.emb_a(ids_a, offs_a, per_sample_weights=w_a)
        b = self.emb_b(ids_b, offs_b)
        bsz, m = raw_c.shape
        c = self.table_c.index_select(0, self.remap[raw_c].view(-1)).view(bsz, m, -1).mean(dim=1)
        t = torch.stack([x, a, b, c], dim=1)
        z = torch.bmm(t, t.transpose(1, 2))
        zflat = z[:, self.li, self.lj]
        out = torch.sigmoid(self.top2(F.relu(self.top1(torch.cat([x, zflat], dim=1)))))
        return out, zflat


def get_inputs():
    # bag lengths sum to 19 (A) and 23 (B); bag 3 of A and bag 5 of B are empty
    len_a = torch.tensor([3, 2, 4, 0, 5, 1, 4])
    len_b = torch.tensor([4, 6, 1, 3, 5, 0, 4])
    offs_a = torch.cat([torch.zeros(1, dtype=torch.int64), len_a.cumsum(0)[:-1]])
    offs_b = torch.cat([torch.zeros(1, dtype=torch.int64), len_b.cumsum(0)[:-1]])
    return [torch.randn(B, DENSE),
            torch.randint(0, NA, (int(len_a.sum()),), dtype=torch.int64), offs_a,
            torch.rand(int(len_a.sum())) * 2.0 - 0.5,
            torch.randint(0, NB, (int(len_b.sum()),), dtype=torch.int64), offs_b,
            torch.randint(0, RAW, (B, MULTI), dtype=torch.int64)]


def get_init_inputs():
    return [DENSE, D, NA, NB, NC, RAW]
