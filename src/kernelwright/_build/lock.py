"""An exclusive lock on a build directory that cannot go stale.

torch.utils.cpp_extension marks a build in progress with a plain file named ``lock`` and waits
for it to disappear; a build killed half-way leaves it behind and every later load hangs. We
take an OS lock (flock) first, which the kernel releases when its holder dies, and while
holding it any ``lock`` file left in the directory can only be stale, so it is removed.
"""

import contextlib
import os
import sys
import time

TORCH_LOCK_NAME = "lock"
OWN_LOCK_NAME = ".kernelwright.lock"


@contextlib.contextmanager
def build_lock(directory, log=print):
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, OWN_LOCK_NAME)
    with open(path, "a+") as handle:
        _acquire(handle, path, log)
        try:
            stale = os.path.join(directory, TORCH_LOCK_NAME)
            if os.path.exists(stale):
                os.remove(stale)
                log("kernelwright: removed %s, left by an interrupted build" % stale)
            yield
        finally:
            _release(handle)


def _acquire(handle, path, log):
    if sys.platform == "win32":  # no flock: fall back to torch's own file baton
        return
    import fcntl

    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        return
    except OSError:
        pass
    log(
        "kernelwright: another process is building in %s; waiting for it "
        "(a live process holds %s: stop it to stop waiting)" % (os.path.dirname(path), path)
    )
    start = time.time()
    fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
    log("kernelwright: lock acquired after %.0f s" % (time.time() - start))


def _release(handle):
    if sys.platform != "win32":
        import fcntl

        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
