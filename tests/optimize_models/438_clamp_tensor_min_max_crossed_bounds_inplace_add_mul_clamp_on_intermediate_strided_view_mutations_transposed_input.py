"""In-place ops on intermediates, including mutations through strided views, fed by
clamp with tensor bounds. x = randn(33, 45).t() (45, 33) non-contiguous from get_inputs;
lo (33,) parameter, hi (45, 1) input (some lo > hi: clamp gives hi there).
c = torch.clamp(x, min=lo, max=hi); h = c * 1.5; h.add_(bias); h[:, ::3].mul_(-0.5)
(every third column through a step-sliced view); h.narrow(1, 2, 7).add_(x[:, 2:9])
(a narrow view plus a slice of the transposed input); h.clamp_(-1.2, 1.4);
g = h.clone(); g.sub_(x).mul_(scale); torch.relu_(g); h.t()[5:11].zero_() (rows of the
transposed view, i.e. columns 5..10 of h, zeroed after g was cloned).
Outputs: h (45, 33) after all mutations, g (45, 33) and g.sum(1) (45,)."""

import torch
import torch.nn as nn

R, C = 45, 33


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lo = nn.Parameter(torch.rand(C) * -1.0)
        self.bias = nn.Parameter(torch.randn(C) * 0.3)
        self.scale = nn.Parameter(torch.tensor(0.8))

    def forward(self, x, hi):
        c = torch.clamp(x, min=self.lo, max=hi)
        h = c * 1.5
        h.add_(self.bias)
        h[:, ::3].mul_(-0.5)
        h.narrow(1, 2, 7).add_(x[:, 2:9])
        h.clamp_(-1.2, 1.4)
        g = h.clone()
        g.sub_(x).mul_(self.scale)
        torch.relu_(g)
        h.t()[5:11].zero_()
        return h, g, g.sum(dim=1)


def get_inputs():
    x = torch.randn(C, R).t()
    hi = torch.randn(R, 1) * 0.5 + 0.3
    return [x, hi]


def get_init_inputs():
    return []
