"""Memory-bound: 16 rows of 4M elements are too few to fill the GPU a block per row, so each row
is split across blocks that fold their chunk into a shifted-Welford (count, shift, mean, M2)
state in a small workspace, then merge the row's states and re-read their chunk to write
(x - mean) * rstd * weight + bias: two reads and one write per element."""

import torch.nn as nn

import kernelwright.ops as K


class ModelNew(nn.Module):
    def __init__(self, normalized_shape):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)

    def forward(self, x):
        return K.layer_norm(x, self.ln.normalized_shape, self.ln.weight, self.ln.bias, self.ln.eps)
