"""GPU tensors passed between the workers by CUDA IPC handle rather than through a file.

A 6 GiB input set or output costs seconds per pass through a file (a copy to host memory, a
write into /dev/shm, a read and a copy back: 3.1 s at best on an H200), against milliseconds
by handle (benchmarks/results/exchange_*.json).  The producer keeps what it shared alive in a
:class:`Holder` until the consumer is done with it.  The consumer copies each shared storage
into memory of its own at once and closes the handle, so it never keeps a mapping of the
other worker's memory; views come back as views of one copy, with their strides and sharing.

The judge's input sets are passed this way, so for a moment the candidate worker maps the
judge's own copies.  :func:`fingerprint` (a keyed sum of their bytes, whose key never leaves
the judge) is checked before the judge uses a set again: a write through that mapping cannot
go unseen.
"""

import random

# Elements per step of the fingerprint: int64 temporaries of 128 MiB at most.
_CHUNK = 1 << 24


class HandleError(RuntimeError):
    """A handle from the other worker could not be opened: the harness's fault, not the code's
    under evaluation."""


def _cap(total):
    return total // 4


def room_bytes(total, in_bytes, out_bytes, fp64_bytes):
    """(the judge's budget, both workers' room) in bytes, for tensors held for the other worker.

    Held tensors stay on the device while the other worker works, so they must leave room for
    the larger of its peaks: the judge computing references (the eager output, the float64
    copies where float64 runs on the device, a set's copy and the candidate's output it reads)
    or the candidate running (inputs, their copies, outputs and what the model makes: about
    three of each).  Each worker holds at most a quarter of the device, the judge at most half
    the room; the candidate gets what the judge left (:func:`candidate_budget`).
    """
    usable = total - max(1 << 30, total // 32) - (2 << 30)  # headroom, and the two CUDA contexts
    work = max(2 * out_bytes + fp64_bytes + in_bytes, 3 * (in_bytes + out_bytes))
    room = max(0, usable - work)
    return min(_cap(total), room // 2), room


def candidate_budget(total, room, judge_held):
    """What the candidate worker may hold of the ``room``, given what the judge holds."""
    return max(0, min(_cap(total), room - judge_held))


def shared_bytes(obj, torch):
    """Bytes a handle to each CUDA storage in ``obj`` would pass."""
    return sum(st.nbytes() for st in _split(obj, torch, "cuda")[2])


def _split(obj, torch, device_type=None):
    """``obj`` without its non-empty tensors on ``device_type`` (None: any): (skeleton with None
    in their place, {leaf path: (storage index, dtype, size, stride, offset, requires_grad)},
    [their distinct storages])."""
    from kernelwright.harness.compare import map_leaves

    index, storages, leaves = {}, [], {}

    def take(path, t):
        if not (isinstance(t, torch.Tensor) and device_type in (None, t.device.type)
                and t.untyped_storage().nbytes()):
            return t
        st = t.untyped_storage()
        key = (st.device.type, st.device.index, st.data_ptr())
        if key not in index:
            index[key] = len(storages)
            storages.append(st)
        leaves[path] = (index[key], str(t.dtype).replace("torch.", ""), list(t.shape), list(t.stride()),
                        t.storage_offset(), bool(t.requires_grad))
        return None

    return map_leaves(obj, take), leaves, storages


def _join(skeleton, leaves, storages, torch):
    """The object :func:`_split` took apart, its tensors views of ``storages``."""
    from kernelwright.harness.compare import map_leaves

    def put(path, t):
        if path not in leaves:
            return t
        i, dtype, size, stride, offset, requires_grad = leaves[path]
        st = storages[i]
        out = torch.empty(0, dtype=getattr(torch, dtype), device=st.device).set_(st, offset, size, stride)
        return out.requires_grad_(requires_grad)

    return map_leaves(skeleton, put)


def pack(obj, torch):
    """``obj`` for torch.save with its CUDA tensors replaced by IPC handles to their storages:
    (skeleton, leaves, handles).  Raises RuntimeError when a storage cannot be shared (IPC
    unavailable, memory PyTorch cannot share): pass ``obj`` as a file then."""
    skeleton, leaves, storages = _split(obj, torch, "cuda")
    return skeleton, leaves, [st._share_cuda_() for st in storages]


def unpack(packed, torch):
    """The object :func:`pack` described, every tensor in memory of this process's own."""
    skeleton, leaves, handles = packed
    own = []
    for h in handles:
        device, size = h[0], h[2]
        try:
            torch.cuda.init()
            mapped = torch.UntypedStorage._new_shared_cuda(*h)
        except (RuntimeError, AssertionError) as exc:  # AssertionError: torch without CUDA
            raise HandleError(
                "cannot open a CUDA IPC handle from the other worker (%s: %s); evaluate with "
                "--no-device-exchange (device_exchange=False) to pass tensors through files"
                % (type(exc).__name__, str(exc).split("\n")[0][:200])) from exc
        copy = torch.empty(size, dtype=torch.uint8, device=torch.device("cuda", device)).untyped_storage()
        copy.copy_(mapped)
        # The handle closes with the last reference to the mapping: only after the copy ran.
        torch.cuda.synchronize(device)
        del mapped
        own.append(copy)
    return _join(skeleton, leaves, own, torch)


class Holder:
    """What one worker has shared by handle, alive until the other worker is done with it.

    ``budget``: bytes it may hold at once (0 until the worker knows how much it can spare);
    ``reserved``: bytes of it the worker keeps on the device for itself (the judge's references)."""

    def __init__(self, torch, budget=0):
        self.torch, self.budget = torch, budget
        self.held, self.bytes, self.reserved = {}, 0, 0

    def admits(self, obj):
        n = shared_bytes(obj, self.torch)
        return 0 < n and self.bytes + self.reserved + n <= self.budget

    def hold(self, key, obj):
        self.held[key] = (obj, shared_bytes(obj, self.torch))
        self.bytes += self.held[key][1]

    def holds(self, key):
        return key in self.held

    def get(self, key):
        return self.held[key][0]

    def release(self, key=None):
        for k in list(self.held) if key is None else [key]:
            if k in self.held:
                self.bytes -= self.held.pop(k)[1]
        # Blocks freed while a consumer still counted a reference wait in PyTorch's IPC
        # limbo; the consumers are done by now.
        self.torch.cuda.ipc_collect()


def new_key():
    return random.SystemRandom().getrandbits(62)


def fingerprint(obj, key, torch):
    """A sum over the 32-bit words (bytes, where the size is not a multiple of 4) of every
    tensor storage in ``obj``, each word times its own odd 64-bit weight drawn from ``key``.

    Any change to the words changes it (mod 2^64, an odd weight times a nonzero difference is
    never zero for one word), and without the weights no set of changes can be chosen to
    cancel.  Costs a few passes over the data on its device.
    """
    total, gens = 0, {}
    for st in _split(obj, torch)[2]:
        if st.device not in gens:
            gens[st.device] = torch.Generator(device=st.device).manual_seed(key)
        gen = gens[st.device]
        raw = torch.empty(0, dtype=torch.uint8, device=st.device).set_(st)
        words = raw.view(torch.int32) if raw.numel() % 4 == 0 else raw
        acc = torch.zeros((), dtype=torch.int64, device=st.device)
        for lo in range(0, words.numel(), _CHUNK):
            w = words[lo:lo + _CHUNK].to(torch.int64)
            weight = torch.randint(0, 2**62, w.shape, generator=gen, dtype=torch.int64, device=st.device)
            acc += (w * (weight * 2 + 1)).sum()
        total = (total * 1000003 + int(acc)) % (1 << 64)
    return total
