import torch.nn as nn

import kernelwright.ops as K


class ModelNew(nn.Module):
    def forward(self, x):
        return K.logsumexp(x, 1)
