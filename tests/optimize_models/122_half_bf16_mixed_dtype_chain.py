"""Low-precision pointwise chains: float16 x of shape (4, 64, 48) (numel a multiple of 8)
times a float32 parameter (promotes to float32), then silu/tanh; bfloat16 y of shape
(5, 33, 7) (1155 elements, odd) with a bfloat16 per-channel parameter stays in bfloat16;
a float16 * bfloat16 product promotes to float32. Returns a tuple of three tensors."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, d, c):
        super().__init__()
        self.w32 = nn.Parameter(torch.randn(d) * 0.5 + 1.0)
        self.wbf = nn.Parameter((torch.randn(c, 1) * 0.5 + 1.0).to(torch.bfloat16))

    def forward(self, x16, ybf):
        h = x16 * self.w32                                   # float32
        h = F.silu(h + 0.1) - 0.5 * torch.tanh(h)
        g = ybf * self.wbf + 0.25                            # bfloat16
        g = torch.clamp(F.gelu(g) * 1.5, max=2.0) - ybf      # bfloat16
        m = x16[:2, :33, :7] * ybf[:2]                       # float16 * bfloat16 -> float32
        return h, g, torch.sigmoid(m) + h[:2, :33, :7]


def get_inputs():
    return [torch.randn(4, 64, 48).to(torch.float16), torch.randn(5, 33, 7).to(torch.bfloat16)]


def get_init_inputs():
    return [48, 33]
