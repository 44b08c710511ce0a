"""Picks out of integer and boolean computed tensors. From x (5, 23) of both signs: pos = x > 0
(bool), cnt = pos.long().cumsum(1) (int64 running count of positives); cnt.gather(1, idx) with
idx (5, 6) -> int64, pos.gather(1, idx) -> bool, pos[r, c] with int64 r (7,), c (7,) -> bool,
x.gather(1, idx) * cnt.gather(1, idx).float() -> float. HF position ids from a left-padded
int64 attention_mask (5, 23) of 0 / 1: p = attention_mask.long().cumsum(-1) - 1,
p.masked_fill(attention_mask == 0, 1), then a (24, 8) parameter table picked by self.table[p]
-> (5, 23, 8) times the mask as float. Outputs int64 (5, 6), bool (5, 6), bool (7,),
float (5, 6), float (5, 23, 8) and the int64 position ids (5, 23)."""

import torch
import torch.nn as nn

N, L, P, R, DE = 5, 23, 6, 7, 8


class Model(nn.Module):
    def __init__(self, max_pos, dim):
        super().__init__()
        self.table = nn.Parameter(torch.randn(max_pos, dim))

    def forward(self, x, idx, r, c, attention_mask):
        pos = x > 0
        cnt = pos.long().cumsum(1)
        cnt_pick = cnt.gather(1, idx)
        pos_pick = pos.gather(1, idx)
        pos_rc = pos[r, c]
        weighted = x.gather(1, idx) * cnt_pick.float()
        p = attention_mask.long().cumsum(-1) - 1
        p = p.masked_fill(attention_mask == 0, 1)
        emb = self.table[p] * attention_mask[..., None].float()
        return cnt_pick, pos_pick, pos_rc, weighted, emb, p


def get_inputs():
    lengths = torch.tensor([23, 17, 9, 20, 1])
    attention_mask = (torch.arange(L)[None, :] >= (L - lengths)[:, None]).long()
    return [torch.randn(N, L),
            torch.randint(0, L, (N, P), dtype=torch.int64),
            torch.randint(0, N, (R,), dtype=torch.int64),
            torch.randint(0, L, (R,), dtype=torch.int64),
            attention_mask]


def get_init_inputs():
    return [L + 1, DE]
