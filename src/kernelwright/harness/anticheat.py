"""Checks that run in the candidate's process, around the candidate's code.

Everything here is bound before the candidate is imported.  The final comparison of
outputs does not happen here at all: it runs in the judge process, which never loads
the candidate (see judge.py).
"""

import random
import sys
import threading
import types

import torch

from kernelwright.harness.compare import bitwise_equal, storages_overlap
from kernelwright.harness.flags import FATAL_FLAGS, INFO_FLAGS  # noqa: F401  (the flags raised here)

_PY_MODULES = ["time", "torch", "torch.nn.functional", "torch.cuda", "torch.testing",
               "torch.linalg", "torch.fft", "torch.special", "torch.autograd", "torch.profiler",
               "copy", "math", "json", "os"]
# Watched down to private names: the C op namespaces, and the harness's own modules
# (their module-level captured clocks and helpers are what the checks call).
_ALL_NAMES = ["torch._C._nn", "torch._C._linalg", "torch._C._fft", "torch._C._special",
              "kernelwright.timing", "kernelwright.timing_gate", "kernelwright.harness.compare",
              "kernelwright.harness.anticheat", "kernelwright.harness.inputs", "kernelwright.harness.kernels",
              "kernelwright.harness.roofline", "kernelwright.harness.proctree",
              "random", "__main__"]


def _settings():
    """Global switches that change how fast or how precisely the reference runs."""
    b = torch.backends
    s = {
        "cudnn.enabled": lambda: b.cudnn.enabled,
        "cudnn.benchmark": lambda: b.cudnn.benchmark,
        "cudnn.deterministic": lambda: b.cudnn.deterministic,
        "cudnn.allow_tf32": lambda: b.cudnn.allow_tf32,
        "cuda.matmul.allow_tf32": lambda: b.cuda.matmul.allow_tf32,
        "cuda.matmul.allow_fp16_reduced_precision_reduction":
            lambda: b.cuda.matmul.allow_fp16_reduced_precision_reduction,
        "cuda.matmul.allow_bf16_reduced_precision_reduction":
            lambda: b.cuda.matmul.allow_bf16_reduced_precision_reduction,
        "float32_matmul_precision": torch.get_float32_matmul_precision,
        "deterministic_algorithms": torch.are_deterministic_algorithms_enabled,
        "num_threads": torch.get_num_threads,
        "default_dtype": torch.get_default_dtype,
        "mkldnn.enabled": lambda: b.mkldnn.enabled,
        "flash_sdp": b.cuda.flash_sdp_enabled,
        "mem_efficient_sdp": b.cuda.mem_efficient_sdp_enabled,
        "math_sdp": b.cuda.math_sdp_enabled,
    }
    out = {}
    for name, get in s.items():
        try:
            out[name] = get()
        except Exception:  # a setting this torch build does not have
            continue
    return out


def _watched_namespaces():
    for name in _PY_MODULES + _ALL_NAMES:
        mod = sys.modules.get(name)
        if mod is None:
            continue
        yield name, vars(mod), name not in _ALL_NAMES
    # random's classes too: replacing SystemRandom.sample or random._urandom predicts draws.
    classes = [torch.Tensor, torch.nn.Module, torch.cuda.Event, torch.cuda.Stream,
               random.Random, random.SystemRandom]
    for value in list(vars(torch.nn).values()):
        if isinstance(value, type) and issubclass(value, torch.nn.Module):
            classes.append(value)
    for cls in classes:
        yield "%s.%s" % (cls.__module__, cls.__qualname__), vars(cls), False


class Guard:
    """Remembers the functions and settings the harness relies on and reports changes.

    Snapshot before the candidate is imported; call ``changes()`` after each stretch of
    candidate code.  Functions are compared by identity, so wrapping or replacing any of
    them (``time.perf_counter``, ``torch.cuda.Event.elapsed_time``, ``torch.allclose``,
    ``torch.nn.functional.linear``, ``Model.forward`` ...) is caught.
    """

    def __init__(self, extra=()):
        """``extra``: more ``(name, module_or_class)`` to watch, e.g. the problem's Model."""
        self._funcs = {}
        more = [(name, vars(obj), False) for name, obj in extra]
        for owner, ns, public_only in list(_watched_namespaces()) + more:
            for key, value in list(ns.items()):
                if public_only and key.startswith("_"):
                    continue
                if isinstance(value, types.ModuleType):
                    continue
                if callable(value) or isinstance(value, (staticmethod, classmethod, property)):
                    self._funcs[(owner, key)] = (ns, value)
        self._settings = _settings()

    def changes(self):
        """(replaced function names, changed setting names) since the snapshot."""
        replaced = []
        for (owner, key), (ns, value) in self._funcs.items():
            if ns.get(key, None) is not value:
                replaced.append("%s.%s" % (owner, key))
        now = _settings()
        changed = ["%s: %r -> %r" % (k, v, now.get(k)) for k, v in self._settings.items() if now.get(k) != v]
        return replaced, changed


def live_threads():
    return {t.ident: t.name for t in threading.enumerate() if t.is_alive()}


POISON_CHUNK_BYTES = 256 << 20
POISON_MIN_CHUNK_BYTES = 2 << 20


def _reserved(idx):
    return int(torch.cuda.memory_stats(idx).get("reserved_bytes.all.current", 0))


def poison_free_memory(device, keep=False, chunk_bytes=POISON_CHUNK_BYTES, headroom_bytes=None):
    """Overwrite memory the caching allocator holds but has not handed out.

    A kernel that returns ``torch.empty`` and never writes it gets whatever the
    allocator recycles; after this it gets NaN-filled bytes, not a previous result.
    CPU memory goes back to the C allocator, which cannot be enumerated; there the
    harness fills the tensors it frees itself (see ``scrub``).  With ``keep`` the
    poisoned blocks stay allocated and are returned; otherwise the count of bytes.

    The cached-but-free bytes are claimed in chunks of at most ``chunk_bytes``, never in
    one allocation.  A chunk the cache cannot serve makes the allocator reserve new
    device memory; that growth is limited to ``headroom_bytes`` and to what leaves the
    device at least ``headroom_bytes`` free.  An out-of-memory error halves the chunk;
    below 2 MiB poisoning stops.  It never raises for lack of memory.
    """
    device = torch.device(device)
    held = []
    if device.type != "cuda":
        return held if keep else 0
    idx = device.index if device.index is not None else torch.cuda.current_device()
    stats = torch.cuda.memory_stats(idx)
    target = stats.get("reserved_bytes.all.current", 0) - stats.get("allocated_bytes.all.current", 0)
    if target <= 0:
        return held if keep else 0
    try:
        total = torch.cuda.mem_get_info(idx)[1]
    except RuntimeError:
        total = 0
    if headroom_bytes is None:
        headroom_bytes = max(1 << 30, total // 32)
    poisoned = grown = 0
    chunk = int(chunk_bytes)
    while poisoned < target and chunk >= POISON_MIN_CHUNK_BYTES:
        size = min(chunk, target - poisoned)
        if size < 512:
            break
        before = _reserved(idx)
        try:
            t = torch.empty(size, dtype=torch.uint8, device=device)
        except RuntimeError:  # torch.cuda.OutOfMemoryError included
            chunk //= 2
            continue
        new = _reserved(idx) - before
        if new > 0:
            try:
                free_now = torch.cuda.mem_get_info(idx)[0]
            except RuntimeError:
                free_now = 0
            if grown + new > headroom_bytes or free_now < headroom_bytes:
                # No cached block of this size is left: smaller chunks, or stop.
                del t
                chunk //= 2
                continue
            grown += new
        t.fill_(0xFF)
        held.append(t)
        poisoned += size
    return held if keep else poisoned


def scrub(*objs):
    """Fill tensors about to be freed with NaN (or all-ones bytes) so they leave no result behind."""
    for obj in objs:
        if isinstance(obj, torch.Tensor):
            if obj.numel() == 0 or obj.is_inference():
                continue
            try:
                if obj.is_floating_point() or obj.is_complex():
                    obj.data.fill_(float("nan"))
                elif obj.dtype == torch.bool:
                    obj.data.fill_(True)
                else:
                    obj.data.fill_(-1)
            except RuntimeError:
                pass
        elif isinstance(obj, (list, tuple)):
            scrub(*obj)
        elif isinstance(obj, dict):
            scrub(*obj.values())


def aliased_outputs(outputs, inputs):
    """Names of outputs whose memory overlaps an input's."""
    hits = []
    for path, out in outputs:
        if not isinstance(out, torch.Tensor):
            continue
        for i, x in enumerate(inputs):
            if isinstance(x, torch.Tensor) and storages_overlap(out, x):
                hits.append("%s aliases input %d" % (path, i))
    return hits


def type_name(cls):
    return "%s.%s" % (cls.__module__, cls.__qualname__)


def subclassed_outputs(outputs, allowed):
    """Outputs whose type is a torch.Tensor subclass not in ``allowed`` (type names): a
    subclass can answer shape and dtype queries and run its kernels only when its values are
    read, after the timed region, where a plain tensor's kernels were all launched in it."""
    return ["%s is %s" % (path, type_name(type(out))) for path, out in outputs
            if isinstance(out, torch.Tensor) and type(out) is not torch.Tensor
            and type_name(type(out)) not in allowed]


def mutated_inputs(inputs, pristine):
    return [i for i, (x, p) in enumerate(zip(inputs, pristine))
            if isinstance(x, torch.Tensor) and not bitwise_equal(x, p)]
