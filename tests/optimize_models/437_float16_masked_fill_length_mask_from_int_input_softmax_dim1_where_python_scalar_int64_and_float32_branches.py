"""float16 masking as a padded-sequence model writes it: x, y float16 (5, 27, 13), int64
lengths (5,) in [1, 27]. Masks computed from the inputs in forward:
pad = arange(27) >= lengths[:, None] (bool (5, 27)), big = x.abs() > 1.7 (bool).
x.masked_fill(pad[..., None], -inf) -> softmax over dim 1 (the time dim, not last) in
float16, then masked_fill(pad, 0.0); x.masked_fill(big, 0.0) * y;
torch.where(y > 0, 0.5, x) (Python float branch, stays float16);
torch.where(big, x, k) with an int64 tensor branch k (5, 27, 13) in [-3, 3) (promotes to
float16); torch.where(pad[..., None], y.float(), x) (float32 and float16 branches give
float32); clamp with float16 tensor bounds lo (13,) and hi (27, 1).
Outputs: float16 (5, 27, 13) attention-like weights, float16 (5, 13) pooled sum, float32
(5, 27, 13), int64 (5,) count of big entries in valid steps, bool (5, 27) pad mask."""

import torch
import torch.nn as nn

B, T, C = 5, 27, 13


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y, lengths, k, lo, hi):
        pad = torch.arange(T, device=x.device)[None, :] >= lengths[:, None]
        big = x.abs() > 1.7
        s = x.masked_fill(pad[..., None], float("-inf"))
        w = torch.softmax(s, dim=1).masked_fill(pad[..., None], 0.0)
        v = x.masked_fill(big, 0.0) * y
        pooled = (w * v).sum(dim=1)
        a = torch.where(y > 0, 0.5, x)
        b = torch.where(big, x, k)
        c = torch.where(pad[..., None], y.float(), x)
        d = torch.clamp(a + b, min=lo, max=hi)
        out32 = c * 0.5 + d
        nbig = (big & ~pad[..., None]).sum(dim=(1, 2))
        return w, pooled, out32, nbig, pad


def get_inputs():
    x = torch.randn(B, T, C).half()
    y = torch.randn(B, T, C).half()
    lengths = torch.tensor([27, 1, 14, 20, 9], dtype=torch.int64)
    k = torch.randint(-3, 3, (B, T, C), dtype=torch.int64)
    lo = (torch.rand(C) * -1.5).half()
    hi = (torch.rand(T, 1) * 1.5 + 0.2).half()
    return [x, y, lengths, k, lo, hi]


def get_init_inputs():
    return []
