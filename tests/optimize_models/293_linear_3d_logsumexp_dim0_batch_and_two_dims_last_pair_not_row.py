"""Not a row logsumexp: nn.Linear (40 -> 67, with bias) on a 3-D (5, 13, 40) input, then
torch.logsumexp(z, dim=0) over the batch dim (13, 67), torch.logsumexp(z, dim=(-2, -1)) over two
dims at once (5,), and on the 2-D view z.reshape(65, 67) torch.logsumexp(.., dim=0, keepdim=True)
(1, 67) over the rows.
Input x: (5, 13, 40); outputs (13, 67), (5,), (1, 67) as a tuple."""

import torch
import torch.nn as nn

B, T, D_IN, D_OUT = 5, 13, 40, 67


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        z = self.fc(x)
        a = torch.logsumexp(z, dim=0)
        b = torch.logsumexp(z, dim=(-2, -1))
        c = torch.logsumexp(z.reshape(-1, z.shape[-1]), dim=0, keepdim=True)
        return a, b, c


def get_inputs():
    return [torch.randn(B, T, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT]
