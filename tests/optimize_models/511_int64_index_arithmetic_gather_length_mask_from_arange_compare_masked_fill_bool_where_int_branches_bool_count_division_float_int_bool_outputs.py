"""Integer and boolean tensors mixed with float math.
x = randn(7, 29) float32, ids = randint(0, 50, (7, 29)) int64, lengths = randint(1, 30, (7,))
int64 (lengths[0] forced to 29 and lengths[1] to 1).
valid = arange(29) < lengths[:, None] (bool, built in forward on x.device);
j = (ids * 3 + 7) % 29 (int64 index arithmetic) -> xg = gather(x, 1, j);
big = ids > 40 (bool from a comparison); xm = xg.masked_fill(big, -1.0).masked_fill(~valid, 0.0);
half = torch.where(ids % 2 == 0, ids // 2, -ids) (int64 where with int tensor branches);
y = xm * half.float() * 0.1 + torch.where(valid & ~big, x, ids.to(x.dtype) * 0.01);
cnt = valid.sum(dim=1) (int64); mean = xm.sum(dim=1) / cnt.clamp_min(1) (float / int64 ->
float32);
flags = (half > 5) ^ valid (bool xor); nflag = flags.sum(dim=1) (int64);
k = (lengths - 1).clamp(min=0) -> last = gather(y, 1, k[:, None]).squeeze(1) (value at the last
valid position of each row).
Outputs: y (7, 29) f32, mean (7,) f32, half (7, 29) int64, flags (7, 29) bool, nflag (7,) int64,
last (7,) f32."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, ids, lengths):
        T = x.shape[1]
        valid = torch.arange(T, device=x.device)[None, :] < lengths[:, None]
        j = (ids * 3 + 7) % T
        xg = torch.gather(x, 1, j)
        big = ids > 40
        xm = xg.masked_fill(big, -1.0).masked_fill(~valid, 0.0)
        half = torch.where(ids % 2 == 0, ids // 2, -ids)
        y = xm * half.float() * 0.1 + torch.where(valid & ~big, x, ids.to(x.dtype) * 0.01)
        cnt = valid.sum(dim=1)
        mean = xm.sum(dim=1) / cnt.clamp_min(1)
        flags = (half > 5) ^ valid
        nflag = flags.sum(dim=1)
        k = (lengths - 1).clamp(min=0)
        last = torch.gather(y, 1, k[:, None]).squeeze(1)
        return y, mean, half, flags, nflag, last


def get_inputs():
    x = torch.randn(7, 29)
    ids = torch.randint(0, 50, (7, 29))
    lengths = torch.randint(1, 30, (7,))
    lengths[0] = 29
    lengths[1] = 1
    return [x, ids, lengths]


def get_init_inputs():
    return []
