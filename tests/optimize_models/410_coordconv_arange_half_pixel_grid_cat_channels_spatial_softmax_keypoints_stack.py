"""CoordConv followed by a spatial softmax (soft-argmax keypoints, as in visuomotor policies).
x = randn(2, 5, 13, 34)[..., ::2] (2, 5, 13, 17), a step-sliced non-contiguous input.
Normalised pixel-centre coordinates from float-start aranges built in forward: ys =
arange(0.5, 13, 1.0) / 13 * 2 - 1, xs = arange(0.5, 17, 1.0) / 17 * 2 - 1; expanded to
(2, 1, 13, 17) and concatenated with x on dim 1 (7 channels) -> Conv2d 7 -> 10 (k3, padding 1) ->
relu. Spatial softmax: features.flatten(2) (2, 10, 221) / temperature (0-dim parameter), softmax
over the 221 positions; grids for the flattened positions xs.repeat(13) and
ys.repeat_interleave(17); expected x and y = sum(p * grid, -1); keypoints torch.stack([ex, ey],
dim=-1) (2, 10, 2). Outputs features (2, 10, 13, 17) and keypoints (2, 10, 2)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W, OUT = 2, 5, 13, 17, 10


class Model(nn.Module):
    def __init__(self, c, out):
        super().__init__()
        self.conv = nn.Conv2d(c + 2, out, 3, padding=1)
        self.temperature = nn.Parameter(torch.tensor(0.7))

    def forward(self, x):
        n, _, h, w = x.shape
        ys = torch.arange(0.5, h, 1.0, device=x.device, dtype=x.dtype) / h * 2.0 - 1.0
        xs = torch.arange(0.5, w, 1.0, device=x.device, dtype=x.dtype) / w * 2.0 - 1.0
        yy = ys.view(1, 1, h, 1).expand(n, 1, h, w)
        xx = xs.view(1, 1, 1, w).expand(n, 1, h, w)
        feats = F.relu(self.conv(torch.cat([x, yy, xx], dim=1)))
        p = torch.softmax(feats.flatten(2) / self.temperature, dim=-1)
        grid_x = xs.repeat(h)
        grid_y = ys.repeat_interleave(w)
        ex = (p * grid_x).sum(dim=-1)
        ey = (p * grid_y).sum(dim=-1)
        return feats, torch.stack([ex, ey], dim=-1)


def get_inputs():
    return [torch.randn(N, C, H, 2 * W)[..., ::2]]


def get_init_inputs():
    return [C, OUT]
