"""Where kernelwright keeps what it compiles.

One root for every cache (extension builds, runtime-compiled kernels), overridable with
``KERNELWRIGHT_CACHE_DIR``; otherwise ``$XDG_CACHE_HOME/kernelwright`` or ``~/.cache/kernelwright``.
"""

import hashlib
import os


def cache_root():
    root = os.environ.get("KERNELWRIGHT_CACHE_DIR")
    if not root:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        root = os.path.join(base, "kernelwright")
    return root


def cache_dir(kind, key):
    """A directory for one cached artefact; ``kind`` groups artefacts, ``key`` names one."""
    path = os.path.join(cache_root(), kind, key)
    os.makedirs(path, exist_ok=True)
    return path


def digest(*parts):
    """A short stable hash of strings and bytes, for cache keys."""
    h = hashlib.sha256()
    for part in parts:
        if isinstance(part, str):
            part = part.encode("utf-8")
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.hexdigest()[:20]
