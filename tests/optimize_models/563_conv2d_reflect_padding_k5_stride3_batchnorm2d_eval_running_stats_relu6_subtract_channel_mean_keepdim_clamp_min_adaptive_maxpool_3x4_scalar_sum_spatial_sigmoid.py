"""Conv2d with reflect padding and stride 3, eval batch norm, then channel centering, a clamp,
an adaptive max pool and a spatial sum.
x = randn(2, 3, 23, 29).
h = Conv2d(3 -> 10, k5, stride 3, padding 2, padding_mode='reflect')(x) (2, 10, 8, 10) ->
BatchNorm2d(10) (eval, random running mean / var and affine) -> relu6;
h = h - h.mean(dim=1, keepdim=True) -> clamp_min(-0.5);
p = adaptive_max_pool2d(h, (3, 4)) (2, 10, 3, 4) * scale (Python float 0.6);
out = sigmoid(p.sum(dim=(2, 3))) (2, 10).
The model is put in eval mode in __init__.
Outputs: out (2, 10)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, cin, cout, scale):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 5, stride=3, padding=2, padding_mode="reflect")
        self.bn = nn.BatchNorm2d(cout)
        with torch.no_grad():
            self.bn.running_mean.copy_(0.2 * torch.randn(cout))
            self.bn.running_var.copy_(0.3 + torch.rand(cout))
            self.bn.weight.copy_(1.0 + 0.2 * torch.randn(cout))
            self.bn.bias.copy_(0.1 * torch.randn(cout))
        self.scale = scale
        self.eval()

    def forward(self, x):
        h = F.relu6(self.bn(self.conv(x)))
        h = torch.clamp_min(h - h.mean(dim=1, keepdim=True), -0.5)
        p = F.adaptive_max_pool2d(h, (3, 4)) * self.scale
        return torch.sigmoid(p.sum(dim=(2, 3)))


def get_inputs():
    return [torch.randn(2, 3, 23, 29)]


def get_init_inputs():
    return [3, 10, 0.6]
