"""addmm / baddbmm scaling corners, F.linear on a 4-D input, F.bilinear.
addmm(inp, a, b, beta=0, alpha=-0.5): inp (13, 11) holds NaN and +-inf, which beta=0 must ignore
(not propagate); a (13, 21), b (21, 11) -> relu -> row sum (13,).
addmm(bias (11,) parameter, a, b, beta=1.5, alpha=0.25) (1-D input broadcast over rows) -> tanh.
baddbmm(binp (5, 1, 11) broadcast over rows, b1 (5, 7, 9), b2 (5, 9, 11), beta=0.7, alpha=1.3)
-> softmax(-1).
F.linear(x4 (2, 3, 5, 17), Wl (13, 17), bl (13,)) -> gelu -> mean over dim 1 (2, 5, 13).
F.bilinear(x1 (8, 7), x2 (8, 9), Wb (6, 7, 9), bb (6,)) -> tanh -> softmax(-1) (8, 6);
F.bilinear on 3-D inputs z1 (2, 5, 7), z2 (2, 5, 9) without bias -> row sum (2, 5).
Outputs: r1, r2, r3, r4, r5, r6."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, n_out, l_in, l_out, b_in1, b_in2, b_out):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(n_out))
        self.Wl = nn.Parameter(torch.randn(l_out, l_in) / l_in ** 0.5)
        self.bl = nn.Parameter(0.1 * torch.randn(l_out))
        self.Wb = nn.Parameter(torch.randn(b_out, b_in1, b_in2) / (b_in1 * b_in2) ** 0.5)
        self.bb = nn.Parameter(0.1 * torch.randn(b_out))

    def forward(self, inp, a, b, binp, b1, b2, x4, x1, x2, z1, z2):
        r1 = torch.relu(torch.addmm(inp, a, b, beta=0, alpha=-0.5)).sum(dim=1)
        r2 = torch.tanh(torch.addmm(self.bias, a, b, beta=1.5, alpha=0.25))
        r3 = torch.softmax(torch.baddbmm(binp, b1, b2, beta=0.7, alpha=1.3), dim=-1)
        r4 = F.gelu(F.linear(x4, self.Wl, self.bl)).mean(dim=1)
        r5 = torch.softmax(torch.tanh(F.bilinear(x1, x2, self.Wb, self.bb)), dim=-1)
        r6 = F.bilinear(z1, z2, self.Wb).sum(dim=-1)
        return r1, r2, r3, r4, r5, r6


def get_inputs():
    inp = torch.randn(13, 11)
    inp[0, 0] = float("nan")
    inp[3, 5] = float("inf")
    inp[7, :] = float("-inf")
    inp[12, 10] = float("nan")
    return [
        inp,
        torch.randn(13, 21),
        torch.randn(21, 11),
        torch.randn(5, 1, 11),
        torch.randn(5, 7, 9),
        torch.randn(5, 9, 11),
        torch.randn(2, 3, 5, 17),
        torch.randn(8, 7),
        torch.randn(8, 9),
        torch.randn(2, 5, 7),
        torch.randn(2, 5, 9),
    ]


def get_init_inputs():
    return [11, 17, 13, 7, 9, 6]
