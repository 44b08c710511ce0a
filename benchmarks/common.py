"""What every benchmark script shares: the environment record, the copy-bandwidth ceiling,
host-inclusive per-call timing, the GEMM benchmarks' options, and the result files (JSON,
Markdown, PNG)."""

import datetime
import json
import os
import platform
import re
import statistics
import sys

import torch

from kernelwright.timing import time_fn


def environment():
    props = torch.cuda.get_device_properties(0)
    return {
        "device": torch.cuda.get_device_name(0),
        "sm_count": props.multi_processor_count,
        "l2_bytes": getattr(props, "L2_cache_size", None),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "python": platform.python_version(),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "float32_matmul_precision": torch.get_float32_matmul_precision(),
    }


def heading(title, env, note=""):
    """A result file's first lines: its title and the run's device, versions, date, precision."""
    return ["# " + title, "", "%s; torch %s; CUDA %s; %s; float32 matmul precision '%s'%s." % (
        env["device"], env["torch"], env["cuda"], env["date"], env["float32_matmul_precision"], note), ""]


def rel_err(got, want):
    """Relative Frobenius error of ``got`` against the float64 ``want``."""
    return ((got.double() - want).norm() / want.norm()).item()


def add_gemm_options(p, shapes=None, budget_help="seconds of timing per measurement"):
    """The options of the GEMM benchmarks: --shapes (where ``shapes`` gives the default),
    --precision, --budget, --out."""
    if shapes is not None:
        p.add_argument("--shapes", default=shapes,
                       help="m x k x n, comma-separated (KernelBench level 2's Linear is 1024 x 8192 x 8192)")
    p.add_argument("--precision", default="highest", choices=("highest", "high"))
    p.add_argument("--budget", type=float, default=1.0, help=budget_help)
    p.add_argument("--out", default=None, help="folder for the JSON and Markdown results")


def start_gemm_run(args, script):
    """Exits where there is no GPU; else sets the run's float32 matmul precision and returns the
    environment record."""
    if not torch.cuda.is_available():
        sys.exit("%s needs a CUDA device" % script)
    torch.set_float32_matmul_precision(args.precision)
    return environment()


def copy_bandwidth(nbytes, budget_s=1.0):
    """Device-to-device copy rate in bytes/s, counting bytes read plus bytes written."""
    src = torch.empty(nbytes // 4, dtype=torch.int32, device="cuda").random_()
    dst = torch.empty_like(src)
    t = time_fn(lambda: dst.copy_(src), device="cuda", budget_s=budget_s)
    del src, dst
    return 2 * nbytes / (t.median_ms * 1e-3), t


def timed_in_rounds(fns, budget_s, rounds=5):
    """{name: median ms} of ``fns`` ({name: fn}), each timed once a round (CUDA events, L2
    flushed, time_fn's median), the median over ``rounds``: the GPU's clock drifts (10% between
    calls timed one after another on H200), and taking turns puts every call under the same."""
    times = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            times[name].append(time_fn(fn, device="cuda", budget_s=budget_s / rounds).median_ms)
    return {name: statistics.median(t) for name, t in times.items()}


def per_call_host_inclusive(fns, calls=400, repeats=15):
    """{name: [milliseconds per call, one per repeat]} of back-to-back calls of each of ``fns``
    ({name: fn}) with no synchronisation between them: when host work per call exceeds the
    kernel's time, this is the host time, as a model sees it.  The functions take turns, one
    batch of ``calls`` each per repeat, so that the host's speed, which drifts, weighs on all
    of them alike and the batches of one repeat can be compared with each other."""
    for fn in fns.values():
        for _ in range(20):
            fn()
    torch.cuda.synchronize()
    results = {name: [] for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(calls):
                fn()
            end.record()
            end.synchronize()
            results[name].append(start.elapsed_time(end) / calls)
    return results


def result_paths(out_dir, stem, env):
    slug = re.sub(r"[^a-z0-9]+", "-", env["device"].lower()).strip("-")
    day = env["date"].split()[0]
    base = os.path.join(out_dir, "%s_%s_%s" % (stem, slug, day))
    return base + ".json", base + ".md", base + ".png"


def report(out_dir, stem, env, rows, text):
    """Prints a benchmark's Markdown table and, with ``out_dir``, writes it and the JSON of its
    rows there under ``stem``, the device and the day."""
    print(text)
    if out_dir:
        json_path, md_path, _ = result_paths(out_dir, stem, env)
        write_json(json_path, {"environment": env, "rows": rows})
        with open(md_path, "w") as f:
            f.write(text)


def write_json(path, payload):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w") as f:
        json.dump(payload, f, indent=1)
