"""A compiler from a PyTorch ``Model`` to a ``ModelNew`` with generated CUDA kernels.

    import kernelwright
    opt = kernelwright.optimize(model, example_inputs)   # capture, plan, generate, measure
    opt.write("model_new.py")                           # a module defining ModelNew
    fast = opt.bind(model)                              # ModelNew sharing model's weights

Passes, each in its own module: ``capture`` (torch.export to ATen), ``plan`` (which ops
become which kernel, and why), ``emitter``/``kernels``/``codegen`` (CUDA from a small
expression IR, with a torch twin for checking on the CPU), ``tune`` (measured choices),
``emit`` (the ModelNew module), ``runtime`` (what that module imports). The command
``kernelwright optimize`` (``driver``) adds the harness's verdict and a report.

Importing this package does not import torch; calling it does.
"""

import sys
import types


class _CallablePackage(types.ModuleType):
    def __call__(self, model, example_inputs, **options):
        from .api import optimize

        return optimize(model, example_inputs, **options)


sys.modules[__name__].__class__ = _CallablePackage
