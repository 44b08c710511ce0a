"""Reduced-precision inputs pooled with float32 compute, small 3-D pooling on a video clip:
x = randn(2, 5, 7, 13, 17) float16 (N, C, T, H, W); y = randn(2, 5, 13, 17) bfloat16.
xf = x.float(); h = gelu(Conv3d 5 -> 6 (k3, padding 1, float32)(xf)) (2, 6, 7, 13, 17);
s = F.max_pool3d(h, (1, 3, 3), stride=(1, 2, 2), padding=(0, 1, 1)) (2, 6, 7, 7, 9)
(spatial-only pooling); tm = F.avg_pool3d(s, (3, 1, 1), stride=1, padding=(1, 0, 0),
count_include_pad=False) (temporal smoothing, first and last frame average 2 frames);
t = F.max_pool3d(h, 2, stride=2, ceil_mode=True) (2, 6, 4, 7, 9) (partial last windows in
every dim); xm = F.max_pool3d(x, 3, stride=2, padding=1) directly in float16 (2, 5, 4, 7, 9);
yb = (F.avg_pool2d(y.float(), 3, stride=1, padding=1, count_include_pad=False) * w (5,1,1)
- y.float()).to(bfloat16).
Outputs: (tm * 0.5 + s).half() (2, 6, 7, 7, 9) float16, t (float32), xm (float16),
yb (2, 5, 13, 17) bfloat16."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, CI, CO, T, H, W = 2, 5, 6, 7, 13, 17


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(CI, CO, kernel_size=3, padding=1)
        self.w = nn.Parameter(1.0 + 0.3 * torch.randn(CI, 1, 1))

    def forward(self, x, y):
        h = F.gelu(self.conv(x.float()))
        s = F.max_pool3d(h, (1, 3, 3), stride=(1, 2, 2), padding=(0, 1, 1))
        tm = F.avg_pool3d(s, (3, 1, 1), stride=1, padding=(1, 0, 0), count_include_pad=False)
        t = F.max_pool3d(h, 2, stride=2, ceil_mode=True)
        xm = F.max_pool3d(x, 3, stride=2, padding=1)
        yf = y.float()
        yb = (F.avg_pool2d(yf, 3, stride=1, padding=1, count_include_pad=False) * self.w
              - yf).to(torch.bfloat16)
        return (tm * 0.5 + s).half(), t, xm, yb


def get_inputs():
    return [torch.randn(N, CI, T, H, W).half(), torch.randn(N, CI, H, W).to(torch.bfloat16)]


def get_init_inputs():
    return []
