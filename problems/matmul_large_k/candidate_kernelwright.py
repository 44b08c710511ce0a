"""Thin (256 x 256 outputs, k = 131072): at every precision the product goes to cuBLAS, as
eager's does. A split 'highest' GEMM would first move 14 bytes per operand element, more than its
faster tensor-core pass saves at m*n/(m+n) = 128 (measured in
benchmarks/results/gemm_split_crossover_*); under 'high' b, which is not k-major, goes to cuBLAS,
which reads it natively. Nothing around the product to fuse: this problem checks that routing and
that the call adds little host time to a 0.13 ms product (K.matmul takes b as it is, where
K.linear would need b.t() from Python)."""

import torch.nn as nn

import kernelwright.ops as K


class ModelNew(nn.Module):
    def forward(self, a, b):
        return K.matmul(a, b)
