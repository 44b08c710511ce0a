"""torch.where masking on 5-D broadcasting shapes (video features (N, C, T, H, W) =
(2, 3, 5, 7, 9)): a bool frame-validity input (2, 1, 5, 1, 1) and'ed with a (1, 3, 1, 7, 1)
comparison mask, where(mask, x, -1e4) (Python-scalar other) then softmax over W; where with a
(9,) parameter-derived mask choosing between x * y (broadcast 5-D) and the (9,) parameter
itself; masked mean over (T, H, W) via where(valid, x, 0).sum / count (clamped, a batch may
have no valid frame), broadcast back. Output (2, 3, 5, 7, 9)."""

import torch
import torch.nn as nn

N, C, T, H, W = 2, 3, 5, 7, 9


class Model(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.col = nn.Parameter(torch.randn(width) * 0.5)

    def forward(self, x, valid, y):
        m = valid & (y > -0.3)                            # (2, 3, 5, 7, 1)
        a = torch.where(m, x, -1e4)
        s = torch.softmax(a, dim=-1)
        b = torch.where(self.col > 0, x * y, self.col)    # (2, 3, 5, 7, 9)
        num = torch.where(valid, x, 0.0).sum(dim=(2, 3, 4))              # (2, 3)
        den = valid.sum(dim=(2, 3, 4)).clamp_min(1).float() * (H * W)    # (2, 1)
        mm = (num / den)[:, :, None, None, None]
        return s * b + torch.where(valid, mm, -mm)


def get_inputs():
    x = torch.randn(N, C, T, H, W)
    valid = torch.rand(N, 1, T, 1, 1) < 0.6
    y = torch.randn(1, C, 1, H, 1)
    return [x, valid, y]


def get_init_inputs():
    return [W]
