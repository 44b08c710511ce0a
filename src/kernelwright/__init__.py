"""kernelwright: CUDA kernels as real PyTorch custom ops, and an honest harness to judge them.

Importing the package is cheap: the compiled extension is loaded the first time
``kernelwright.ops`` is imported, so the harness and the CLI work without it.
"""

__version__ = "0.1.0"


def __getattr__(name):
    # Lazy, so that `import kernelwright` does not import torch.
    if name == "cuda_op":
        from kernelwright.kernel import cuda_op

        return cuda_op
    if name == "optimize":  # a package that is also callable: kernelwright.optimize(model, inputs)
        import kernelwright.optimize

        return kernelwright.optimize
    raise AttributeError("module 'kernelwright' has no attribute %r" % name)
