"""SegNet-style encoder/decoder that reuses max-pooling indices, with AlexNet LRN:
x = randn(2, 6, 23, 31). e = F.local_response_norm(relu(Conv2d 6 -> 10 (k3, padding 1)(x)),
size=5, alpha=1e-2, beta=0.75, k=2.0) (2, 10, 23, 31).
p, idx = F.max_pool2d(e, 2, stride=2, return_indices=True) (2, 10, 11, 15), int64 indices
into the flattened 23 x 31 plane; d = relu(Conv2d 10 -> 10 (k3, padding 1)(p));
u = F.max_unpool2d(d, idx, 2, stride=2, output_size=(23, 31)) (zeros except at the argmax
positions; the last row and column are never written); y = Conv2d 10 -> 4 (k3, padding 1)(u)
+ Conv2d 6 -> 4 (1x1)(x).
Overlapping windows: p2, idx2 = F.max_pool2d(e, 3, stride=2, padding=1, return_indices=True)
(2, 10, 12, 16); u2 = F.max_unpool2d(p2 * s (10,1,1), idx2, 3, stride=2, padding=1,
output_size=(23, 31)); neighbouring windows can share an argmax, but then they write the same
value, so the result is deterministic.
Outputs: y (2, 4, 23, 31), u2 (2, 10, 23, 31), idx2 (2, 10, 12, 16) int64."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, CI, C, CO, H, W = 2, 6, 10, 4, 23, 31


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Conv2d(CI, C, kernel_size=3, padding=1)
        self.mid = nn.Conv2d(C, C, kernel_size=3, padding=1)
        self.dec = nn.Conv2d(C, CO, kernel_size=3, padding=1)
        self.skip = nn.Conv2d(CI, CO, kernel_size=1)
        self.s = nn.Parameter(torch.randn(C, 1, 1))

    def forward(self, x):
        e = F.local_response_norm(F.relu(self.enc(x)), size=5, alpha=1e-2, beta=0.75, k=2.0)
        p, idx = F.max_pool2d(e, 2, stride=2, return_indices=True)
        d = F.relu(self.mid(p))
        u = F.max_unpool2d(d, idx, 2, stride=2, output_size=(H, W))
        y = self.dec(u) + self.skip(x)
        p2, idx2 = F.max_pool2d(e, 3, stride=2, padding=1, return_indices=True)
        u2 = F.max_unpool2d(p2 * self.s, idx2, 3, stride=2, padding=1, output_size=(H, W))
        return y, u2, idx2


def get_inputs():
    return [torch.randn(N, CI, H, W)]


def get_init_inputs():
    return []
