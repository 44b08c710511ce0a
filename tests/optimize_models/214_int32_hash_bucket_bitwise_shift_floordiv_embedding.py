"""Integer tensor arithmetic feeding a float computation (hashed-bucket features): int32 ids in
[-2000, 2000] hashed with * and + (stays int32), >> and << (arithmetic shift of negative
values), ^ and & 63 (bucket in [0, 64), non-negative even for negative hashes); a sign bit
((h >> 6) & 1) * 2 - 1; // 7 (floor division, rounds negative ids down) and % 7 (Python
remainder, non-negative); int32 combined with an int64 input (promotes to int64), | 1,
sign-disagreement test (ids ^ other) < 0, comparisons to bool masks. The bucket indexes a
(64, D) parameter table; the results are cast to float and mixed with a float input, then a
masked row mean over the sequence. Inputs x (5, 23, 13) float32, ids (5, 23) int32,
other (5, 23) int64 in [-50, 50]; outputs (5, 13) float32, (5, 23) int64, (5, 23) int32."""

import torch
import torch.nn as nn

B, L, D, NB = 5, 23, 13, 64


class Model(nn.Module):
    def __init__(self, n_buckets, dim):
        super().__init__()
        self.table = nn.Parameter(torch.randn(n_buckets, dim) * 0.5)

    def forward(self, x, ids, other):
        h = (ids * 37 + 11) ^ (ids >> 3)               # int32, arithmetic shift
        h = h ^ (h << 2)
        bucket = h & 63                                # int32 in [0, 64)
        sign = ((h >> 6) & 1) * 2 - 1                  # int32 +/-1
        q = ids // 7                                   # floor division
        r = ids % 7                                    # non-negative remainder
        combined = (other | 1) * q + r                 # int64 (int32 promotes)
        disagree = (ids ^ other) < 0                   # signs differ
        mask = (ids > 0) & (r != 3) | disagree
        emb = self.table[bucket.long()] * sign.unsqueeze(-1).float()
        feat = emb + x * (combined.float() * 0.01).unsqueeze(-1)
        feat = feat + torch.where(mask, 1.0, -0.5).unsqueeze(-1)
        keep = (ids != 0).unsqueeze(-1).float()
        out = (feat * keep).sum(dim=1) / (keep.sum(dim=1) + 1.0)
        return out, combined, h


def get_inputs():
    x = torch.randn(B, L, D)
    ids = torch.randint(-2000, 2001, (B, L), dtype=torch.int32)
    other = torch.randint(-50, 51, (B, L), dtype=torch.int64)
    return [x, ids, other]


def get_init_inputs():
    return [NB, D]
