"""layer_norm / group_norm / instance_norm / batch_norm over shapes with a size-1 dim.
x (5, 1, 13), y (4, 7, 1), g (3, 6, 1, 11), h (2, 4, 1), i (1, 5, 1, 17), i3 (3, 4, 1, 1, 7),
bt (1, 7, 1, 9), be (5, 3, 1), all randn.
l1 = F.layer_norm(x, (1, 13), w1, b1) (normalized shape includes the size-1 dim, (1, 13) affine);
l2 = nn.LayerNorm(1)(y) (normalized over a single element: x - mean is exactly 0, output = bias);
g1 = F.group_norm(g, 3, wg, bg) (groups of 2 channels x 1 x 11), g2 = F.group_norm(h, 2) (groups of
2 channels x length 1, no affine);
n1 = F.instance_norm(i, weight=wi, bias=bi) (N = 1, H = 1), n2 = F.instance_norm(i3) (5-D, D = H = 1);
b1 = F.batch_norm(bt, None, None, wb, bb, training=True) (batch statistics over N = 1, H = 1, W = 9;
no running buffers, nothing updated);
b2 = F.batch_norm(be, rm, rv, we, beb, training=False) (eval with registered running buffers,
(N, C, 1) input), b3 = F.batch_norm(be, None, None, training=True) (statistics over N = 5, L = 1).
Outputs: l1, l2, g1, g2, n1, n2, b1, b2, b3."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.w1 = nn.Parameter(torch.randn(1, 13) * 0.5 + 1.0)
        self.b1 = nn.Parameter(torch.randn(1, 13) * 0.1)
        self.ln = nn.LayerNorm(1)
        with torch.no_grad():
            self.ln.weight.fill_(1.3)
            self.ln.bias.copy_(torch.tensor([0.25]))
        self.wg = nn.Parameter(torch.randn(6) * 0.5 + 1.0)
        self.bg = nn.Parameter(torch.randn(6) * 0.1)
        self.wi = nn.Parameter(torch.randn(5) * 0.5 + 1.0)
        self.bi = nn.Parameter(torch.randn(5) * 0.1)
        self.wb = nn.Parameter(torch.randn(7) * 0.5 + 1.0)
        self.bb = nn.Parameter(torch.randn(7) * 0.1)
        self.we = nn.Parameter(torch.randn(3) * 0.5 + 1.0)
        self.beb = nn.Parameter(torch.randn(3) * 0.1)
        self.register_buffer("rm", torch.randn(3) * 0.2)
        self.register_buffer("rv", torch.rand(3) + 0.5)

    def forward(self, x, y, g, h, i, i3, bt, be):
        l1 = F.layer_norm(x, (1, 13), self.w1, self.b1)
        l2 = self.ln(y)
        g1 = F.group_norm(g, 3, self.wg, self.bg)
        g2 = F.group_norm(h, 2)
        n1 = F.instance_norm(i, weight=self.wi, bias=self.bi)
        n2 = F.instance_norm(i3)
        b1 = F.batch_norm(bt, None, None, self.wb, self.bb, training=True)
        b2 = F.batch_norm(be, self.rm, self.rv, self.we, self.beb, training=False)
        b3 = F.batch_norm(be, None, None, training=True)
        return l1, l2, g1, g2, n1, n2, b1, b2, b3


def get_inputs():
    return [torch.randn(5, 1, 13), torch.randn(4, 7, 1), torch.randn(3, 6, 1, 11),
            torch.randn(2, 4, 1), torch.randn(1, 5, 1, 17), torch.randn(3, 4, 1, 1, 7),
            torch.randn(1, 7, 1, 9), torch.randn(5, 3, 1)]


def get_init_inputs():
    return []
