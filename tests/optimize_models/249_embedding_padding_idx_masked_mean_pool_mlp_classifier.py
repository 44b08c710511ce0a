"""Bag-of-embeddings text classifier: nn.Embedding(53, 48, padding_idx=0) lookup of int64 ids,
padding mask (ids != 0) as float, masked mean over the sequence (sum / clamped count),
Linear 48 -> 32, ReLU, Linear 32 -> 7 logits.
Input ids: (3, 17) int64, right-padded with 0 (lengths 17, 9, 4); output (3, 7)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, V, D, HID, N_CLS = 3, 17, 53, 48, 32, 7


class Model(nn.Module):
    def __init__(self, vocab, dim, hidden, n_classes):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, n_classes)

    def forward(self, ids):
        mask = (ids != 0).unsqueeze(-1).float()
        e = self.emb(ids) * mask
        pooled = e.sum(dim=1) / mask.sum(dim=1).clamp_min(1.0)
        return self.fc2(F.relu(self.fc1(pooled)))


def get_inputs():
    ids = torch.randint(1, V, (B, T))
    lengths = torch.tensor([17, 9, 4])
    ids[torch.arange(T)[None, :] >= lengths[:, None]] = 0
    return [ids]


def get_init_inputs():
    return [V, D, HID, N_CLS]
