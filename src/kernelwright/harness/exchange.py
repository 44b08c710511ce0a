"""Tensor files passed between the harness's workers, written where they fit.

A set of inputs or outputs at KernelBench's largest sizes is several GiB.  Each
evaluation gets private exchange directories (:class:`Space`): one in RAM-backed
``/dev/shm`` and one in the temp directory on disk.  Each file is written to the first
whose free space holds it with a margin; when none does, the harness reports
:class:`ExchangeSpaceError` instead of leaving a truncated file behind.  The readers
delete what they no longer need, and the directories go when the evaluation ends.

On a GPU, tensors can instead travel by CUDA IPC handle (handles.py): :func:`save` given a
:class:`handles.Holder` with room writes only the handles, and the holder keeps the tensors
alive until the other worker has copied them.

torch is imported only where a tensor is saved or loaded: the harness's own process
(which makes and removes the directories) never needs it.
"""

import fcntl
import os
import shutil
import tempfile

MARGIN_BYTES = 64 << 20
SHM_DIR = "/dev/shm"
PREFIX = "kw-exchange-"
# CUDA tensors from this size up are copied to pinned host memory before torch.save, which
# otherwise copies them into fresh pageable memory: for 6 GiB of float32 on an H200, 7.4 s to
# save as torch.save does it, 2.3 s staged through pinned memory without the CRC (one ad-hoc
# run of these steps, 2026-11-22; benchmarks/bench_exchange.py's exchange_save mode times this
# module's own save and load).
STAGE_MIN_BYTES = 64 << 20
# The file's top level when tensors were staged: (the object, {leaf path: original device}).
_STAGED = "kernelwright.exchange.staged"
# The file's top level when tensors were passed by handle: handles.pack's (skeleton, handles).
_HANDLES = "kernelwright.exchange.handles"


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


def available_host_bytes():
    """The host's available memory (0 where the system does not say)."""
    return _meminfo().get("MemAvailable", 0)


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


def _size(n):
    return "%.2f GiB" % (n / 2**30) if n >= 1 << 30 else "%.1f MiB" % (n / 2**20)


def held_bytes(dirs):
    """Bytes of the files in ``dirs`` (this evaluation's own)."""
    total = 0
    for d in dirs:
        try:
            with os.scandir(d) as it:
                total += sum(e.stat().st_size for e in it if e.is_file(follow_symlinks=False))
        except OSError:
            pass
    return total


def _staged(obj, torch):
    """``obj`` for torch.save: each large, contiguous CUDA tensor that is alone in its storage
    replaced by a pinned host copy, with {leaf path: device} of those; ``(obj, {})`` when
    none is.  Views into larger storages and storages shared by several leaves are left to
    torch.save, which keeps their layout and sharing."""
    from kernelwright.harness.compare import flatten, map_leaves

    leaves = [t for _, t in flatten(obj) if isinstance(t, torch.Tensor)]
    counts = {}
    for t in leaves:
        key = t.untyped_storage().data_ptr()
        counts[key] = counts.get(key, 0) + 1
    devices = {}

    def stage(path, t):
        if not (isinstance(t, torch.Tensor) and t.is_cuda and t.nbytes >= STAGE_MIN_BYTES
                and t.is_contiguous() and t.storage_offset() == 0
                and t.untyped_storage().nbytes() == t.nbytes
                and counts[t.untyped_storage().data_ptr()] == 1):
            return t
        try:
            host = torch.empty(t.shape, dtype=t.dtype, pin_memory=True)
        except RuntimeError:  # no pinned memory to be had: torch.save copies it as before
            return t
        host.copy_(t.detach())
        devices[path] = str(t.device)
        return host

    staged = map_leaves(obj, stage)
    return (staged, devices) if devices else (obj, {})


def _torch_save(obj, path, torch):
    """torch.save without the CRC of each record (the reader is ours, and the CRC cost 1.4 s
    per 6 GiB), where this torch lets it be turned off."""
    try:
        from torch.utils.serialization import config
        old = config.save.compute_crc32
    except (ImportError, AttributeError):
        torch.save(obj, path)
        return
    config.save.compute_crc32 = False
    try:
        torch.save(obj, path)
    finally:
        config.save.compute_crc32 = old


def _write(obj, path, torch):
    staged, devices = _staged(obj, torch)
    if not devices:
        _torch_save(obj, path, torch)
        return
    try:
        _torch_save({_STAGED: (staged, devices)}, path, torch)
    finally:
        # The staging buffers go back to the system rather than to torch's pinned-memory
        # cache, where they would hold host memory the size of the largest tensor passed in a
        # worker whose memory is capped. Only after staging: emptying the cache otherwise
        # would take cached blocks from a candidate that pins memory while it is timed.
        del staged
        empty = getattr(torch._C, "_host_emptyCache", None)
        if empty is not None:
            empty()


def _by_handle(obj, holder, torch):
    """``obj`` packed as CUDA IPC handles when ``holder`` has room for it, else None."""
    if holder is None or not holder.admits(obj):
        return None
    from kernelwright.harness import handles

    try:
        return {_HANDLES: handles.pack(obj, torch)}
    except RuntimeError:  # memory not from PyTorch's allocator, or no IPC here: a file serves
        return None


def save(obj, name, dirs, holder=None):
    """``torch.save(obj)`` as ``name`` in the first of ``dirs`` with room; returns the path.

    Large CUDA tensors travel through pinned host memory; :func:`load` puts them back on their
    devices unless told where to map them.  With a ``holder`` that has room, the CUDA tensors
    are passed by handle instead and held, under the returned path, until released."""
    import torch

    from kernelwright.harness.inputs import nbytes

    packed = _by_handle(obj, holder, torch)
    size = nbytes(obj) if packed is None else nbytes(packed)
    need = size + (size >> 6) + MARGIN_BYTES
    tried = []
    for d in dirs:
        free = free_bytes(d)
        if free < need:
            tried.append("%s has %s free%s" % (d, _size(free), " (RAM-backed: also bounded by the host's "
                                                               "available memory)" if _ram_backed(d) else ""))
            continue
        path = os.path.join(d, name)
        try:
            if packed is None:
                _write(obj, path, torch)
            else:
                _torch_save(packed, path, torch)
                holder.hold(path, obj)
            return path
        except (RuntimeError, OSError) as exc:  # the space went while writing
            remove(path)
            tried.append("%s: %s" % (d, str(exc)[:200]))
    raise ExchangeSpaceError(
        "no room to pass %s between workers: it needs %s (%s of tensors and a margin); %s; this "
        "evaluation's files there take %s" % (name, _size(need), _size(size),
                                               "; ".join(tried) or "no exchange directory",
                                               _size(held_bytes(dirs))))


def load(path, map_location=None):
    """``torch.load`` of a file :func:`save` wrote, its tensors mapped rather than read.

    Mapped (copy-on-write) pages cost no copy on the host: a 6 GiB set loads in a fraction of
    the time a read takes, and removing the file right after is safe.  Tensors passed by
    handle are copied into this process's own device memory.
    """
    import torch

    obj = torch.load(path, map_location=map_location, weights_only=True, mmap=True)
    if isinstance(obj, dict) and len(obj) == 1 and _HANDLES in obj:
        from kernelwright.harness import handles
        from kernelwright.harness.inputs import to_device

        data = handles.unpack(obj[_HANDLES], torch)
        return data if map_location is None else to_device(data, map_location)
    if not (isinstance(obj, dict) and len(obj) == 1 and _STAGED in obj):
        return obj
    data, devices = obj[_STAGED]
    if map_location is not None:
        return data
    from kernelwright.harness.compare import map_leaves

    return map_leaves(data, lambda path, t: t.to(devices[path]) if path in devices else t)


def remove(path):
    try:
        os.remove(path)
    except OSError:
        pass


def sweep(parent):
    """Remove exchange directories in ``parent`` whose evaluation was killed before it could.

    A running evaluation holds a lock on each of its directories; the lock dies with the
    process, whatever killed it.
    """
    try:
        names = [n for n in os.listdir(parent) if n.startswith(PREFIX)]
    except OSError:
        return
    for name in names:
        path = os.path.join(parent, name)
        try:
            fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
        except OSError:
            continue
        try:
            if os.fstat(fd).st_uid != os.getuid():
                continue
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            continue  # locked: its evaluation is still running
        else:
            shutil.rmtree(path, ignore_errors=True)
        finally:
            os.close(fd)


def _shm_usable():
    try:
        st = os.statvfs(SHM_DIR)
        return st.f_bavail * st.f_frsize >= 256 << 20 and os.access(SHM_DIR, os.W_OK)
    except OSError:
        return False


class Space:
    """The exchange directories of one evaluation.

    By default a private, locked directory in ``/dev/shm`` (when usable) and one in the
    temp directory, both removed by :meth:`close`.  With ``keep_in``, files go to that
    directory and stay: files that are kept belong on disk, not in RAM.
    """

    def __init__(self, keep_in=None):
        self.dirs, self._locks, self.kept = [], [], keep_in is not None
        if self.kept:
            self.dirs.append(keep_in)
            return
        parents = ([SHM_DIR] if _shm_usable() else []) + [tempfile.gettempdir()]
        try:
            for parent in parents:
                sweep(parent)
                self.dirs.append(self._make(parent))
        except BaseException:
            self.close()
            raise

    def _make(self, parent):
        # Made under a name that sweep() ignores, locked, then renamed: another evaluation
        # never sees it unlocked.
        tmp = tempfile.mkdtemp(prefix="." + PREFIX, dir=parent)
        fd = os.open(tmp, os.O_RDONLY | os.O_DIRECTORY)
        self._locks.append(fd)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            pass  # no locks on this filesystem: sweep() cannot lock it either, so leaves it alone
        path = os.path.join(parent, os.path.basename(tmp)[1:])
        try:
            os.rename(tmp, path)
        except OSError:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        return path

    def close(self):
        if not self.kept:
            for d in self.dirs:
                shutil.rmtree(d, ignore_errors=True)
        for fd in self._locks:
            os.close(fd)
        self.dirs, self._locks = [], []
