"""DeepFM on 11 samples. Six single-valued fields (int64 ids (11, 6), shared table with a per-field
offset buffer) and one multi-hot field (11, 7) padded with id 0 (mask ids != 0, at least one real id
per row): masked mean pooling of its embeddings (sum / count.clamp_min(1)). First-order term from
dim-1 embeddings (weights of the padded ids zeroed by the mask) plus a 0-dim bias. FM second order
0.5 * ((sum_f v)^2 - sum_f v^2).sum(-1) over the 7 field vectors (11, 7, 10), and the same value
computed explicitly as sum over pairs of bmm(V, V^T) times a strict upper-triangle float mask
buffer; deep part MLP 70 -> 33 -> 17 -> 1 on the flattened field vectors. Outputs: sigmoid of the
sum (11,), the FM term (11,), |FM - pairwise| (11,)."""

import torch
import torch.nn as nn

B, NF, K, L = 11, 6, 10, 7
FIELD_SIZES = [19, 31, 7, 43, 13, 27]
MULTI_VOCAB = 37


class Model(nn.Module):
    def __init__(self, field_sizes, multi_vocab, k):
        super().__init__()
        n = sum(field_sizes)
        self.v = nn.Embedding(n, k)
        self.w = nn.Embedding(n, 1)
        self.v_multi = nn.Embedding(multi_vocab, k)
        self.w_multi = nn.Embedding(multi_vocab, 1)
        self.bias = nn.Parameter(torch.tensor(0.1))
        for e in (self.v, self.w, self.v_multi, self.w_multi):
            nn.init.normal_(e.weight, std=0.3)
        offs = torch.tensor([0] + list(field_sizes[:-1]), dtype=torch.int64).cumsum(0)
        self.register_buffer("offsets", offs)
        f = len(field_sizes) + 1
        self.register_buffer("pair_mask", torch.triu(torch.ones(f, f), diagonal=1))
        self.deep = nn.Sequential(nn.Linear(f * k, 33), nn.ReLU(), nn.Linear(33, 17), nn.ReLU(),
                                  nn.Linear(17, 1))

    def forward(self, ids, multi_ids):
        idx = ids + self.offsets
        mask = (multi_ids != 0).float().unsqueeze(-1)  # (B, L, 1)
        cnt = mask.sum(dim=1).clamp_min(1.0)  # (B, 1)
        vm = (self.v_multi(multi_ids) * mask).sum(dim=1) / cnt  # (B, K)
        v = torch.cat([self.v(idx), vm.unsqueeze(1)], dim=1)  # (B, F, K)
        first = self.w(idx).squeeze(-1).sum(dim=1) + (self.w_multi(multi_ids) * mask).sum(dim=(1, 2)) / cnt.squeeze(1)
        s = v.sum(dim=1)
        fm = 0.5 * (s * s - (v * v).sum(dim=1)).sum(dim=-1)
        inner = torch.bmm(v, v.transpose(1, 2))
        pairwise = (inner * self.pair_mask).sum(dim=(1, 2))
        deep = self.deep(v.flatten(1)).squeeze(-1)
        logit = self.bias + first + fm + deep
        return torch.sigmoid(logit), fm, (fm - pairwise).abs()


def get_inputs():
    ids = torch.stack([torch.randint(0, n, (B,), dtype=torch.int64) for n in FIELD_SIZES], dim=1)
    multi = torch.randint(1, MULTI_VOCAB, (B, L), dtype=torch.int64)
    lengths = torch.randint(1, L + 1, (B, 1))
    multi = torch.where(torch.arange(L).unsqueeze(0) < lengths, multi, torch.zeros_like(multi))
    return [ids, multi]


def get_init_inputs():
    return [FIELD_SIZES, MULTI_VOCAB, K]
