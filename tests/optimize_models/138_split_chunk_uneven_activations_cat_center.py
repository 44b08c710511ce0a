"""torch.split of the channel dim into uneven pieces [3, 5, 2, 1] and torch.chunk of the
5-channel piece into 3 uneven chunks (2, 2, 1), a different activation on each piece
(relu, tanh, sigmoid, silu, gelu, elu, softplus), torch.cat back to 11 channels, then the mean
over the last dim (keepdim) subtracted to centre each row.
Input x: (3, 11, 7, 17); output (3, 11, 7, 17)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 3, 11, 7, 17


class Model(nn.Module):
    def __init__(self, sizes):
        super().__init__()
        self.sizes = list(sizes)

    def forward(self, x):
        a, b, c, d = torch.split(x, self.sizes, dim=1)
        b0, b1, b2 = torch.chunk(b, 3, dim=1)
        pieces = [
            F.relu(a),
            torch.tanh(b0),
            torch.sigmoid(b1) * 2.0,
            F.silu(b2),
            F.gelu(c),
            F.elu(d) + F.softplus(d),
        ]
        y = torch.cat(pieces, dim=1)
        return y - y.mean(dim=-1, keepdim=True)


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [[3, 5, 2, 1]]
