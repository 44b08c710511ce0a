"""Two-tower retrieval with in-batch negatives on 15 users. User tower: watch history ids (15, 9)
right-padded with id 0 (mask ids != 0, every row has at least one real id); embedding (101, 20) with
recency weights exp(-0.3 * age) (age counted back from the last real position, by lengths - 1 - pos)
masked weighted mean, and a masked max pool (masked_fill -inf on padding, amax); cat with a dense
user vector (15, 7) -> MLP 47 -> 31 -> 16, F.normalize. Item tower: item id embedding (61, 16) +
category embedding (11, 16) -> Linear 16 -> 16 + tanh, F.normalize. Logits u @ v^T / 0.07 minus
log q(item) (log-Q sampling correction from a (61,) probability buffer indexed by the item ids),
cross_entropy against the diagonal (labels arange built in forward). Outputs: 0-dim loss, logits
(15, 15), user embeddings (15, 16)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, L, HIST_VOCAB, ITEM_VOCAB, N_CAT, DU = 15, 9, 101, 61, 11, 7


class Model(nn.Module):
    def __init__(self, hist_vocab, item_vocab, n_cat, dense_user, temperature):
        super().__init__()
        self.hist = nn.Embedding(hist_vocab, 20)
        self.user_mlp = nn.Sequential(nn.Linear(40 + dense_user, 31), nn.ReLU(), nn.Linear(31, 16))
        self.item = nn.Embedding(item_vocab, 16)
        self.cat = nn.Embedding(n_cat, 16)
        self.item_proj = nn.Linear(16, 16)
        freq = torch.arange(1, item_vocab + 1, dtype=torch.float32).reciprocal()
        self.register_buffer("item_prob", freq / freq.sum())
        self.temperature = temperature

    def forward(self, hist_ids, user_dense, item_ids, item_cat):
        mask = hist_ids != 0
        e = self.hist(hist_ids)  # (B, L, 20)
        lengths = mask.sum(dim=1, keepdim=True)
        pos = torch.arange(hist_ids.shape[1], device=hist_ids.device).unsqueeze(0)
        age = (lengths - 1 - pos).clamp_min(0).float()
        w = torch.exp(-0.3 * age) * mask.float()
        mean = (e * w.unsqueeze(-1)).sum(dim=1) / w.sum(dim=1, keepdim=True)
        mx = e.masked_fill(~mask.unsqueeze(-1), float("-inf")).amax(dim=1)
        u = F.normalize(self.user_mlp(torch.cat([mean, mx, user_dense], dim=1)), dim=-1)
        iv = torch.tanh(self.item_proj(self.item(item_ids) + self.cat(item_cat)))
        v = F.normalize(iv, dim=-1)
        logits = u @ v.t() / self.temperature - torch.log(self.item_prob[item_ids]).unsqueeze(0)
        labels = torch.arange(logits.shape[0], device=logits.device)
        loss = F.cross_entropy(logits, labels)
        return loss, logits, u


def get_inputs():
    hist = torch.randint(1, HIST_VOCAB, (B, L), dtype=torch.int64)
    lengths = torch.randint(1, L + 1, (B, 1))
    hist = torch.where(torch.arange(L).unsqueeze(0) < lengths, hist, torch.zeros_like(hist))
    user_dense = torch.randn(B, DU)
    item_ids = torch.randint(0, ITEM_VOCAB, (B,), dtype=torch.int64)
    item_cat = torch.randint(0, N_CAT, (B,), dtype=torch.int64)
    return [hist, user_dense, item_ids, item_cat]


def get_init_inputs():
    return [HIST_VOCAB, ITEM_VOCAB, N_CAT, DU, 0.07]
