"""Qwen2-MoE-style sparse block computed densely (every expert runs on every token).
x (3, 9, 24) -> tokens (27, 24). router Linear 24 -> 4 (no bias): logits (27, 4);
probs = softmax(logits, dim=1, dtype=float32); vals, idx = torch.topk(probs, 2, dim=-1);
wts = probs.gather(1, idx) / vals.sum(-1, keepdim=True) (norm_topk_prob, the gathered
probabilities equal vals); dense weights w = zeros(27, 4).scatter(1, idx, wts) (0 for
unchosen experts).
Experts: 4 SwiGLU MLPs (gate/up Linear 24 -> 20 no bias, down 20 -> 24 no bias);
out = sum_e w[:, e:e+1] * expert_e(x) (dense; a token not routed to e gets weight 0).
Shared expert (SwiGLU 24 -> 32 -> 24) gated by sigmoid(Linear 24 -> 1 no bias), added.
expert_mask = F.one_hot(idx, 4) (27, 2, 4) int64; counts = expert_mask.sum(dim=(0, 1)) int64 (4,);
load-balancing aux = 4 * sum(expert_mask.float().mean(0) * probs.mean(0)[None]) (0-dim).
Outputs: out (3, 9, 24), aux 0-dim float32, counts int64 (4,)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D = 3, 9, 24
E, TOPK, FF, SHARED_FF = 4, 2, 20, 32


class SwiGLU(nn.Module):
    def __init__(self, d, ff):
        super().__init__()
        self.gate_proj = nn.Linear(d, ff, bias=False)
        self.up_proj = nn.Linear(d, ff, bias=False)
        self.down_proj = nn.Linear(ff, d, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.gate = nn.Linear(D, E, bias=False)
        self.experts = nn.ModuleList([SwiGLU(D, FF) for _ in range(E)])
        self.shared_expert = SwiGLU(D, SHARED_FF)
        self.shared_expert_gate = nn.Linear(D, 1, bias=False)

    def forward(self, hidden):
        b, t, d = hidden.shape
        x = hidden.view(-1, d)
        router_logits = self.gate(x)
        probs = F.softmax(router_logits, dim=1, dtype=torch.float)
        vals, idx = torch.topk(probs, TOPK, dim=-1)
        wts = probs.gather(1, idx) / vals.sum(dim=-1, keepdim=True)
        wts = wts.to(x.dtype)
        w = torch.zeros_like(router_logits).scatter(1, idx, wts)
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            out = out + w[:, e:e + 1] * expert(x)
        shared = torch.sigmoid(self.shared_expert_gate(x)) * self.shared_expert(x)
        out = out + shared
        expert_mask = F.one_hot(idx, num_classes=E)
        counts = expert_mask.sum(dim=(0, 1))
        tokens_per_expert = expert_mask.float().mean(dim=0)
        aux = E * torch.sum(tokens_per_expert * probs.mean(dim=0)[None, :])
        return out.view(b, t, d), aux, counts


def get_inputs():
    return [torch.randn(B, T, D)]


def get_init_inputs():
    return []
