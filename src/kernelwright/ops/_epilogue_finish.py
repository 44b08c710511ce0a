"""The one small kernel that finishes rows a GEMM's epilogue reduced (``linear(..., reduce=)``):
each row's partials (a value per tile of columns, or one where the row was reduced whole) become
the row's sum, mean, max, min or logsumexp, and each program given to run after the reduction
(an expression of the reduced rows and numbers) is applied to it; every output is written in
the same launch, a warp a row. Compiled with NVRTC once per reduction and programs' code (their
constants are arguments, so that programs differing only in them share a kernel); where no
kernel runs (the CPU, no NVRTC, a program reading vectors, torch.compile's tracing) the torch
twin does the same."""

import functools
import hashlib
import os
import sys

import torch

from kernelwright._build import sources
from kernelwright.kernel import KernelCompileError, cuda_op, nvrtc
from kernelwright.ops import _epilogue_kernels
from kernelwright.ops._epilogue_expr import _CONST0

# Each reduction as torch computes it on whole rows.
TORCH_REDUCE = {"sum": torch.sum, "mean": torch.mean, "amax": torch.amax, "amin": torch.amin,
                "logsumexp": torch.logsumexp}
_ROWS_PER_BLOCK = 4  # a warp a row
_failed = set()  # (reduce, codes) whose kernel did not compile in this process: the twin runs

# A lane's share of its row's partials, then the warp's: into r, the reduced row (float).
_COMBINE = {
    "sum": ("double s = 0.0;\n  for (int t = lane; t < tiles; t += 32) s += (double)p[t];\n"
            "  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);\n"
            "  const float r = (float)s;\n"),
    "amax": ("float m = p[lane < tiles ? lane : 0];\n  for (int t = lane + 32; t < tiles; t += 32) m = KW_FMAX(m, p[t]);\n"
             "  for (int o = 16; o > 0; o >>= 1) m = KW_FMAX(m, __shfl_xor_sync(0xffffffffu, m, o));\n"
             "  const float r = m;\n"),
    # Tiles hold their own logsumexp: the row's is the largest plus the log of the others'
    # exponentials relative to it; an infinite or NaN largest is the answer (torch.logsumexp's).
    "logsumexp": ("float m = p[lane < tiles ? lane : 0];\n  for (int t = lane + 32; t < tiles; t += 32) m = KW_FMAX(m, p[t]);\n"
                  "  for (int o = 16; o > 0; o >>= 1) m = KW_FMAX(m, __shfl_xor_sync(0xffffffffu, m, o));\n"
                  "  double s = 0.0;\n  if (isfinite(m))\n"
                  "    for (int t = lane; t < tiles; t += 32) s += exp((double)p[t] - (double)m);\n"
                  "  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);\n"
                  "  const float r = isfinite(m) ? (float)((double)m + log(s)) : m;\n"),
}
_COMBINE["mean"] = _COMBINE["sum"].replace("(float)s;", "(float)(s / (double)count);")
_COMBINE["amin"] = _COMBINE["amax"].replace("KW_FMAX", "KW_FMIN")
# The epilogue's own maximum and minimum (NaN propagates, as in torch's).
_MINMAX = ("#define KW_FMAX(a, b) kw::cuda::epilogue_apply(kw::EpilogueOp::kMaximum, a, b, 0.0f)\n"
           "#define KW_FMIN(a, b) kw::cuda::epilogue_apply(kw::EpilogueOp::kMinimum, a, b, 0.0f)\n")


def finish(parts, reduce, count, programs):
    """The outputs, [rows] each: ``programs`` (None: the reduced rows themselves) applied to the
    rows of ``parts`` [rows, partials] reduced by ``reduce``; ``count``: the columns a mean
    divides by."""
    if reduce not in TORCH_REDUCE:
        raise ValueError("finish(): reduce must be one of %s, got %r" % (", ".join(TORCH_REDUCE), reduce))
    # Under torch.compile the twin's ops are what the compiler fuses; asked first, since what
    # nvrtc.available() calls is not for dynamo to trace.
    if torch.compiler.is_compiling() or not parts.is_cuda or parts.dtype != torch.float32 or not nvrtc.available() \
            or any(p is not None and (p.columns or p.rows) for p in programs):
        return twin(parts, reduce, count, programs)
    codes = tuple(None if p is None else tuple(p.code) for p in programs)
    if (reduce, codes) in _failed:
        return twin(parts, reduce, count, programs)
    consts = []
    for p in programs:
        if p is not None:
            n = _const_count(p.code)
            consts += [float(v) for v in list(p.consts)[:n]] + [0.0] * (n - len(p.consts))
    try:
        outs = _op(reduce, codes)(parts.contiguous(), float(count), *consts)
    except KernelCompileError as error:  # a toolkit without what the source needs: torch finishes
        _failed.add((reduce, codes))
        print("kernelwright: the reduced rows' finishing kernel did not compile (%s); torch finishes them"
              % str(error).splitlines()[0], file=sys.stderr, flush=True)
        return twin(parts, reduce, count, programs)
    # An op with one output returns the tensor itself.
    return [outs] if isinstance(outs, torch.Tensor) else list(outs)


def twin(parts, reduce, count, programs):
    """``finish`` in torch ops (differentiable; ``parts`` may also be whole rows)."""
    # A mean's partials are sums.
    rows = parts.sum(-1) / count if reduce == "mean" else TORCH_REDUCE[reduce](parts, -1)
    return [rows if p is None else p.apply(rows) for p in programs]


def _const_count(code):
    """How many constants a program's kernel takes: as many as its code reads, at least one (a
    parameter list the same for every program's place in the signature)."""
    read = [v - _CONST0 + 1 for s in range(0, len(code), 5) for v in code[s + 2:s + 5] if v >= _CONST0]
    return max(read, default=1)


def source(reduce, codes):
    """The kernel's CUDA source and its name."""
    key = hashlib.sha1(repr((reduce, codes)).encode()).hexdigest()[:12]
    name = "kw_epilogue_finish_%s" % key
    consts_of = [_const_count(code) if code is not None else 0 for code in codes]
    bodies = "".join(_epilogue_kernels.body(list(code), "Body%d" % i) for i, code in enumerate(codes) if code is not None)
    params = ["const float* __restrict__ parts"] + ["float* __restrict__ out%d" % i for i in range(len(codes))]
    params += ["float count"] + ["float k%d_%d" % (i, j) for i, n in enumerate(consts_of) for j in range(n)]
    params += ["int rows", "int tiles"]
    stores = []
    for i, code in enumerate(codes):
        if code is None:
            stores.append("    out%d[row] = r;\n" % i)
        else:
            stores.append("    { const float k[] = {%s};\n      out%d[row] = Body%d::apply(r, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, k); }\n"
                          % (", ".join("k%d_%d" % (i, j) for j in range(consts_of[i])), i, i))
    text = ('#include "kw/cuda/epilogue_ops.cuh"\n\n%s\nnamespace {\n%s}  // namespace\n\n'
            "__global__ void __launch_bounds__(%d) %s(%s) {\n"
            "  const int lane = threadIdx.x %% 32;\n"
            "  const long long row = (long long)blockIdx.x * %d + threadIdx.x / 32;\n"
            "  if (row >= rows) return;  // the whole warp: a row is a warp's\n"
            "  const float* p = parts + row * tiles;\n  %s"
            "  if (lane == 0) {\n%s  }\n}\n") % (
        _MINMAX, bodies, 32 * _ROWS_PER_BLOCK, name, ", ".join(params), _ROWS_PER_BLOCK,
        _COMBINE[reduce], "".join(stores))
    return text, name


@functools.lru_cache(maxsize=None)
def _op(reduce, codes):
    text, name = source(reduce, codes)
    outputs = len(codes)
    return cuda_op(text, name, name=name, namespace="kernelwright_finish", shapes={"parts": ("rows", "tiles")},
                   outputs=lambda parts, *_: [(parts.shape[0],)] * outputs,
                   launch=lambda parts, *_: (-(-parts.shape[0] // _ROWS_PER_BLOCK), 32 * _ROWS_PER_BLOCK),
                   options=("-I" + os.path.join(sources.find_csrc(), "include"),))
