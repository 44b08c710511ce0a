"""float16 and bfloat16 inputs (not casts made in forward) through reductions where the result
dtype matters: float16 x.sum(dim=-1) stays float16, x.sum(dim=-1, dtype=torch.float32) is
float32, x.mean(dim=0) float16, softmax(x) float16 and softmax(x, dtype=torch.float32);
bfloat16 y (9, 7, 29) (a permuted view of a (9, 29, 7) tensor): F.layer_norm over the last
dim with float32 parameters cast to bfloat16, times sigmoid(y), mean over dim 1 (bfloat16),
y.float().var(dim=-1). Inputs x (11, 37) float16, y (9, 7, 29) bfloat16; outputs (11,)
float32, (11, 37) float16, (9, 7, 29) bfloat16, (9, 29) bfloat16, (9, 7) float32."""

import torch
import torch.nn as nn
import torch.nn.functional as F

R, K = 11, 37
B, T, D = 9, 7, 29


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(1.0 + 0.2 * torch.randn(dim))
        self.bias = nn.Parameter(0.1 * torch.randn(dim))

    def forward(self, x, y):
        s16 = x.sum(dim=-1)                                   # float16
        s32 = x.sum(dim=-1, dtype=torch.float32)              # float32
        m16 = x.mean(dim=0)                                   # float16
        p16 = torch.softmax(x, dim=-1)                        # float16
        p32 = torch.softmax(x, dim=-1, dtype=torch.float32)   # float32
        score = (p32 * x.float()).sum(dim=-1) + 0.05 * (s32 - s16.float()) + 0.01 * s32
        p_out = p16 * (x - m16)                               # float16
        ln = F.layer_norm(y, (D,), self.weight.to(y.dtype), self.bias.to(y.dtype), 1e-5)
        ln_out = ln * torch.sigmoid(y)                        # bfloat16
        ln_mean = ln_out.mean(dim=1)                          # bfloat16
        yvar = y.float().var(dim=-1)                          # float32
        return score, p_out, ln_out, ln_mean, yvar


def get_inputs():
    x = torch.randn(R, K).to(torch.float16)
    y = torch.randn(B, D, T).to(torch.bfloat16).permute(0, 2, 1)
    return [x, y]


def get_init_inputs():
    return [D]
