"""EfficientNet MBConv block on a 15x15 map with 12 channels: 1x1 expand conv (x4, no bias), F.batch_norm
training=False on registered running-stat buffers, SiLU, depthwise 3x3 conv (groups = 48), batch norm,
SiLU, squeeze-and-excitation (mean over (2, 3) keepdim, 1x1 conv 48 -> 3 with bias, SiLU, 1x1 conv
3 -> 48, sigmoid, channel-wise gate), 1x1 project conv 48 -> 12, batch norm (no activation),
stochastic depth in eval mode (identity), residual. Outputs: block output and the SE gates (B, 48)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, C, H, W = 2, 12, 15, 15
EXPAND = 4


class BNEval(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(ch) + 0.5)
        self.bias = nn.Parameter(torch.randn(ch) * 0.1)
        self.register_buffer("running_mean", torch.randn(ch) * 0.1)
        self.register_buffer("running_var", torch.rand(ch) + 0.5)

    def forward(self, x):
        return F.batch_norm(x, self.running_mean, self.running_var, self.weight, self.bias, False, 0.1, 1e-3)


class Model(nn.Module):
    def __init__(self, ch, expand):
        super().__init__()
        mid = ch * expand
        se = max(1, ch // 4)
        self.expand_w = nn.Parameter(torch.randn(mid, ch, 1, 1) * ch ** -0.5)
        self.bn0 = BNEval(mid)
        self.dw_w = nn.Parameter(torch.randn(mid, 1, 3, 3) / 3.0)
        self.bn1 = BNEval(mid)
        self.se_reduce = nn.Conv2d(mid, se, 1)
        self.se_expand = nn.Conv2d(se, mid, 1)
        self.project_w = nn.Parameter(torch.randn(ch, mid, 1, 1) * mid ** -0.5)
        self.bn2 = BNEval(ch)

    def forward(self, x):
        h = F.silu(self.bn0(F.conv2d(x, self.expand_w)))
        h = F.silu(self.bn1(F.conv2d(h, self.dw_w, padding=1, groups=h.shape[1])))
        s = h.mean(dim=(2, 3), keepdim=True)
        g = torch.sigmoid(self.se_expand(F.silu(self.se_reduce(s))))
        h = h * g
        h = self.bn2(F.conv2d(h, self.project_w))
        h = F.dropout(h, p=0.2, training=False)  # eval-mode stochastic depth stand-in: identity
        return x + h, g.flatten(1)


def get_inputs():
    return [torch.randn(B, C, H, W)]


def get_init_inputs():
    return [C, EXPAND]
