"""DCN-V2 with a wide part. Numeric features arrive as float16 (13, 11) and are cast to float32;
three categorical fields (int64 (13, 3)) embedded to 8 each; x0 = cat (13, 35). Cross network: two
full-rank cross layers x = x0 * (x @ W^T + b) + x and one low-rank layer x = x0 * (U (V^T x) + b) + x
(rank 5); parallel deep MLP 35 -> 47 -> 23 (relu); wide part: bool multi-hot (13, 67) cast to float
@ wide weight (67,) + bias. Head: Linear on cat(cross, deep) (58 -> 1) plus the wide logit, sigmoid.
Outputs: probabilities (13,), the cross-network output (13, 35)."""

import math

import torch
import torch.nn as nn

B, NUM, NCAT, E, WIDE = 13, 11, 3, 8, 67
VOCABS = [29, 17, 41]


class Model(nn.Module):
    def __init__(self, num, vocabs, emb_dim, wide, rank):
        super().__init__()
        self.embs = nn.ModuleList([nn.Embedding(v, emb_dim) for v in vocabs])
        d = num + emb_dim * len(vocabs)
        self.cross_full = nn.ModuleList([nn.Linear(d, d) for _ in range(2)])
        self.u = nn.Parameter(torch.randn(d, rank) / math.sqrt(rank))
        self.vt = nn.Parameter(torch.randn(rank, d) / math.sqrt(d))
        self.lr_bias = nn.Parameter(torch.randn(d) * 0.1)
        self.deep = nn.Sequential(nn.Linear(d, 47), nn.ReLU(), nn.Linear(47, 23), nn.ReLU())
        self.wide_w = nn.Parameter(torch.randn(wide) * 0.1)
        self.wide_b = nn.Parameter(torch.tensor(-0.2))
        self.head = nn.Linear(d + 23, 1)

    def forward(self, x_num16, cat_ids, wide_bits):
        xn = x_num16.float()
        embs = [m(cat_ids[:, i]) for i, m in enumerate(self.embs)]
        x0 = torch.cat([xn] + embs, dim=1)
        x = x0
        for lin in self.cross_full:
            x = x0 * lin(x) + x
        x = x0 * ((x @ self.vt.t()) @ self.u.t() + self.lr_bias) + x
        h = self.deep(x0)
        wide = wide_bits.float() @ self.wide_w + self.wide_b
        logit = self.head(torch.cat([x, h], dim=1)).squeeze(1) + wide
        return torch.sigmoid(logit), x


def get_inputs():
    x_num = (torch.randn(B, NUM) * 0.5).half()
    cat_ids = torch.stack([torch.randint(0, v, (B,), dtype=torch.int64) for v in VOCABS], dim=1)
    wide_bits = torch.rand(B, WIDE) < 0.2
    return [x_num, cat_ids, wide_bits]


def get_init_inputs():
    return [NUM, VOCABS, E, WIDE, 5]
