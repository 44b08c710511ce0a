"""float16 Kronecker-factored linear with triangular token mixing: float16 model and
float16 x (5, 7, 45). W = torch.kron(A (3, 5), Bf (7, 9)) (21, 45); y = x @ W.T + bias
(5, 7, 21); F.selu(y); token mixing M = torch.tril(S, diagonal=-1) + 0.1 *
torch.triu(S, diagonal=2) + I on a (7, 7) parameter S (diagonal and first superdiagonal of S
dropped); z = M @ y; second Kronecker product torch.kron(u (3,), v (7,)) (21,) scales z;
out = F.elu(z, alpha=0.5).
Outputs: float16 (5, 7, 21) and float16 row sums (5, 7)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T = 5, 7
A_OUT, A_IN = 3, 5
B_OUT, B_IN = 7, 9
D_IN, D_OUT = A_IN * B_IN, A_OUT * B_OUT


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.A = nn.Parameter(torch.randn(A_OUT, A_IN) / math.sqrt(A_IN))
        self.Bf = nn.Parameter(torch.randn(B_OUT, B_IN) / math.sqrt(B_IN))
        self.bias = nn.Parameter(0.1 * torch.randn(D_OUT))
        self.S = nn.Parameter(0.3 * torch.randn(T, T))
        self.u = nn.Parameter(1.0 + 0.2 * torch.randn(A_OUT))
        self.v = nn.Parameter(1.0 + 0.2 * torch.randn(B_OUT))
        self.half()

    def forward(self, x):
        W = torch.kron(self.A, self.Bf)
        y = F.selu(x @ W.t() + self.bias)
        eye = torch.eye(T, dtype=x.dtype, device=x.device)
        M = torch.tril(self.S, diagonal=-1) + 0.1 * torch.triu(self.S, diagonal=2) + eye
        z = (M @ y) * torch.kron(self.u, self.v)
        out = F.elu(z, alpha=0.5)
        return out, out.sum(dim=-1)


def get_inputs():
    return [torch.randn(B, T, D_IN).half()]


def get_init_inputs():
    return []
