"""Integer and boolean tensors in a pointwise chain: int64 codes k (9, 131) and int32
offsets o (9, 131) in range [-5, 5), integer add/mul/remainder, comparisons to bool masks,
logical ops, torch.where choosing between float and int-cast values, casts to float32;
float x (9, 131). Returns a float tensor, an int64 tensor and a bool tensor."""

import torch
import torch.nn as nn

R, C = 9, 131


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, k, o):
        s = k * 3 + o                                  # int64 (int32 promotes)
        r = torch.remainder(s, 7)                      # int64 in [0, 7)
        even = (r % 2) == 0                            # bool
        pos = x > 0
        m = torch.logical_xor(even, pos) | (k < -3)
        v = torch.where(m, x * r.float(), (s.to(torch.float32) - 0.5) * 0.1)
        y = v + pos.float() - even.to(x.dtype) * 0.25
        cnt = m.long() + (o >= 0).to(torch.int64) * 2 - r
        return y, cnt, m & ~pos


def get_inputs():
    x = torch.randn(R, C)
    k = torch.randint(-5, 5, (R, C), dtype=torch.int64)
    o = torch.randint(-5, 5, (R, C), dtype=torch.int32)
    return [x, k, o]


def get_init_inputs():
    return []
