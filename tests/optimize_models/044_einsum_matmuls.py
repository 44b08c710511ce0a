"""einsum spelled matmuls: 'bij,bjk->bik' batched and 'ik,kj->ij' plain, followed by a
relu6 and a row softmax."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, I, J, K = 5, 31, 57, 43


class Model(nn.Module):
    def __init__(self, k, n):
        super().__init__()
        self.w = nn.Parameter(torch.randn(k, n) / k ** 0.5)

    def forward(self, a, b, x):
        y = torch.einsum("bij,bjk->bik", a, b)
        z = torch.einsum("ik,kj->ij", x, self.w)
        return F.relu6(y), torch.softmax(z, dim=-1)


def get_inputs():
    return [torch.randn(B, I, J), torch.randn(B, J, K), torch.randn(101, 64)]


def get_init_inputs():
    return [64, 81]
