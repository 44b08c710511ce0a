"""AlexNet-style block: x (2, 4, 27, 30). Conv2d 4 -> 7 (k3, padding 1);
F.local_response_norm(size=3, alpha=0.05, beta=0.75, k=1.0) across 7 channels;
F.relu6(h * 3); F.lp_pool2d(norm_type=2, kernel_size=3, stride=2, ceil_mode=True)
(2, 7, 13, 15); F.lp_pool2d(norm_type=2, kernel_size=(2, 3)) on the signed LRN output;
F.lp_pool1d(norm_type=3, kernel_size=4, stride=3) over the width of F.softplus(h)
reshaped to (2, 7 * 27, 30).
Outputs: (2, 7, 13, 15) (last column window partial), (2, 7, 13, 10), (2, 189, 9)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C_IN, C, H, W = 2, 4, 7, 27, 30


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(C_IN, C, kernel_size=3, padding=1)

    def forward(self, x):
        h = self.conv(x)
        n = F.local_response_norm(h, size=3, alpha=0.05, beta=0.75, k=1.0)
        r = F.relu6(n * 3.0)
        p1 = F.lp_pool2d(r, norm_type=2, kernel_size=3, stride=2, ceil_mode=True)
        p2 = F.lp_pool2d(n, norm_type=2, kernel_size=(2, 3))
        s = F.softplus(h).reshape(h.shape[0], C * H, W)
        p3 = F.lp_pool1d(s, norm_type=3, kernel_size=4, stride=3)
        return p1, p2, p3


def get_inputs():
    return [torch.randn(N, C_IN, H, W)]


def get_init_inputs():
    return []
