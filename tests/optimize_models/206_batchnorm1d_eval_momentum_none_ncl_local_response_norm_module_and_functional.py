"""nn.BatchNorm1d(17, momentum=None) in eval mode on a (N, C, L) input (random running mean /
var in (0.5, 1.5), random affine, num_batches_tracked = 5; set in __init__ before .eval(), so
forward does not update buffers) -> ReLU -> nn.LocalResponseNorm(size=5, alpha=0.3, beta=0.75,
k=1.0) across channels of the 3-D tensor. Second input: F.local_response_norm on a 4-D
(N, C, H, W) tensor with an even size=4 (asymmetric window: 2 channels before, 1 after),
alpha=0.2, beta=0.6, k=1.5, times sigmoid of the input.
Inputs (3, 17, 29) and (2, 13, 11, 9); outputs (3, 17, 29) and (2, 13, 11, 9)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, L = 3, 17, 29
N2, C2, H2, W2 = 2, 13, 11, 9


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.bn = nn.BatchNorm1d(channels, momentum=None)
        with torch.no_grad():
            self.bn.running_mean.copy_(torch.randn(channels) * 0.3)
            self.bn.running_var.copy_(torch.rand(channels) + 0.5)
            self.bn.weight.copy_(torch.randn(channels) * 0.5 + 1.0)
            self.bn.bias.copy_(torch.randn(channels) * 0.2)
            self.bn.num_batches_tracked.fill_(5)
        self.lrn = nn.LocalResponseNorm(size=5, alpha=0.3, beta=0.75, k=1.0)
        self.eval()

    def forward(self, x, y):
        a = self.lrn(torch.relu(self.bn(x)))
        b = F.local_response_norm(y, size=4, alpha=0.2, beta=0.6, k=1.5) * torch.sigmoid(y)
        return a, b


def get_inputs():
    return [torch.randn(N, C, L), torch.randn(N2, C2, H2, W2)]


def get_init_inputs():
    return [C]
