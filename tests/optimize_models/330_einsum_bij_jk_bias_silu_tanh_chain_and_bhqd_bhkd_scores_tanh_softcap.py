"""torch.einsum GEMMs followed by pointwise chains: einsum('bij,jk->bik') of (5, 33, 47) with a
(47, 65) parameter, + (65,) bias, silu, * 1.3, tanh, - 0.1 * (pre-activation); and
einsum('bhqd,bhkd->bhqk') of q (2, 3, 17, 15) with k (2, 3, 19, 15) (query length != key length),
* 15 ** -0.5, tanh soft-capping 5 * tanh(s / 5), + a (19,) per-key parameter bias. Two outputs
(5, 33, 65) and (2, 3, 17, 19)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, I, J, K = 5, 33, 47, 65
BH, NH, TQ, TK, DH = 2, 3, 17, 19, 15


class Model(nn.Module):
    def __init__(self, j, k, tk, dh, cap):
        super().__init__()
        self.w = nn.Parameter(torch.randn(j, k) * j ** -0.5)
        self.b = nn.Parameter(torch.randn(k) * 0.1)
        self.key_bias = nn.Parameter(torch.randn(tk) * 0.2)
        self.scale = dh ** -0.5
        self.cap = cap

    def forward(self, x, q, k):
        z = torch.einsum("bij,jk->bik", x, self.w) + self.b
        y = torch.tanh(F.silu(z) * 1.3) - 0.1 * z
        s = torch.einsum("bhqd,bhkd->bhqk", q, k) * self.scale
        s = self.cap * torch.tanh(s / self.cap) + self.key_bias
        return y, s


def get_inputs():
    return [torch.randn(B, I, J), torch.randn(BH, NH, TQ, DH), torch.randn(BH, NH, TK, DH)]


def get_init_inputs():
    return [J, K, TK, DH, 5.0]
