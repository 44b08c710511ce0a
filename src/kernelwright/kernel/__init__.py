"""Your own CUDA kernel as a real PyTorch custom op, in one call.

    from kernelwright.kernel import cuda_op

    square = cuda_op('''
    template <typename T>
    __global__ void square_kernel(const T* x, T* y, int64_t n) {
        int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
        if (i < n) y[i] = x[i] * x[i];
    }''', "square_kernel", backward=lambda grad, x: 2 * x * grad)

    y = square(torch.randn(1000, device="cuda"))   # torch.ops.kernelwright_user.square

Compiled with NVRTC on first use and cached on disk; see ``cuda_op`` for the options.
"""

from .errors import KernelCompileError, KernelInputError, KernelLaunchError, KernelSignatureError, LaunchConfigError
from .launch import Limits
from .op import KernelOp, cuda_op
from .signature import parse_kernel

__all__ = [
    "cuda_op",
    "KernelOp",
    "KernelCompileError",
    "KernelInputError",
    "KernelLaunchError",
    "KernelSignatureError",
    "LaunchConfigError",
    "Limits",
    "parse_kernel",
]
