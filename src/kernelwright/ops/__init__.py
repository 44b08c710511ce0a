"""kernelwright's ops: drop-in replacements for the PyTorch functions of the same name.

Each is a real custom op (``torch.ops.kernelwright.<name>``) with CPU and CUDA kernels, a fake
kernel for torch.compile and autograd whose backward runs kernelwright's backward kernels.
Importing this module loads (or, if needed, builds) the compiled extension.
"""

from kernelwright.ops import epilogue
from kernelwright.ops.add import add
from kernelwright.ops.elu import elu
from kernelwright.ops.layer_norm import layer_norm
from kernelwright.ops.linear import WeightCache, linear
from kernelwright.ops.logsumexp import logsumexp
from kernelwright.ops.matmul import matmul
from kernelwright.ops.mul import mul
from kernelwright.ops.rms_norm import rms_norm
from kernelwright.ops.sigmoid import sigmoid
from kernelwright.ops.softmax import softmax
from kernelwright.ops.square import square

__all__ = ["WeightCache", "add", "elu", "epilogue", "layer_norm", "linear", "logsumexp", "matmul", "mul", "rms_norm",
           "sigmoid", "softmax", "square"]
