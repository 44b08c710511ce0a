import torch.nn as nn

import kernelwright.ops as K


class ModelNew(nn.Module):
    def __init__(self, alpha: float = 1.0):
        super().__init__()
        self.alpha = alpha

    def forward(self, x):
        return K.elu(x, self.alpha)
