"""Small 1-D U-Net for multichannel audio features (B, 3, 157). Encoder: three levels of a conv block
(Conv1d k=3 pad 1, GroupNorm, gelu, Conv1d k=3 pad 1, gelu) with widths 9, 17, 25, downsampling by
max_pool1d(2) then avg_pool1d(2) then max_pool1d(2) so lengths go 157 -> 78 -> 39 -> 19
(floor), bottleneck block at width 33 with dilation 2. Decoder: F.interpolate to the exact skip
length (size=, mode='linear', align_corners=False at two levels, mode='nearest' at one), torch.cat
with the skip along channels, conv block. Head: 1x1 conv to 3 channels giving a sigmoid mask applied
to the input plus a tanh residual branch. Outputs: enhanced signal (B, 3, 157), mask (B, 3, 157),
bottleneck features (B, 33, 19)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, C, L = 2, 3, 157


class Block(nn.Module):
    def __init__(self, cin, cout, groups, dilation=1):
        super().__init__()
        self.c1 = nn.Conv1d(cin, cout, 3, padding=dilation, dilation=dilation)
        self.gn = nn.GroupNorm(groups, cout)
        self.c2 = nn.Conv1d(cout, cout, 3, padding=1)

    def forward(self, x):
        return F.gelu(self.c2(F.gelu(self.gn(self.c1(x)))))


class Model(nn.Module):
    def __init__(self, c, widths, bottleneck):
        super().__init__()
        w1, w2, w3 = widths
        self.e1 = Block(c, w1, 3)
        self.e2 = Block(w1, w2, 1)
        self.e3 = Block(w2, w3, 5)
        self.mid = Block(w3, bottleneck, 3, dilation=2)
        self.d3 = Block(bottleneck + w3, w3, 5)
        self.d2 = Block(w3 + w2, w2, 1)
        self.d1 = Block(w2 + w1, w1, 3)
        self.mask_head = nn.Conv1d(w1, c, 1)
        self.res_head = nn.Conv1d(w1, c, 1)

    def forward(self, x):
        s1 = self.e1(x)                                   # L
        s2 = self.e2(F.max_pool1d(s1, 2))                 # L // 2
        s3 = self.e3(F.avg_pool1d(s2, 2))                 # L // 4
        m = self.mid(F.max_pool1d(s3, 2))                 # L // 8
        u = F.interpolate(m, size=s3.shape[-1], mode="linear", align_corners=False)
        u = self.d3(torch.cat([u, s3], dim=1))
        u = F.interpolate(u, size=s2.shape[-1], mode="nearest")
        u = self.d2(torch.cat([u, s2], dim=1))
        u = F.interpolate(u, size=s1.shape[-1], mode="linear", align_corners=False)
        u = self.d1(torch.cat([u, s1], dim=1))
        mask = torch.sigmoid(self.mask_head(u))
        return mask * x + 0.1 * torch.tanh(self.res_head(u)), mask, m


def get_inputs():
    return [torch.randn(B, C, L)]


def get_init_inputs():
    return [C, [9, 17, 25], 33]
