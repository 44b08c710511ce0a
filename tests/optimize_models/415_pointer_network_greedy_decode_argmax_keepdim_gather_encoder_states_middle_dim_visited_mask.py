"""Pointer network (Vinyals et al. 2015; Bello et al. 2016 logit clipping), greedy decoding
unrolled for 4 steps. Encoder input randn(3, 24, 13).transpose(1, 2) (3, 13, 24) non-contiguous
-> enc = tanh(Linear 24 -> 24); keys ke = Linear 24 -> 24 (no bias) of enc; decoder state d0
(3, 24). Each step: u = tanh(ke + Linear(d)[:, None]) @ v (24,), u = 10 * tanh(u), masked_fill of
already visited positions with -inf, log_softmax over the 13 positions, idx =
argmax(dim=-1, keepdim=True) (3, 1) int64, picked log-probability logp.gather(1, idx), picked
encoder state enc.gather(1, idx[:, :, None].expand(3, 1, 24)) (gather along the middle dim),
visited |= (arange(13)[None] == idx), d = tanh(Linear 48 -> 24 of cat([d, picked])).
Outputs the step probabilities exp(logp) (3, 4, 13) (visited entries exactly 0), the chosen
int64 indices (3, 4), the summed picked log-probabilities (3,) and the picked states
(3, 4, 24)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, STEPS = 3, 13, 24, 4


class Model(nn.Module):
    def __init__(self, dim, steps):
        super().__init__()
        self.steps = steps
        self.enc = nn.Linear(dim, dim)
        self.w_enc = nn.Linear(dim, dim, bias=False)
        self.w_dec = nn.Linear(dim, dim)
        self.v = nn.Parameter(torch.randn(dim) * 0.5)
        self.upd = nn.Linear(2 * dim, dim)

    def forward(self, x, d):
        b, t, dim = x.shape
        enc = torch.tanh(self.enc(x))
        ke = self.w_enc(enc)
        pos = torch.arange(t, device=x.device)
        visited = torch.zeros(b, t, dtype=torch.bool, device=x.device)
        probs, idxs, picked_lp, picked_states = [], [], [], []
        for _ in range(self.steps):
            u = torch.tanh(ke + self.w_dec(d)[:, None, :]) @ self.v
            u = 10.0 * torch.tanh(u)
            u = u.masked_fill(visited, float("-inf"))
            logp = F.log_softmax(u, dim=-1)
            idx = logp.argmax(dim=-1, keepdim=True)
            picked_lp.append(logp.gather(1, idx))
            picked = enc.gather(1, idx[:, :, None].expand(b, 1, dim)).squeeze(1)
            picked_states.append(picked)
            probs.append(logp.exp())
            idxs.append(idx)
            visited = visited | (pos[None, :] == idx)
            d = torch.tanh(self.upd(torch.cat([d, picked], dim=-1)))
        return (torch.stack(probs, dim=1), torch.cat(idxs, dim=1),
                torch.cat(picked_lp, dim=1).sum(dim=1), torch.stack(picked_states, dim=1))


def get_inputs():
    return [torch.randn(B, D, T).transpose(1, 2), torch.randn(B, D)]


def get_init_inputs():
    return [D, STEPS]
