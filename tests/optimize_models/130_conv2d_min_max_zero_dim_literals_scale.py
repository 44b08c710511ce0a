"""Conv2d with bias (5 -> 7, kernel 3) followed by torch.min with a 0-dim CPU tensor built in
forward (torch.tensor(0.3)), torch.max with a 0-dim tensor built on the input's device
(torch.tensor(-0.2, device=x.device)), then a multiply by a Python float (constructor arg 1.75).
Input x: (3, 5, 13, 17); output (3, 7, 11, 15)."""

import torch
import torch.nn as nn

N, CIN, COUT, H, W = 3, 5, 7, 13, 17


class Model(nn.Module):
    def __init__(self, cin, cout, scale):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, kernel_size=3, bias=True)
        self.scale = scale

    def forward(self, x):
        y = self.conv(x)
        y = torch.min(y, torch.tensor(0.3))                     # 0-dim CPU tensor
        y = torch.max(y, torch.tensor(-0.2, device=x.device))   # 0-dim on x's device
        return y * self.scale


def get_inputs():
    return [torch.randn(N, CIN, H, W)]


def get_init_inputs():
    return [CIN, COUT, 1.75]
