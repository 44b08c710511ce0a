"""What the worker roles share: the channel to the parent, failure reports, the device and
its memory, copies of outputs, and where exchanged tensors go.

Nothing here imports torch (the roles pass it in): worker.py imports this module before
torch, so that a failure to import torch is reported through the channel like any other.
"""

import json
import os
import platform
import resource
import sys
import traceback

from kernelwright.harness import handles
from kernelwright.harness.protocol import Cause

_write = os.write


class Channel:
    def __init__(self, fd):
        self.fd = fd

    def send(self, **msg):
        data = (json.dumps(msg, default=str) + "\n").encode()
        while data:
            n = _write(self.fd, data)
            data = data[n:]

    def phase(self, name):
        self.send(phase=name)


def limit_memory(limit_mb):
    """Cap address space growth at ``limit_mb`` beyond what is mapped now (CPU only).

    CUDA reserves terabytes of virtual address space, so on GPUs the parent enforces the
    limit on resident memory instead.
    """
    try:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except (ValueError, OSError):
        pass
    if not limit_mb:
        return
    with open("/proc/self/statm") as f:
        vsz = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    cap = vsz + int(limit_mb) * (1 << 20)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    except (ValueError, OSError):
        pass


def failure(exc):
    """A report of an exception, as 'error' or, when the process cannot go on, 'crash'."""
    msg = "%s: %s" % (type(exc).__name__, exc)
    low = msg.lower()
    status = "error"
    cause = None
    if type(exc).__name__ == "ExchangeSpaceError":
        cause = Cause.EXCHANGE_SPACE
    elif type(exc).__name__ == "HandleError":
        cause = Cause.EXCHANGE_BY_HANDLE
    elif type(exc).__name__ == "InputsNotReproduced":
        cause = Cause.INPUTS_NOT_REPRODUCED
    elif isinstance(exc, MemoryError) or "out of memory" in low or "can't allocate memory" in low \
            or "outofmemoryerror" in low or "cannot allocate memory" in low:
        status, cause = "crash", Cause.OUT_OF_MEMORY
    elif any(s in low for s in ("illegal memory access", "cuda error", "device-side assert",
                                "misaligned address", "unspecified launch failure", "cublas_status",
                                "cudnn_status", "illegal instruction")):
        status, cause = "crash", Cause.CUDA_ERROR
    tb = traceback.format_exc()
    return {"status": status, "cause": cause, "message": msg[:4000], "traceback": tb[-6000:]}


def resolve_device(name, torch):
    if name in (None, "", "auto"):
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    dev = torch.device(name)
    if dev.type == "cuda" and not torch.cuda.is_available():
        raise RuntimeError("device cuda requested but torch.cuda.is_available() is False")
    return dev


def warm_device(name, torch):
    """Device ``name`` resolved as the job will resolve it, its CUDA context made now (a spare
    worker's, while it waits for its job: on a GPU host, seconds off the job's clock); None where
    there is no name or it names no usable device."""
    try:
        device = resolve_device(name, torch) if name else None
        if device is not None and device.type == "cuda":
            torch.empty(1, device=device)
            torch.cuda.mem_get_info(device)
        return device
    except Exception:  # noqa: BLE001 - the job meets the same error and reports it as its own
        return None


def environment(torch, device):
    env = {
        "device": str(device),
        "torch_version": torch.__version__,
        "cuda_version": torch.version.cuda,
        "python_version": sys.version.split()[0],
        # The precision contract of the verdict (api.precision_check) follows it.
        "float32_matmul_precision": torch.get_float32_matmul_precision(),
        "cudnn_allow_tf32": torch.backends.cudnn.allow_tf32,
    }
    if device.type == "cuda":
        props = torch.cuda.get_device_properties(device)
        env["device_name"] = props.name
        env["l2_cache_bytes"] = int(getattr(props, "L2_cache_size", 0) or 0)
    else:
        env["device_name"] = platform.processor() or platform.machine()
    return env


def sync(torch, device):
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def copy_tensor(t, torch, device=None):
    """A plain ``torch.Tensor`` copy of ``t``, never a view of it.  A subclass's values are
    copied with its ``__torch_function__`` off: its own methods could return anything
    (a lazy or self-substituting tensor), and a pickled subclass is no file the judge can
    read.  The subclass itself is flagged elsewhere."""
    if type(t) in (torch.Tensor, torch.nn.Parameter):
        return t.detach().clone() if device is None else t.detach().to(device, copy=True)
    with torch._C.DisableTorchFunctionSubclass():
        out = torch.empty(tuple(t.shape), dtype=t.dtype, device=t.device if device is None else device)
        out.copy_(t.detach())
    return out


def copy_tree(obj, torch, device=None, subclasses_only=False):
    """A copy of every tensor in a (nested) output, on ``device`` (default: where it is),
    with containers kept; with ``subclasses_only``, plain tensors are kept as they are."""
    if isinstance(obj, torch.Tensor):
        if subclasses_only and type(obj) in (torch.Tensor, torch.nn.Parameter):
            return obj
        return copy_tensor(obj, torch, device)
    if isinstance(obj, (list, tuple)):
        return type(obj)(copy_tree(o, torch, device, subclasses_only) for o in obj)
    if isinstance(obj, dict):
        return {k: copy_tree(v, torch, device, subclasses_only) for k, v in obj.items()}
    return obj


def _rss_bytes():
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def release(torch, device):
    """Give cached device memory back, so the other worker (or the next phase) can use it."""
    if device.type == "cuda":
        torch.cuda.synchronize(device)
        torch.cuda.empty_cache()


def device_free_bytes(torch, device):
    """(bytes this process can still get on ``device``, total bytes); cached free blocks count."""
    free, total = torch.cuda.mem_get_info(device)
    stats = torch.cuda.memory_stats(device)
    cached = stats.get("reserved_bytes.all.current", 0) - stats.get("allocated_bytes.all.current", 0)
    return free + max(0, cached), total


def headroom(total):
    return max(1 << 30, total // 32)


def host_room(job):
    """Bytes this worker may still add to its resident memory (None: no cap)."""
    limit = job.get("memory_limit_mb")
    if not limit:
        return None
    return int(limit) * (1 << 20) - _rss_bytes() - (512 << 20)


def exchange_dirs(job):
    return job.get("exchange_dirs") or [job["workdir"]]


def exchange_holder(job, torch, device):
    """Where this worker keeps the GPU tensors it passes by handle (see handles.py); None when
    everything goes through files (on the CPU, when asked, or when the files are kept)."""
    if device.type != "cuda" or not job.get("device_exchange", True) or job.get("keep_files"):
        return None
    return handles.Holder(torch)


# The timing rotates through at most this many trial draws.  Their files stay until the
# re-checks, whose inputs the judge rebuilds from them; every other set's file goes once
# the candidate's outputs are judged.
TIMING_SETS = 3


def timing_sets(names):
    return [n for n in names if n.startswith("trial")][:TIMING_SETS]
