"""Compute-bound (two GEMMs, 97% of eager's time): each Linear is one Hopper GEMM with bias and
sigmoid in its epilogue, so the hidden activation is written once and never re-read for the
sigmoid, and the row logsumexp reads the 16384x1024 result once. The operands are converted to
fp16 after scaling each row by a power of two, then 'highest' runs three products of their hi
and lo halves with fp32 promotion and 'high' one product (TF32's 11 bits at twice its rate)."""

import torch.nn as nn

import kernelwright.ops as K


class ModelNew(nn.Module):
    def __init__(self, in_features, hidden, out_features):
        super().__init__()
        self.linear1 = nn.Linear(in_features, hidden)
        self.linear2 = nn.Linear(hidden, out_features)

    def forward(self, x):
        h = K.linear(x, self.linear1.weight, self.linear1.bias, "sigmoid")
        return K.logsumexp(K.linear(h, self.linear2.weight, self.linear2.bias), 1)
