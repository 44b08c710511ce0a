"""GLU gating on computed values (not directly on a Linear's output). Sequence input x =
randn(3, 34, 13).transpose(1, 2) (3, 13, 34), a non-contiguous view, and a condition c (3, 10).
AdaLN modulation: Linear 10 -> 68 on c, shift, scale = .chunk(2, dim=-1) (each (3, 34));
h = x * (1 + scale[:, None]) + shift[:, None] (3, 13, 34); a, b = h.chunk(2, dim=-1) (each
(3, 13, 17)), g = a * sigmoid(b). Then a ConvS2S-style gated conv: g.transpose(1, 2) (3, 17, 13)
-> Conv1d 17 -> 40 (kernel 3, padding 1) -> F.glu(dim=1) over the middle (channel) dim of the
(3, 40, 13) tensor -> (3, 20, 13), transposed back (3, 13, 20), plus a learned (20,) bias.
Outputs y (3, 13, 20) and the mean gate value sigmoid(b).mean(-1) (3, 13)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, DC, C = 3, 13, 34, 10, 20


class Model(nn.Module):
    def __init__(self, dim, cond_dim, out_ch):
        super().__init__()
        self.mod = nn.Linear(cond_dim, 2 * dim)
        self.conv = nn.Conv1d(dim // 2, 2 * out_ch, kernel_size=3, padding=1)
        self.bias = nn.Parameter(torch.randn(out_ch) * 0.1)

    def forward(self, x, c):
        shift, scale = self.mod(c).chunk(2, dim=-1)
        h = x * (1 + scale[:, None]) + shift[:, None]
        a, b = h.chunk(2, dim=-1)
        gate = torch.sigmoid(b)
        g = a * gate
        z = self.conv(g.transpose(1, 2))
        y = F.glu(z, dim=1).transpose(1, 2) + self.bias
        return y, gate.mean(dim=-1)


def get_inputs():
    return [torch.randn(B, D, T).transpose(1, 2), torch.randn(B, DC)]


def get_init_inputs():
    return [D, DC, C]
