"""Tensor files passed between the harness's workers, written where they fit.

A set of inputs or outputs at KernelBench's largest sizes is several GiB.  Each file is
written to the first exchange directory (RAM-backed ``/dev/shm`` first, then the temp
directory on disk) whose free space holds it with a margin; when none does, the harness
reports :class:`ExchangeSpaceError` instead of leaving a truncated file behind.
"""

import os

import torch

from kernelwright.harness.inputs import nbytes

MARGIN_BYTES = 64 << 20


class ExchangeSpaceError(RuntimeError):
    """No exchange directory has room for a file the workers must pass."""


def _ram_backed(path):
    """True when ``path`` lies on tmpfs/ramfs, whose files take host memory."""
    path = os.path.realpath(path)
    best, fstype = "", None
    try:
        with open("/proc/mounts") as f:
            for line in f:
                parts = line.split()
                if len(parts) < 3:
                    continue
                mnt = parts[1]
                if (path == mnt or path.startswith(mnt.rstrip("/") + "/")) and len(mnt) > len(best):
                    best, fstype = mnt, parts[2]
    except OSError:
        return False
    return fstype in ("tmpfs", "ramfs")


def _meminfo():
    out = {}
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                key, _, rest = line.partition(":")
                out[key] = int(rest.split()[0]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return out


def free_bytes(path):
    """Bytes that may be written under ``path``.

    On a RAM-backed filesystem also bounded by the host's available memory, less an
    eighth of it (at least 2 GiB) left for the workers themselves.
    """
    try:
        st = os.statvfs(path)
    except OSError:
        return 0
    free = st.f_bavail * st.f_frsize
    if _ram_backed(path):
        info = _meminfo()
        if "MemAvailable" in info:
            keep = max(2 << 30, info.get("MemTotal", 0) // 8)
            free = min(free - st.f_blocks * st.f_frsize // 8, info["MemAvailable"] - keep)
    return max(0, free)


def _gib(n):
    return "%.2f GiB" % (n / 2**30)


def save(obj, name, dirs):
    """``torch.save(obj)`` as ``name`` in the first of ``dirs`` with room; returns the path."""
    need = nbytes(obj) + (nbytes(obj) >> 6) + MARGIN_BYTES
    tried = []
    for d in dirs:
        free = free_bytes(d)
        if free < need:
            tried.append("%s has %s free" % (d, _gib(free)))
            continue
        path = os.path.join(d, name)
        try:
            torch.save(obj, path)
            return path
        except (RuntimeError, OSError) as exc:  # the space went while writing
            remove(path)
            tried.append("%s: %s" % (d, str(exc)[:200]))
    raise ExchangeSpaceError("no room to pass %s (%s) between workers: %s" % (
        name, _gib(need), "; ".join(tried) or "no exchange directory"))


def load(path, map_location=None):
    return torch.load(path, map_location=map_location, weights_only=True)


def remove(path):
    try:
        os.remove(path)
    except OSError:
        pass
