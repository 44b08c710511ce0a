"""Top-1 selection without sort or argmax: logits = x @ W1^T + b1 (Linear 37 -> 29), where x,
W1 and b1 hold small integers stored as float32 (|logit| <= 222, so the GEMM is exact in
float32, TF32 and float16 accumulation to float32), m = logits.amax(dim=-1, keepdim=True),
hot = (logits == m).float() (exact float equality; integer logits tie often, 2 to 5 of 23 rows
per draw, and rows 3 and 7 of W1 and b1 are identical so class 3 never wins alone; a row may
have several ones), normalised by its row count, then
hot @ E with a float (29, 17) table, plus the max logit; second output is the int64 number
of ties per row (logits == m).sum(-1).
Inputs x: (23, 37) integer-valued float32 in [-3, 3]; outputs (23, 17) float32 and (23,) int64."""

import torch
import torch.nn as nn

M, K, N, D = 23, 37, 29, 17


class Model(nn.Module):
    def __init__(self, in_features, classes, embed_dim):
        super().__init__()
        w = torch.randint(-2, 3, (classes, in_features)).float()
        b = torch.randint(-3, 4, (classes,)).float()
        w[7] = w[3]
        b[7] = b[3]
        self.w1 = nn.Parameter(w)
        self.b1 = nn.Parameter(b)
        self.table = nn.Parameter(torch.randn(classes, embed_dim))

    def forward(self, x):
        logits = torch.nn.functional.linear(x, self.w1, self.b1)
        m = logits.amax(dim=-1, keepdim=True)
        is_max = logits == m
        hot = is_max.float()
        hot = hot / hot.sum(dim=-1, keepdim=True)
        out = hot @ self.table + 0.01 * m
        return out, is_max.sum(dim=-1)


def get_inputs():
    return [torch.randint(-3, 4, (M, K)).float()]


def get_init_inputs():
    return [K, N, D]
