"""Building a larger tensor from small inputs: x.repeat(1, 3, 1) of x (2, 5, 7) -> (2, 15, 7),
y.expand(2, 15, 7) of y (2, 1, 7), torch.tile(z, (2, 15, 1)) of z (1, 1, 7); combined
pointwise (x_rep * y_exp + z_tile, plus 0.1 * arange(15) per row so the repeated copies
differ), then amax over dim 1 and logsumexp over dim 2; tuple of both.
Inputs x: (2, 5, 7), y: (2, 1, 7), z: (1, 1, 7); outputs (2, 7) and (2, 15)."""

import torch
import torch.nn as nn

B, S, D = 2, 5, 7
REP = 3


class Model(nn.Module):
    def __init__(self, rep):
        super().__init__()
        self.rep = rep

    def forward(self, x, y, z):
        x_rep = x.repeat(1, self.rep, 1)
        n, s, d = x_rep.shape
        y_exp = y.expand(n, s, d)
        z_tile = torch.tile(z, (n, s, 1))
        w = x_rep * y_exp + z_tile
        # Distinguish the repeated copies so the reductions see different rows.
        w = w + torch.arange(s, device=x.device, dtype=x.dtype).view(1, s, 1) * 0.1
        return w.amax(dim=1), torch.logsumexp(w, dim=2)


def get_inputs():
    return [torch.randn(B, S, D), torch.randn(B, 1, D), torch.randn(1, 1, D)]


def get_init_inputs():
    return [REP]
