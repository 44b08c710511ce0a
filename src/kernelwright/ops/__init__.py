"""kernelwright's ops: drop-in replacements for the PyTorch functions of the same name.

Each is a real custom op (``torch.ops.kernelwright.<name>``) with CPU and CUDA kernels, a fake
kernel for torch.compile and autograd whose backward runs kernelwright's backward kernels.
Importing this module loads (or, if needed, builds) the compiled extension.
"""

from kernelwright._build.loader import load_extension

load_extension()

from kernelwright.ops.add import add  # noqa: E402
from kernelwright.ops.elu import elu  # noqa: E402
from kernelwright.ops.logsumexp import logsumexp  # noqa: E402
from kernelwright.ops.mul import mul  # noqa: E402
from kernelwright.ops.sigmoid import sigmoid  # noqa: E402
from kernelwright.ops.square import square  # noqa: E402

__all__ = ["add", "elu", "logsumexp", "mul", "sigmoid", "square"]
