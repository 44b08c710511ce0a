"""Two-layer QRNN (Bradbury et al. 2016) with fo-pooling written by hand. Input x =
randn(3, 11, 18).transpose(1, 2) (3, 18, 11) channels-first, non-contiguous. Layer 1: causal
Conv1d 18 -> 63 (kernel 2) on F.pad(x, (1, 0)) -> (3, 63, 11); z, f, o = .chunk(3, dim=1)
(the middle, channel dim; 21 each); tanh(z), sigmoid(f), sigmoid(o); fo-pool over zip of
.unbind(2) (time, the last dim): c = f_t * c + (1 - f_t) * z_t, h_t = o_t * c; stack(dim=2)
(3, 21, 11). Layer 2 (window 1): Linear 21 -> 63 on h1.transpose(1, 2) (3, 11, 63), z, f, o =
torch.tensor_split(y, 3, dim=-1), same fo-pool over .unbind(1), stack(dim=1) (3, 11, 21), plus
a skip h1.transpose(1, 2). Outputs: layer-2 sequence (3, 11, 21) and the two final cells
stacked (2, 3, 21)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, D, T, H = 3, 18, 11, 21


def fo_pool(z, f, o, dim):
    c = torch.zeros_like(z.select(dim, 0))
    hs = []
    for zt, ft, ot in zip(z.unbind(dim), f.unbind(dim), o.unbind(dim)):
        c = ft * c + (1 - ft) * zt
        hs.append(ot * c)
    return torch.stack(hs, dim=dim), c


class Model(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.conv = nn.Conv1d(input_size, 3 * hidden_size, kernel_size=2)
        self.lin = nn.Linear(hidden_size, 3 * hidden_size)

    def forward(self, x):
        y = self.conv(F.pad(x, (1, 0)))
        z, f, o = y.chunk(3, dim=1)
        h1, c1 = fo_pool(torch.tanh(z), torch.sigmoid(f), torch.sigmoid(o), dim=2)
        h1t = h1.transpose(1, 2)
        y2 = self.lin(h1t)
        z2, f2, o2 = torch.tensor_split(y2, 3, dim=-1)
        h2, c2 = fo_pool(torch.tanh(z2), torch.sigmoid(f2), torch.sigmoid(o2), dim=1)
        return h2 + h1t, torch.stack([c1, c2], dim=0)


def get_inputs():
    return [torch.randn(B, T, D).transpose(1, 2)]


def get_init_inputs():
    return [D, H]
