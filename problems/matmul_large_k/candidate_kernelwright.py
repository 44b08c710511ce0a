"""Compute-bound with only four 128x128 output tiles: under 'highest' the Hopper GEMM's stream-K
schedule shares the 131072-long k loop among all SMs (b is read transposed by the split pass);
under 'high' the transposed b sends the product to cuBLAS."""

import torch.nn as nn

import kernelwright.ops as K


class ModelNew(nn.Module):
    def forward(self, a, b):
        return K.linear(a, b.t())
