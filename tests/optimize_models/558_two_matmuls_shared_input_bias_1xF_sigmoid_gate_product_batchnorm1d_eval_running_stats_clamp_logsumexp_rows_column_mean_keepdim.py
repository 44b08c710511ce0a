"""Two 2-D matmul anchors on the same input forming a sigmoid-gated unit, then eval batch
norm, a clamp and row / column reductions.
x = randn(29, 41); W, Wg (41, 31) parameters.
h = x @ W + (1, 31) bias; g = sigmoid(x @ Wg + (1, 31) gate bias); y = h * g;
y = BatchNorm1d(31) (eval, random running mean / var and affine) -> clamp(-1.0, 1.5);
out = logsumexp(y, dim=1) (29,); col = y.mean(dim=0, keepdim=True) (1, 31).
The model is put in eval mode in __init__.
Outputs: out (29,), col (1, 31)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.w = nn.Parameter(torch.randn(d_in, d_out) / d_in ** 0.5)
        self.b = nn.Parameter(0.1 * torch.randn(1, d_out))
        self.wg = nn.Parameter(torch.randn(d_in, d_out) / d_in ** 0.5)
        self.bg = nn.Parameter(0.1 * torch.randn(1, d_out))
        self.bn = nn.BatchNorm1d(d_out)
        with torch.no_grad():
            self.bn.running_mean.copy_(0.2 * torch.randn(d_out))
            self.bn.running_var.copy_(0.3 + torch.rand(d_out))
            self.bn.weight.copy_(1.0 + 0.2 * torch.randn(d_out))
            self.bn.bias.copy_(0.1 * torch.randn(d_out))
        self.eval()

    def forward(self, x):
        h = torch.matmul(x, self.w) + self.b
        g = torch.sigmoid(torch.matmul(x, self.wg) + self.bg)
        y = torch.clamp(self.bn(h * g), -1.0, 1.5)
        return torch.logsumexp(y, dim=1), y.mean(dim=0, keepdim=True)


def get_inputs():
    return [torch.randn(29, 41)]


def get_init_inputs():
    return [41, 31]
