"""Convolution problems at fp32: how much of torch.compile's lead is the layout and how much is
cuDNN's TF32 (``torch.backends.cudnn.allow_tf32``, True by default and independent of
``torch.set_float32_matmul_precision``). For each problem file, with cuDNN TF32 allowed and
not: the forward's time as given, in channels_last, and under torch.compile, each with its
relative L2 error against the model run in float64.

    python benchmarks/bench_conv_precision.py PROBLEM.py [...] --out benchmarks/results
"""

import argparse
import copy
import datetime
import json
import os
import sys

import torch

from kernelwright.harness.inputs import seed_everything, to_float64
from kernelwright.optimize.api import load_module
from kernelwright.timing import time_fn


def _rel_l2(got, want):
    return float((got.double() - want).norm() / want.norm().clamp_min(1e-300))


_FORMATS = {4: torch.channels_last, 5: torch.channels_last_3d}


def _channels_last(x):
    if isinstance(x, torch.Tensor) and x.dim() in _FORMATS:
        return x.contiguous(memory_format=_FORMATS[x.dim()])
    return x


def _forwards(model, inputs):
    cl_model = copy.deepcopy(model)
    for p in cl_model.parameters():
        p.data = _channels_last(p.data)
    cl_inputs = [_channels_last(x) for x in inputs]
    compiled = torch.compile(copy.deepcopy(model))
    return {"as given": (model, inputs), "channels_last": (cl_model, cl_inputs), "torch.compile": (compiled, inputs)}


def measure(path):
    module = load_module(path)
    seed_everything(0)
    model = module.Model(*module.get_init_inputs()).cuda()
    seed_everything(1)
    inputs = [x.cuda() if isinstance(x, torch.Tensor) else x for x in module.get_inputs()]
    with torch.no_grad():
        want = copy.deepcopy(model).double()(*to_float64(inputs)).double()
    rows = []
    for tf32 in (False, True):
        torch.backends.cudnn.allow_tf32 = tf32
        torch._dynamo.reset()
        for name, (fn, args) in _forwards(model, inputs).items():
            with torch.no_grad():
                err = _rel_l2(fn(*args), want)
                ms = time_fn(lambda: fn(*args), budget_s=1.0).median_ms
            rows.append({"problem": os.path.basename(path), "cudnn_allow_tf32": tf32, "forward": name,
                         "ms": ms, "error_vs_fp64": err})
            print("%-48s tf32=%-5s %-14s %8.3f ms  error %.3g" % (rows[-1]["problem"][:48], tf32, name, ms, err),
                  flush=True)
    torch.backends.cudnn.allow_tf32 = True
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("problems", nargs="+")
    parser.add_argument("--out", default="benchmarks/results")
    args = parser.parse_args(argv)
    torch.set_float32_matmul_precision("highest")
    rows = [r for p in args.problems for r in measure(p)]
    name = torch.cuda.get_device_name().replace(" ", "-").lower().split("-80gb")[0]
    stem = os.path.join(args.out, "conv_precision_%s_%s" % (name, datetime.date.today().isoformat()))
    meta = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "cuda": torch.version.cuda,
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "float32_matmul_precision": "highest"}
    with open(stem + ".json", "w") as f:
        json.dump({"meta": meta, "rows": rows}, f, indent=1)
    print("wrote", stem + ".json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
