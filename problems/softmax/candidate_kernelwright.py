"""Memory-bound: rows of 1.5 MB fit no SM's shared memory, so a block per row folds its row into
an online (max, sum of exp) state in one read and reads it again to write exp(x - max) / sum:
two reads and one write per element, with 16-byte loads."""

import torch.nn as nn

import kernelwright.ops as K


class ModelNew(nn.Module):
    def forward(self, x):
        return K.softmax(x, 1)
