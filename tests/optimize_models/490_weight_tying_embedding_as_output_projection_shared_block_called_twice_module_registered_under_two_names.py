"""Parameter sharing: weight tying, a submodule called twice, one Linear registered under two
attribute names.
ids int64 (3, 11) in [0, 53); ctx (3, 11, 24). V = 53, D = 24.
emb = nn.Embedding(53, 24); e = emb(ids) * sqrt(24).
self.proj = nn.Linear(24, 24) and self.proj_alias = self.proj (the SAME module registered twice:
state_dict has both 'proj.*' and 'proj_alias.*' keys, parameters() yields it once).
h = e + self.proj(ctx).
self.block = nn.Sequential(Linear(24, 40), GELU(), Linear(40, 24)) is called twice with
different pre-norms: h = h + block(ln1(h)); h = h + 0.5 * block(ln2(h)).
z = self.proj_alias(h) (same weights as proj, third use).
logits = F.linear(z, emb.weight) + out_bias (53,) (tied: the embedding matrix (53, 24) is the
output projection weight); row norms emb.weight.norm(dim=1) (53,) divide the logits as a
per-vocab temperature (another use of the tied weight, guarded by + 1.0).
Outputs: logits (3, 11, 53), h (3, 11, 24)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, V, D, H = 3, 11, 53, 24, 40


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, D)
        self.proj = nn.Linear(D, D)
        self.proj_alias = self.proj
        self.block = nn.Sequential(nn.Linear(D, H), nn.GELU(), nn.Linear(H, D))
        self.ln1 = nn.LayerNorm(D)
        self.ln2 = nn.LayerNorm(D)
        self.out_bias = nn.Parameter(torch.randn(V) * 0.1)

    def forward(self, ids, ctx):
        e = self.emb(ids) * (D ** 0.5)
        h = e + self.proj(ctx)
        h = h + self.block(self.ln1(h))
        h = h + 0.5 * self.block(self.ln2(h))
        z = self.proj_alias(h)
        logits = F.linear(z, self.emb.weight) + self.out_bias
        logits = logits / (self.emb.weight.norm(dim=1) + 1.0)
        return logits, h


def get_inputs():
    return [torch.randint(0, V, (B, T), dtype=torch.int64), torch.randn(B, T, D)]


def get_init_inputs():
    return []
