"""FPN top-down path with several interpolate modes: c3 (2, 8, 25, 31), c4 (2, 12, 13, 16),
c5 (2, 16, 7, 8). Lateral 1x1 Conv2d to 9 channels each.
p5 -> F.interpolate(scale_factor=2, mode='nearest') (14, 16) cropped [:, :, :13] and added
to l4; p4 also gets F.interpolate(p5, size=(13, 16), mode='bilinear', align_corners=True);
p3 = l3 + F.interpolate(p4, size=(25, 31), mode='bilinear', align_corners=False);
3x3 Conv2d smoothing, F.silu; head: F.interpolate(p5, scale_factor=2, mode='bicubic',
align_corners=False) (14, 16) minus the cropped-to-(14, 16) p4 padded by one row
(F.pad replicate); F.relu.
Outputs: p3 (2, 9, 25, 31), p4 (2, 9, 13, 16), head (2, 9, 14, 16)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N = 2
C3, C4, C5, D = 8, 12, 16, 9


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.l3 = nn.Conv2d(C3, D, 1)
        self.l4 = nn.Conv2d(C4, D, 1)
        self.l5 = nn.Conv2d(C5, D, 1)
        self.smooth = nn.Conv2d(D, D, 3, padding=1)

    def forward(self, c3, c4, c5):
        p5 = self.l5(c5)
        up_n = F.interpolate(p5, scale_factor=2, mode="nearest")[:, :, : c4.shape[2]]
        up_b = F.interpolate(p5, size=c4.shape[-2:], mode="bilinear", align_corners=True)
        p4 = self.l4(c4) + up_n + 0.5 * up_b
        up3 = F.interpolate(p4, size=c3.shape[-2:], mode="bilinear", align_corners=False)
        p3 = F.silu(self.smooth(self.l3(c3) + up3))
        bic = F.interpolate(p5, scale_factor=2, mode="bicubic", align_corners=False)
        p4e = F.pad(p4, (0, 0, 0, 1), mode="replicate")
        head = F.relu(bic - p4e)
        return p3, p4, head


def get_inputs():
    return [torch.randn(N, C3, 25, 31), torch.randn(N, C4, 13, 16), torch.randn(N, C5, 7, 8)]


def get_init_inputs():
    return []
