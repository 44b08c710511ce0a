"""Size-1 dims in the middle of 5-D and 3-D tensors, reduced both over the size-1 dims and over
the others. x: (7, 1, 13, 1, 5): sum over the size-1 dims (1, 3) -> (7, 13, 5) (a pure reshape),
amax over dim 3 keepdim, softmax over size-1 dim 1 (all ones), mean over dims (0, 2, 4) keepdim
-> (1, 1, 1, 1, 1), var over (-5, -3) unbiased=False keepdim -> (1, 1, 1, 1, 5).
y: (11, 1, 17): logsumexp over the size-1 dim 1 (= y), std over dims (0, 2) keepdim (-> (1, 1, 1)),
and a (1, 1, 17) parameter; combined outputs.
Inputs x: (7, 1, 13, 1, 5), y: (11, 1, 17); outputs (7, 13, 5), (7, 1, 13, 1, 5), (11, 17)."""

import torch
import torch.nn as nn

A, B, C = 7, 13, 5
P, Q = 11, 17


class Model(nn.Module):
    def __init__(self, c, q):
        super().__init__()
        self.wx = nn.Parameter(torch.randn(1, 1, 1, 1, c))
        self.wy = nn.Parameter(torch.randn(1, 1, q))

    def forward(self, x, y):
        xs = x.sum(dim=(1, 3))                                    # (7, 13, 5)
        xa = x.amax(dim=3, keepdim=True)                          # (7, 1, 13, 1, 5)
        sm = torch.softmax(x * self.wx, dim=1)                    # all ones
        mall = x.mean(dim=(0, 2, 4), keepdim=True)                # (1, 1, 1, 1, 1)
        v = x.var(dim=(-5, -3), keepdim=True, unbiased=False)     # (1, 1, 1, 1, 5)
        out5 = (xa - mall) * torch.rsqrt(v + 1e-5) * sm + self.wx
        out3 = xs * torch.sigmoid(out5.squeeze(3).squeeze(1))
        ly = torch.logsumexp(y, dim=1)                            # (11, 17)
        sy = y.std(dim=(0, 2), keepdim=True)                      # (1, 1, 1)
        outy = ly / sy.squeeze(1) + (y * self.wy).amin(dim=1)
        return out3, out5, outy


def get_inputs():
    return [torch.randn(A, 1, B, 1, C), torch.randn(P, 1, Q) * 1.5]


def get_init_inputs():
    return [C, Q]
