"""Look-alike, should NOT fuse into the GEMM epilogue as-is: nn.Linear without bias (97, 64) -> 37,
torch.logsumexp(dim=-1, keepdim=True) giving (97, 1), then a residual that reads ANOTHER full-size
(97, 37) input r broadcast against the reduced column: relu(lse * 0.25 + r) - r * 0.5. The output
is full-size but depends on the GEMM only through the reduced rows.
Inputs x (97, 64) and r (97, 37); output (97, 37)."""

import torch
import torch.nn as nn

B, D_IN, D_OUT = 97, 64, 37


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features, bias=False)

    def forward(self, x, r):
        lse = torch.logsumexp(self.fc(x), dim=-1, keepdim=True)
        return torch.relu(lse * 0.25 + r) - r * 0.5


def get_inputs():
    return [torch.randn(B, D_IN), torch.randn(B, D_OUT) * 2.0]


def get_init_inputs():
    return [D_IN, D_OUT]
