"""Matmul outputs transposed before a row softmax: s = q @ k^T * scale -> (B, Tq, Tk),
s.transpose(1, 2) -> (B, Tk, Tq) softmax over the last dim (each key distributes over queries),
@ q -> (B, Tk, D); and a 2-D x @ W (29 -> 13) whose (13, 37) transpose gets softmax(dim=-1)
over the 37 rows of the batch, then @ x -> (13, 29) pooled prototypes. Also
log_softmax(dim=-1) of s itself, reduced by amax over dims (0, 2).
Inputs q: (3, 13, 11), k: (3, 17, 11), x: (37, 29); outputs (3, 17, 11), (13, 29), (13,)."""

import torch
import torch.nn as nn

B, TQ, TK, D = 3, 13, 17, 11
N, F_IN, P = 37, 29, 13


class Model(nn.Module):
    def __init__(self, f_in, protos, d):
        super().__init__()
        self.w = nn.Parameter(torch.randn(f_in, protos) / f_in ** 0.5)
        self.scale = d ** -0.5

    def forward(self, q, k, x):
        s = torch.matmul(q, k.transpose(-2, -1)) * self.scale     # (B, TQ, TK)
        p = torch.softmax(s.transpose(1, 2), dim=-1)              # (B, TK, TQ)
        kv = torch.bmm(p, q)                                       # (B, TK, D)
        a = torch.mm(x, self.w)                                    # (N, P)
        pa = torch.softmax(a.t(), dim=-1)                          # (P, N)
        protos = pa @ x                                            # (P, F)
        lq = torch.log_softmax(s, dim=-1).amax(dim=(0, 2))         # (TQ,)
        return kv, protos, lq


def get_inputs():
    return [torch.randn(B, TQ, D), torch.randn(B, TK, D), torch.randn(N, F_IN)]


def get_init_inputs():
    return [F_IN, P, D]
