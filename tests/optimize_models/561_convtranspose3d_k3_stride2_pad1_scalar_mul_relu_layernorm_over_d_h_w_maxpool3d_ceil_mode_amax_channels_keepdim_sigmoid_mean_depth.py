"""ConvTranspose3d followed by a scalar, relu, a LayerNorm over the three spatial dims, a
ceil-mode max pool and a channel max.
x = randn(2, 4, 5, 7, 3).
h = ConvTranspose3d(4 -> 6, k3, stride 2, padding 1)(x) (2, 6, 9, 13, 5) * scale (Python
float 0.8) -> relu -> LayerNorm((9, 13, 5)) (random affine);
p = max_pool3d(h, 2, ceil_mode=True) (2, 6, 5, 7, 3); m = sigmoid(p.amax(dim=1, keepdim=True))
(2, 1, 5, 7, 3); out = m.mean(dim=2) (2, 1, 7, 3).
Outputs: out (2, 1, 7, 3)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, cin, cout, spatial, scale):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(cin, cout, 3, stride=2, padding=1)
        self.ln = nn.LayerNorm(spatial)
        with torch.no_grad():
            self.ln.weight.copy_(1.0 + 0.2 * torch.randn(spatial))
            self.ln.bias.copy_(0.1 * torch.randn(spatial))
        self.scale = scale

    def forward(self, x):
        h = self.ln(torch.relu(self.deconv(x) * self.scale))
        p = F.max_pool3d(h, 2, ceil_mode=True)
        m = torch.sigmoid(p.amax(dim=1, keepdim=True))
        return m.mean(dim=2)


def get_inputs():
    return [torch.randn(2, 4, 5, 7, 3)]


def get_init_inputs():
    return [4, 6, [9, 13, 5], 0.8]
