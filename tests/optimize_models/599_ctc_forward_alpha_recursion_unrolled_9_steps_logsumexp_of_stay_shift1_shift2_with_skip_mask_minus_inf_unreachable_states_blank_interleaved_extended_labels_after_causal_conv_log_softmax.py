"""CTC loss by the forward (alpha) recursion written by hand, unrolled over 9 time steps.
x = randn(2, 5, 9) (batch, channels, time), targets = randint(1, 6, (2, 3)) int64; blank = 0.
Encoder: F.pad(x, (2, 0)) -> Conv1d(5 -> 6, k3) (causal) -> transpose -> log_softmax over the
6 classes: lp (2, 9, 6).
Extended labels ext = [0, y1, 0, y2, 0, y3, 0] (2, 7) built with stack / reshape / cat;
lpe = lp.gather(2, ext[:, None, :].expand(2, 9, 7)) (2, 9, 7).
skip[s] = (s >= 2) & (ext[s] != 0) & (ext[s] != ext[s - 2]) (bool (2, 7)).
alpha_0 = lpe[:, 0] on states 0 and 1, -inf elsewhere; per step
alpha = logsumexp(stack([alpha, shift1(alpha), where(skip, shift2(alpha), -inf)]), 0) + lpe[:, t]
where shiftk pads k columns of -inf on the left. Unreachable states stay -inf (logsumexp over
all -inf gives -inf, not NaN).
loss = -logsumexp(alpha[:, -2:], -1) (2,) (equal to F.ctc_loss(reduction='none')).
Outputs: loss (2,), all alphas stacked over time (2, 9, 7) (the first steps hold -inf),
lp (2, 9, 6)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, C, T, V, S = 2, 5, 9, 6, 3


class Model(nn.Module):
    def __init__(self, channels, classes):
        super().__init__()
        self.conv = nn.Conv1d(channels, classes, 3)

    def forward(self, x, targets):
        b = x.shape[0]
        lp = F.log_softmax(self.conv(F.pad(x, (2, 0))).transpose(1, 2), dim=-1)
        t = lp.shape[1]
        blanks = torch.zeros_like(targets)
        ext = torch.stack([blanks, targets], dim=-1).reshape(b, -1)
        ext = torch.cat([ext, blanks[:, :1]], dim=-1)
        n = ext.shape[1]
        lpe = lp.gather(2, ext[:, None, :].expand(b, t, n))
        same = torch.cat([torch.ones_like(ext[:, :2], dtype=torch.bool), ext[:, 2:] == ext[:, :-2]], dim=-1)
        skip = (ext != 0) & ~same
        neg = torch.full_like(lpe[:, 0], float("-inf"))
        alpha = torch.cat([lpe[:, 0, :2], neg[:, 2:]], dim=-1)
        alphas = [alpha]
        for step in range(1, t):
            a1 = torch.cat([neg[:, :1], alpha[:, :-1]], dim=-1)
            a2 = torch.cat([neg[:, :2], alpha[:, :-2]], dim=-1)
            a2 = torch.where(skip, a2, neg)
            alpha = torch.logsumexp(torch.stack([alpha, a1, a2], dim=0), dim=0) + lpe[:, step]
            alphas.append(alpha)
        loss = -torch.logsumexp(alpha[:, -2:], dim=-1)
        return loss, torch.stack(alphas, dim=1), lp


def get_inputs():
    return [torch.randn(B, C, T), torch.randint(1, V, (B, S))]


def get_init_inputs():
    return [C, V]
