"""nn.Linear (77, 48) -> 129, clamp(min=1e-3) so the log is defined, log, logsumexp(dim=-1,
keepdim=True) -> (77, 1), plus a per-row (77,) input vector r unsqueezed to (77, 1) (another input
read after the reduction). Output (77, 1)."""

import torch
import torch.nn as nn

N, D_IN, D_OUT = 77, 48, 129


class Model(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.fc = nn.Linear(d_in, d_out)

    def forward(self, x, r):
        z = torch.log(self.fc(x).clamp(min=1e-3))
        lse = torch.logsumexp(z, dim=-1, keepdim=True)
        return lse + r.unsqueeze(-1)


def get_inputs():
    return [torch.randn(N, D_IN), torch.randn(N)]


def get_init_inputs():
    return [D_IN, D_OUT]
