"""The processes a worker started, found through /proc (Linux; elsewhere nothing is found).

A candidate can start a process that outlives its worker or shares the GPU with the timed
code: one that loads the device while the reference is timed slows the reference, not the
candidate.  A worker makes itself the reaper of its orphans, so that every process started
under it, even one that double-forks or opens a new session (out of reach of the worker's
process group), stays in its tree; the tree is inspected while timing and killed at the end.
"""

import ctypes
import os
import signal

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
DEVICE_FILES = "/dev/nvidia"  # /dev/nvidiactl, /dev/nvidia-uvm, /dev/nvidia<N>: a CUDA context holds them


def adopt_orphans():
    """Make this process the parent of its descendants' orphans (Linux 3.4+)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def die_with_parent(parent):
    """Be killed when the thread that started this process ends, and leave at once where the
    parent ``parent`` is already gone: a harness killed with SIGKILL (a Dask worker lost
    mid-candidate) leaves no evaluation running on for no one (Linux)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:
        os._exit(1)


def _stat(pid):
    """The fields of /proc/<pid>/stat after the command name: state, ppid, pgrp, session, ..."""
    try:
        with open("/proc/%s/stat" % pid) as f:
            stat = f.read()
    except OSError:
        return []
    # The command name (field 2) may hold spaces and parentheses: parse after its last ')'.
    return stat[stat.rfind(")") + 2:].split()


def _parents():
    """{pid: parent pid} for every process in view."""
    out = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return out
    for name in names:
        if name.isdigit():
            fields = _stat(name)
            if len(fields) > 1:
                out[int(name)] = int(fields[1])
    return out


def process_group(pid):
    """The process group of ``pid`` (None when it is gone).  A process that left its parent's
    group (setsid, setpgid, Popen's start_new_session) is out of reach of a kill of that group:
    honest code has no reason to do so, code that evades its harness does."""
    fields = _stat(pid)
    return int(fields[2]) if len(fields) > 2 else None


def descendants(pid):
    """The pids under ``pid``, nearest first."""
    children = {}
    for child, parent in _parents().items():
        children.setdefault(parent, []).append(child)
    found, frontier = [], [pid]
    while frontier:
        nxt = []
        for p in frontier:
            nxt.extend(children.get(p, ()))
        found.extend(nxt)
        frontier = nxt
    return found


def command_line(pid, limit=160):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            text = " ".join(f.read().replace(b"\0", b" ").decode(errors="replace").split())
    except OSError:
        return "?"
    return text if len(text) <= limit else text[:limit] + "..."


def uses_gpu(pid):
    """Whether ``pid`` holds an NVIDIA device file open: a process with a CUDA context does."""
    fd_dir = "/proc/%d/fd" % pid
    try:
        fds = os.listdir(fd_dir)
    except OSError:
        return False
    for fd in fds:
        try:
            if os.readlink(os.path.join(fd_dir, fd)).startswith(DEVICE_FILES):
                return True
        except OSError:
            continue
    return False


def kill_descendants(pid, rounds=3):
    """SIGKILL everything under ``pid``; again, for what was forked meanwhile.  Returns the
    pids signalled."""
    killed = set()
    for _ in range(rounds):
        pids = [p for p in descendants(pid) if p not in killed]
        if not pids:
            break
        for p in pids:
            try:
                os.kill(p, signal.SIGKILL)
                killed.add(p)
            except OSError:
                pass
            try:  # our own child leaves the process table only once waited for
                os.waitpid(p, os.WNOHANG)
            except ChildProcessError:
                pass
    return sorted(killed)
