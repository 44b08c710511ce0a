"""Tiny cross-attention written with bmm -> softmax -> bmm, odd head sizes (q/k head dim 7,
value head dim 9) and query length 13 != key length 17.
x = randn(3, 13, 35) (queries), ctx = randn(3, 17, 29) (keys / values), H = 5 heads.
q = Linear(35 -> 35)(x).view(3, 13, 5, 7).transpose(1, 2).reshape(15, 13, 7);
k = Linear(29 -> 35)(ctx) -> (15, 17, 7); v = Linear(29 -> 45)(ctx) -> (15, 17, 9);
s = torch.bmm(q, k.transpose(1, 2)) * 7 ** -0.5 (15, 13, 17), viewed as (3, 5, 13, 17) plus a
per-head (5, 1, 1) bias and a per-head per-key (5, 1, 17) bias, viewed back to (15, 13, 17);
p = softmax(s, dim=-1); o = torch.bmm(p, v) (15, 13, 9) -> view (3, 5, 13, 9).transpose(1, 2)
.reshape(3, 13, 45) -> Linear(45 -> 35) -> + x residual.
Outputs: out (3, 13, 35), p.view(3, 5, 13, 17).amax(dim=1) (3, 13, 17) (max prob over heads)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, d_model, d_ctx, heads, dqk, dv, keys):
        super().__init__()
        self.h, self.dqk, self.dv = heads, dqk, dv
        self.q = nn.Linear(d_model, heads * dqk)
        self.k = nn.Linear(d_ctx, heads * dqk)
        self.v = nn.Linear(d_ctx, heads * dv)
        self.o = nn.Linear(heads * dv, d_model)
        self.rel_bias = nn.Parameter(0.3 * torch.randn(heads, 1, 1))
        self.rel_bias_k = nn.Parameter(0.3 * torch.randn(heads, 1, keys))

    def forward(self, x, ctx):
        B, T, _ = x.shape
        S = ctx.shape[1]
        H, dqk, dv = self.h, self.dqk, self.dv
        q = self.q(x).view(B, T, H, dqk).transpose(1, 2).reshape(B * H, T, dqk)
        k = self.k(ctx).view(B, S, H, dqk).transpose(1, 2).reshape(B * H, S, dqk)
        v = self.v(ctx).view(B, S, H, dv).transpose(1, 2).reshape(B * H, S, dv)
        s = torch.bmm(q, k.transpose(1, 2)) * dqk ** -0.5
        s = (s.view(B, H, T, S) + self.rel_bias + self.rel_bias_k).view(B * H, T, S)
        p = torch.softmax(s, dim=-1)
        o = torch.bmm(p, v)
        o = o.view(B, H, T, dv).transpose(1, 2).reshape(B, T, H * dv)
        out = self.o(o) + x
        return out, p.view(B, H, T, S).amax(dim=1)


def get_inputs():
    return [torch.randn(3, 13, 35), torch.randn(3, 17, 29)]


def get_init_inputs():
    return [35, 29, 5, 7, 9, 17]
