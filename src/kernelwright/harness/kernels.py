"""Which kernels a forward pass actually ran, and how much time went to the candidate's own.

On CUDA the torch profiler lists device kernels.  A kernel counts as a *library*
kernel when the eager reference launched a kernel of the same name or its name is a
PyTorch, cuBLAS, cuDNN, CUTLASS or copy/memset kernel; as *torch.compile* when it is an
Inductor-generated Triton kernel; anything else was built by the candidate (inline
CUDA, Triton, kernelwright's own ops).

On the CPU there are no device kernels: the listing shows the ATen operators the
profiler saw, and the custom share is the time spent inside native functions that do
not come from torch or the standard library (a ``load_inline`` extension, ctypes).
"""

import ctypes
import re
import sys
import time

import torch

_perf_counter = time.perf_counter

_LIBRARY = re.compile(
    r"at::|c10::|cutlass|cublas|cudnn|cufft|curand|cusparse|nvjet|xmma|\bsm\d+_|ampere_|volta_|turing_|"
    r"hopper_|blackwell_|cub::|thrust::|memcpy|memset|gemv2|gemvx|gemmk1|gemmsn|splitkreduce|"
    r"implicit_convolve|explicit_convolve|winograd|fft2d|regular_fft|vector_fft|flash_fwd|flash_bwd|fmha|"
    r"cask_|nchwtonhwc|nhwctonchw|dot_kernel|scal_kernel|cudnn_|scudnn|pytorch_flash",
    re.IGNORECASE,
)
_INDUCTOR = re.compile(r"^triton_(poi|per|red|tem|for|mm|bmm|conv)_", re.IGNORECASE)
_TORCH_PACKAGES = {"torch", "numpy", "builtins", "functorch", "triton"}
_STDLIB = set(getattr(sys, "stdlib_module_names", ())) | {
    "builtins", "math", "time", "os", "posix", "_thread", "threading", "functools", "_functools",
    "itertools", "operator", "_operator", "collections", "_collections", "copy", "random", "_random",
}


def classify(name, reference_names=()):
    if name in reference_names or _LIBRARY.search(name):
        return "library"
    if _INDUCTOR.search(name):
        return "torch.compile"
    return "custom"


def _device_time_us(evt):
    for attr in ("self_device_time_total", "self_cuda_time_total", "device_time_total", "cuda_time_total"):
        value = getattr(evt, attr, None)
        if value is not None:
            return float(value)
    return 0.0


def _cuda_kernels(prof):
    cuda = torch.autograd.DeviceType.CUDA
    kernels = {}
    for evt in prof.key_averages():
        if getattr(evt, "device_type", None) == cuda:
            k = kernels.setdefault(evt.key, [0.0, 0])
            k[0] += _device_time_us(evt)
            k[1] += int(evt.count)
    if not kernels:
        # Older profilers attach kernels to the CPU op that launched them.
        for evt in prof.events():
            for kern in getattr(evt, "kernels", []) or []:
                k = kernels.setdefault(kern.name, [0.0, 0])
                k[0] += float(kern.duration)
                k[1] += 1
    return kernels


def _profile(fn, args_list, device):
    from torch.profiler import ProfilerActivity, profile

    activities = [ProfilerActivity.CPU]
    if device.type == "cuda":
        activities.append(ProfilerActivity.CUDA)
    with profile(activities=activities) as prof:
        for args in args_list:
            fn(*args)
        if device.type == "cuda":
            torch.cuda.synchronize(device)
    return prof


def cuda_kernel_names(fn, args_list, device):
    """Names of the device kernels ``fn`` launches (used on the eager reference)."""
    return set(_cuda_kernels(_profile(fn, args_list, device)))


def _is_custom_native(func):
    if isinstance(func, ctypes._CFuncPtr):
        return True
    mod = getattr(func, "__module__", None)
    if mod is None:
        owner = getattr(func, "__objclass__", None)
        mod = getattr(owner, "__module__", None)
    if not isinstance(mod, str):
        return False
    top = mod.split(".")[0]
    return top not in _TORCH_PACKAGES and top not in _STDLIB


def _cpu_custom_seconds(fn, args_list):
    """Seconds spent inside native functions that are not torch's or the stdlib's."""
    stack = []
    total = [0.0]

    def hook(frame, event, arg):
        if event == "c_call":
            stack.append((_is_custom_native(arg), _perf_counter()))
        elif event in ("c_return", "c_exception") and stack:
            custom, t0 = stack.pop()
            if custom:
                total[0] += _perf_counter() - t0

    t0 = _perf_counter()
    sys.setprofile(hook)
    try:
        for args in args_list:
            fn(*args)
    finally:
        sys.setprofile(None)
    return total[0], _perf_counter() - t0


def kernel_report(fn, args_list, device, reference_names=(), top=12):
    """Listing of what ``fn`` ran over ``args_list`` and the share of custom time."""
    device = torch.device(device)
    prof = _profile(fn, args_list, device)
    rows = []
    if device.type == "cuda":
        for name, (us, count) in _cuda_kernels(prof).items():
            rows.append({"name": name, "time_us": us, "calls": count, "source": classify(name, reference_names)})
        total = sum(r["time_us"] for r in rows)
        custom = sum(r["time_us"] for r in rows if r["source"] == "custom")
        compiled = sum(r["time_us"] for r in rows if r["source"] == "torch.compile")
        n_custom = sum(1 for r in rows if r["source"] == "custom")
    else:
        for evt in prof.key_averages():
            if evt.key.startswith("aten::") and evt.self_cpu_time_total > 0:
                rows.append({"name": evt.key, "time_us": float(evt.self_cpu_time_total),
                             "calls": int(evt.count), "source": "library"})
        custom_s, total_s = _cpu_custom_seconds(fn, args_list)
        total, custom, compiled = total_s * 1e6, custom_s * 1e6, 0.0
        n_custom = 1 if custom_s > 0 else 0
        if custom_s > 0:
            rows.append({"name": "(native code from candidate extensions)", "time_us": custom,
                         "calls": len(args_list), "source": "custom"})
    rows.sort(key=lambda r: -r["time_us"])
    return {
        "kernels": rows[:top],
        "kernel_count": len(rows),
        "custom_kernel_count": n_custom,
        "custom_share": custom / total if total > 0 else 0.0,
        "compiled_share": compiled / total if total > 0 else 0.0,
        "library_share": (total - custom - compiled) / total if total > 0 else 0.0,
        "profiled_calls": len(args_list),
    }
