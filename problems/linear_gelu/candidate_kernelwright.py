"""Compute-bound: one Hopper GEMM whose epilogue adds the bias and applies the exact (erf) GELU,
so the 512 MB pre-activation is never written and re-read as eager does."""

import torch.nn as nn

import kernelwright.ops as K


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        return K.linear(x, self.fc.weight, self.fc.bias, "gelu")
