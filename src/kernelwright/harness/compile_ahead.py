"""The torch.compile reference compiled ahead of its timing, in a process of its own.

The harness times torch.compile's version of Model in the candidate's worker, after the
candidate, and compiling it there is half of a small problem's verification (6.9 s of 13.3 on
level-2 12, H200). Inductor keeps what it compiles on disk (its FX graph and Triton kernel
caches), keyed by the traced graph, the inputs' shapes, dtypes and strides, the grad mode and
its configuration, not by the weights' values. So a process that compiles the same Model on
inputs drawn alike, while something else runs (``kernelwright optimize`` starts one with each
problem), leaves the worker a compile that finds everything cached. It changes no result: the
worker still compiles and times its own reference, only faster.

Run as ``python -m kernelwright.harness.compile_ahead PROBLEM DEVICE`` with the workers'
precision in the environment (protocol.PRECISION_ENV)."""

import os
import subprocess
import sys
import time

import torch

from kernelwright import precision
from kernelwright.harness import inputs, proctree
from kernelwright.harness.loading import load_module
from kernelwright.harness.protocol import PARENT_ENV, PRECISION_ENV

_INIT_SEED = 0  # any seed: the weights' values are not part of inductor's cache key
# Inputs past this are not drawn a second time beside the optimizer's own on the device: there
# the forward's time, not the compile, is most of the verification.
_MAX_INPUT_BYTES = 1 << 30


def start(problem, device, precision):
    """The process compiling ``problem``'s Model on ``device`` (a CUDA device name) at
    ``precision``, its output discarded; None where it could not start."""
    env = dict(os.environ, **{PRECISION_ENV: precision, PARENT_ENV: str(os.getpid())})
    try:
        return subprocess.Popen([sys.executable, "-m", __name__, os.path.abspath(problem), str(device)], env=env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        return None


def finish(process, timeout_s):
    """Waits up to ``timeout_s`` for ``process`` (from start) and stops it after that, so that
    nothing of it runs beside the harness's timing; the seconds waited."""
    if process is None:
        return 0.0
    t = time.perf_counter()
    try:
        process.wait(timeout=max(0.0, timeout_s))
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    return time.perf_counter() - t


def main(argv):
    problem_path, device = argv
    if os.environ.get(PARENT_ENV):  # a problem's optimization stopped by a timeout stops this too
        proctree.die_with_parent(int(os.environ[PARENT_ENV]))
    os.nice(10)  # second to the work it runs beside
    precision.apply(os.environ.get(PRECISION_ENV) or torch.get_float32_matmul_precision())
    compile_reference(problem_path, device)


def compile_reference(problem_path, device):
    """torch.compile's version of the problem's Model run once on its inputs, as the harness's
    worker compiles it; nothing where the inputs are past _MAX_INPUT_BYTES."""
    # The worker's own names: the module's name is in the traced graph's code.
    problem = load_module(problem_path, "kw_problem")
    init_inputs = list(problem.get_init_inputs()) if hasattr(problem, "get_init_inputs") else []
    x = inputs.draw_inputs(problem.get_inputs, _INIT_SEED, device)
    if inputs.nbytes(x) > _MAX_INPUT_BYTES:
        return
    model = inputs.construct(problem.Model, init_inputs, _INIT_SEED, device)
    with torch.no_grad():  # as the worker times it
        torch.compile(model)(*x)
    if torch.device(device).type == "cuda":
        torch.cuda.synchronize(device)


if __name__ == "__main__":
    main(sys.argv[1:])
