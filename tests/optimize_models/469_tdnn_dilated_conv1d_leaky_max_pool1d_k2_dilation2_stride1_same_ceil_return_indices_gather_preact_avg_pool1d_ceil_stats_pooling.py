"""TDNN-style speech block with dilated 1-D max pooling: x = randn(2, 13, 201) (N, C, L).
pre = Conv1d 13 -> 15 (k5, dilation 2, padding 4)(x) (2, 15, 201); h = leaky_relu(pre, 0.1);
m1 = F.max_pool1d(h, 2, stride=1, padding=1, dilation=2) (same length 201: max of h[t - 1] and
h[t + 1], -inf padding; padding may not exceed half the kernel);
m2, idx = F.max_pool1d(h, 4, stride=3, padding=1, dilation=3, ceil_mode=True,
return_indices=True) (2, 15, 66) with int64 indices; the indices are used:
g = torch.gather(pre, 2, idx) (pre-activation at the argmax positions), z = m2 - g
(0 where pre > 0, -0.9 * pre otherwise);
a = F.avg_pool1d(m1, 4, stride=2, padding=2, ceil_mode=True) (2, 15, 102), count_include_pad,
the last window hangs past the right padding;
statistics pooling over time of a: mean and std (unbiased) concatenated -> (2, 30) ->
Linear 30 -> 11.
Outputs: emb (2, 11), z (2, 15, 66), idx (2, 15, 66) int64, m1 (2, 15, 201)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, CI, CO, L, E = 2, 13, 15, 201, 11


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(CI, CO, kernel_size=5, dilation=2, padding=4)
        self.fc = nn.Linear(2 * CO, E)

    def forward(self, x):
        pre = self.conv(x)
        h = F.leaky_relu(pre, 0.1)
        m1 = F.max_pool1d(h, 2, stride=1, padding=1, dilation=2)
        m2, idx = F.max_pool1d(h, 4, stride=3, padding=1, dilation=3, ceil_mode=True,
                               return_indices=True)
        g = torch.gather(pre, 2, idx)
        z = m2 - g
        a = F.avg_pool1d(m1, 4, stride=2, padding=2, ceil_mode=True)
        stats = torch.cat([a.mean(dim=2), a.std(dim=2)], dim=1)
        emb = self.fc(stats)
        return emb, z, idx, m1


def get_inputs():
    return [torch.randn(N, CI, L)]


def get_init_inputs():
    return []
