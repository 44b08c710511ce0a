import torch.nn as nn

import kernelwright.ops as K


class ModelNew(nn.Module):
    def forward(self, a, b):
        return K.add(a, b)
