"""DLRM-style CTR model on 9 samples. Dense features (9, 13) go through a signed log1p transform
sign(x) * log1p(|x|) and a bottom MLP 13 -> 32 -> 16 (relu); five categorical fields (int64 ids
(9, 5)) share one concatenated embedding table (163, 16) addressed with a per-field offset buffer.
Interaction: T = cat([dense (9, 1, 16), emb (9, 5, 16)]), Z = bmm(T, T.transpose(1, 2)) (9, 6, 6),
strict upper triangle picked from Z.flatten(1) with a fixed flat int64 index buffer built from
triu_indices(6, 6, 1) (15 pairs), plus the diagonal (self interactions) scaled by 1 / D. Top MLP
(16 + 15 + 6) -> 24 -> 1, sigmoid. Outputs: probabilities (9, 1) and interaction features (9, 15)."""

import torch
import torch.nn as nn

B, NUM_DENSE, D = 9, 13, 16
TABLE_SIZES = [41, 29, 53, 17, 23]


class Model(nn.Module):
    def __init__(self, num_dense, dim, table_sizes):
        super().__init__()
        self.bottom = nn.Sequential(nn.Linear(num_dense, 32), nn.ReLU(), nn.Linear(32, dim), nn.ReLU())
        self.table = nn.Embedding(sum(table_sizes), dim)
        offs = torch.tensor([0] + list(table_sizes[:-1]), dtype=torch.int64).cumsum(0)
        self.register_buffer("field_offsets", offs)
        f = len(table_sizes) + 1
        iu = torch.triu_indices(f, f, 1)
        self.register_buffer("flat_idx", iu[0] * f + iu[1])
        self.dim = dim
        n_pairs = iu.shape[1]
        self.top = nn.Sequential(nn.Linear(dim + n_pairs + f, 24), nn.ReLU(), nn.Linear(24, 1))

    def forward(self, dense, ids):
        d = torch.sign(dense) * torch.log1p(dense.abs())
        xd = self.bottom(d)
        emb = self.table(ids + self.field_offsets)  # (B, F-1, D)
        t = torch.cat([xd.unsqueeze(1), emb], dim=1)
        z = torch.bmm(t, t.transpose(1, 2))
        pairs = z.flatten(1).index_select(1, self.flat_idx)
        diag = torch.diagonal(z, dim1=1, dim2=2) / self.dim
        r = torch.cat([xd, pairs, diag], dim=1)
        p = torch.sigmoid(self.top(r))
        return p, pairs


def get_inputs():
    dense = torch.randn(B, NUM_DENSE) * 3.0
    ids = torch.stack([torch.randint(0, n, (B,), dtype=torch.int64) for n in TABLE_SIZES], dim=1)
    return [dense, ids]


def get_init_inputs():
    return [NUM_DENSE, D, TABLE_SIZES]
