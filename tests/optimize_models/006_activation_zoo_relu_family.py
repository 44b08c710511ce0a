"""ReLU-family activations summed: relu, leaky_relu, elu, selu, celu, relu6 and threshold."""

import torch
import torch.nn as nn
import torch.nn.functional as F

SHAPE = (5, 23, 97)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.leaky = nn.LeakyReLU(0.07)
        self.celu = nn.CELU(alpha=1.3)

    def forward(self, x):
        y = F.relu(x) + self.leaky(x)
        y = y + F.elu(x, alpha=0.9) + F.selu(x)
        y = y + self.celu(x) + F.relu6(x * 4.0)
        y = y + F.threshold(x, 0.2, -1.0)
        return y


def get_inputs():
    return [torch.randn(*SHAPE) * 3.0]


def get_init_inputs():
    return []
