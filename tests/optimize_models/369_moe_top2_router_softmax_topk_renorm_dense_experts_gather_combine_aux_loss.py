"""Mixture-of-experts layer with a top-2 router, computed densely (capturable, no
data-dependent control flow): tokens (3, 11, 40) flattened to (33, 40); router nn.Linear(40 ->
4, no bias) logits, softmax(dim=-1) in float32, torch.topk(k=2, dim=-1), top-2 weights
renormalised to sum 1; all 4 experts (nn.Linear(40 -> 40) -> GELU each) computed and
torch.stack(dim=1) to (33, 4, 40); the two chosen experts' outputs picked with torch.gather
on the expert dim (index expanded to (33, 2, 40)) and summed with the weights; reshape back.
Switch-style load-balancing aux loss: E * sum(F.one_hot(top-1 index, 4).float().mean(0) *
probs.mean(0)). Input (3, 11, 40); outputs (3, 11, 40) and a 0-dim aux loss."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, DIM, NUM_EXPERTS, TOP_K = 3, 11, 40, 4, 2


class Expert(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.act = nn.GELU()

    def forward(self, x):
        return self.act(self.fc(x))


class Model(nn.Module):
    def __init__(self, dim, num_experts, top_k):
        super().__init__()
        self.num_experts = num_experts
        self.top_k = top_k
        self.router = nn.Linear(dim, num_experts, bias=False)
        self.experts = nn.ModuleList([Expert(dim) for _ in range(num_experts)])

    def forward(self, x):
        b, t, d = x.shape
        tokens = x.reshape(-1, d)
        logits = self.router(tokens)
        probs = F.softmax(logits, dim=-1, dtype=torch.float32)
        topk_w, topk_idx = torch.topk(probs, self.top_k, dim=-1)
        topk_w = topk_w / topk_w.sum(dim=-1, keepdim=True)
        expert_out = torch.stack([e(tokens) for e in self.experts], dim=1)  # (T, E, D)
        idx = topk_idx.unsqueeze(-1).expand(-1, -1, d)
        chosen = torch.gather(expert_out, 1, idx)  # (T, k, D)
        y = (chosen * topk_w.unsqueeze(-1).to(chosen.dtype)).sum(dim=1)
        frac = F.one_hot(topk_idx[:, 0], self.num_experts).float().mean(dim=0)
        aux = self.num_experts * torch.sum(frac * probs.mean(dim=0))
        return y.reshape(b, t, d), aux


def get_inputs():
    return [torch.randn(B, T, DIM)]


def get_init_inputs():
    return [DIM, NUM_EXPERTS, TOP_K]
