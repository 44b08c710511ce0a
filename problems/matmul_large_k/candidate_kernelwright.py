"""Compute-bound with only four 128x128 output tiles: the Hopper GEMM's stream-K schedule shares
the 131072-long k loop among all SMs and reduces the partial tiles in fp32."""

import torch.nn as nn

import kernelwright.ops as K


class ModelNew(nn.Module):
    def forward(self, a, b):
        return K.linear(a, b.t())
