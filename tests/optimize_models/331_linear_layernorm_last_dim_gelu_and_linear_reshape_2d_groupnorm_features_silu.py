"""Linear followed by normalisation over its output features, on (3, 17, 96): nn.Linear
(96 -> 129) -> nn.LayerNorm(129) -> gelu; and a second nn.Linear (96 -> 129) -> reshape to
(51, 129) -> nn.GroupNorm(3 groups of 43, 129 channels) on the 2-D (N, C) tensor -> reshape back
-> silu. Two outputs (3, 17, 129)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D_IN, D_OUT, G = 3, 17, 96, 129, 3


class Model(nn.Module):
    def __init__(self, d_in, d_out, groups):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_out)
        self.ln = nn.LayerNorm(d_out)
        self.fc2 = nn.Linear(d_in, d_out)
        self.gn = nn.GroupNorm(groups, d_out)
        with torch.no_grad():
            self.ln.weight.uniform_(0.5, 1.5)
            self.ln.bias.uniform_(-0.2, 0.2)
            self.gn.weight.uniform_(0.5, 1.5)
            self.gn.bias.uniform_(-0.2, 0.2)

    def forward(self, x):
        a = F.gelu(self.ln(self.fc1(x)))
        z = self.fc2(x)
        g = self.gn(z.reshape(-1, z.shape[-1])).reshape(z.shape)
        return a, F.silu(g)


def get_inputs():
    return [torch.randn(B, T, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT, G]
