"""Sequence-classification pooling with index tensors computed in forward. Hidden input
randn(4, 34, 24)[:, ::2] (4, 17, 24), a step-sliced non-contiguous view; int64 ids (4, 17)
right-padded with pad id 0 (row 1 has no padding). h = tanh(Linear 24 -> 24); per-token class
logits Linear 24 -> 5 (4, 17, 5). HF GPT-2 pooling: seq_len = (ids == 0).int().argmax(-1) - 1,
seq_len % 17 (a row without padding gives -1 -> 16), pooled = logits[arange(4), seq_len] (4, 5),
then a class-subset view pooled.index_select(1, subset) with an index buffer subset = [4, 0, 2]
(4, 3). Token mixing: rev = arange(17).flip(0), perm = (arange(17) * 3) % 17 (a permutation, 17
prime), mix = h + 0.5 * h[:, perm] - 0.25 * h[:, rev]; picks h[:, cls_pos] with a 0-dim int64
tensor input cls_pos (value 2) -> (4, 24), h[:, -1], and h[:, torch.tensor([-1, -4, -17])]
(negative indices) mean over the three; cat([h[:, cls_pos], h[:, -1], neg_mean, mix.mean(1)])
(4, 96) -> Linear 96 -> 3. Outputs pooled logits (4, 5), subset (4, 3), int64 seq_len (4,),
the second head (4, 3) and mix (4, 17, 24)."""

import torch
import torch.nn as nn

B, T, D, NCLS, NCLS2, PAD = 4, 17, 24, 5, 3, 0


class Model(nn.Module):
    def __init__(self, dim, n_cls, n_cls2, pad_id):
        super().__init__()
        self.pad_id = pad_id
        self.lin = nn.Linear(dim, dim)
        self.score = nn.Linear(dim, n_cls)
        self.head2 = nn.Linear(4 * dim, n_cls2)
        self.register_buffer("subset", torch.tensor([4, 0, 2], dtype=torch.int64))

    def forward(self, x, ids, cls_pos):
        b, t, _ = x.shape
        h = torch.tanh(self.lin(x))
        logits = self.score(h)
        seq_len = torch.eq(ids, self.pad_id).int().argmax(-1) - 1
        seq_len = seq_len % t
        pooled = logits[torch.arange(b, device=x.device), seq_len]
        sub = pooled.index_select(1, self.subset)

        ar = torch.arange(t, device=x.device)
        rev = ar.flip(0)
        perm = (ar * 3) % t
        mix = h + 0.5 * h[:, perm] - 0.25 * h[:, rev]
        neg = torch.tensor([-1, -4, -t], dtype=torch.int64, device=x.device)
        neg_mean = h[:, neg].mean(dim=1)
        feat = torch.cat([h[:, cls_pos], h[:, -1], neg_mean, mix.mean(dim=1)], dim=-1)
        return pooled, sub, seq_len, self.head2(feat), mix


def get_inputs():
    ids = torch.randint(1, 50, (B, T), dtype=torch.int64)
    ids[0, 12:] = PAD
    ids[2, 5:] = PAD
    ids[3, 16:] = PAD
    return [torch.randn(B, 2 * T, D)[:, ::2], ids, torch.tensor(2, dtype=torch.int64)]


def get_init_inputs():
    return [D, NCLS, NCLS2, PAD]
