"""nn.Linear (96 -> 200, with bias) applied to a 3-D (3, 43, 96) input, then
torch.clamp with tensor bounds lo, hi of shape (200,) (lo < 0 < hi, varying per feature),
* 2.5, F.softplus(beta=2.0, threshold=1.5) (some values above threshold/beta take the linear branch),
rsub 1.0 - z, F.elu(alpha=0.7). Output stays 3-D.
Input x: (3, 43, 96); output (3, 43, 200)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D_IN, D_OUT = 3, 43, 96, 200


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)
        self.lo = nn.Parameter(-0.3 - torch.rand(out_features) * 0.5)
        self.hi = nn.Parameter(0.3 + torch.rand(out_features) * 0.7)

    def forward(self, x):
        z = self.fc(x)
        z = torch.clamp(z, min=self.lo, max=self.hi)
        z = F.softplus(z * 2.5, beta=2.0, threshold=1.5)
        z = 1.0 - z
        return F.elu(z, alpha=0.7)


def get_inputs():
    return [torch.randn(B, T, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT]
