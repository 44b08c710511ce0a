"""MLP block: bias-free Linear, batch-statistics normalisation written with F.batch_norm
(training=True, no running buffers, so nothing is updated), softplus, eval dropout, a second
Linear with a residual of the block input, and a log-softmax reduced over rows.
x = randn(17, 45).
h = Linear(45 -> 63, bias=False)(x); h = F.batch_norm(h, None, None, gamma, beta,
training=True, eps=1e-3) (mean / biased var over the 17 rows) -> softplus -> Dropout(0.25)
(eval, identity); y = (Linear(63 -> 45)(h) + x) / divisor (Python float 1.9) ->
log_softmax(dim=1); out = y.mean(dim=0) (45,).
The model is put in eval mode in __init__.
Outputs: out (45,), y.amax(dim=1) (17,)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, d, hidden, divisor):
        super().__init__()
        self.fc1 = nn.Linear(d, hidden, bias=False)
        self.gamma = nn.Parameter(1.0 + 0.2 * torch.randn(hidden))
        self.beta = nn.Parameter(0.1 * torch.randn(hidden))
        self.drop = nn.Dropout(0.25)
        self.fc2 = nn.Linear(hidden, d)
        self.divisor = divisor
        self.eval()

    def forward(self, x):
        h = F.batch_norm(self.fc1(x), None, None, self.gamma, self.beta, training=True, eps=1e-3)
        h = self.drop(F.softplus(h))
        y = (self.fc2(h) + x) / self.divisor
        y = F.log_softmax(y, dim=1)
        return y.mean(dim=0), y.amax(dim=1)


def get_inputs():
    return [torch.randn(17, 45)]


def get_init_inputs():
    return [45, 63, 1.9]
