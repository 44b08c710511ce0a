"""kernelwright: CUDA kernels as real PyTorch custom ops, and an honest harness to judge them.

Importing the package is cheap: the compiled extension is loaded the first time
``kernelwright.ops`` is imported, so the harness and the CLI work without it.
"""

__version__ = "0.1.0"
