"""Kernel launches through libcuda's C entry points (ctypes), for calls on a model's hot path.

cuda-bindings converts and checks every argument of ``cuLaunchKernel`` in Python; with the
context check around it a launch cost tens of microseconds of host time on the GPU hosts'
CPUs, more than a small kernel runs (level-1 12's emitted forward measured host-bound: 60 us a
call against 37 us on the device). A ctypes call with fixed argument types is about a
microsecond. The handles are the same driver objects cuda-bindings holds.
"""

import ctypes
import ctypes.util

from .errors import KernelLaunchError

_loaded = []


def libcuda():
    """libcuda with the launch entry points' signatures set, or None where it does not load."""
    if not _loaded:
        _loaded.append(_load())
    return _loaded[0]


def _load():
    try:
        lib = ctypes.CDLL(ctypes.util.find_library("cuda") or "libcuda.so.1")
    except OSError:
        return None
    u, p = ctypes.c_uint, ctypes.c_void_p
    lib.cuLaunchKernel.argtypes = [p, u, u, u, u, u, u, u, p, p, p]
    lib.cuLaunchCooperativeKernel.argtypes = [p, u, u, u, u, u, u, u, p, p]
    lib.cuCtxGetCurrent.argtypes = [ctypes.POINTER(p)]
    lib.cuCtxSetCurrent.argtypes = [p]
    lib.cuGetErrorName.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
    for f in (lib.cuLaunchKernel, lib.cuLaunchCooperativeKernel, lib.cuCtxGetCurrent, lib.cuCtxSetCurrent,
              lib.cuGetErrorName):
        f.restype = ctypes.c_int
    return lib


def launcher(lib, function, context, name, grid, block, shared_mem, cooperative):
    """``launch(stream, params)``: ``function`` (a CUfunction handle as an int) on the stream
    handle ``stream`` with ``params`` (the address of its argument pointers), in the primary
    context ``context`` (made current for the call where another one, or none, is)."""
    get_current, set_current = lib.cuCtxGetCurrent, lib.cuCtxSetCurrent
    dims = tuple(grid) + tuple(block)
    if cooperative:
        def call(stream, params):
            return lib.cuLaunchCooperativeKernel(function, *dims, shared_mem, stream, params)
    else:
        def call(stream, params):
            return lib.cuLaunchKernel(function, *dims, shared_mem, stream, params, None)

    def launch(stream, params):
        current = ctypes.c_void_p()
        get_current(ctypes.byref(current))
        switch = current.value != context
        if switch:
            set_current(context)
        try:
            err = call(stream, params)
        finally:
            if switch and current.value:
                set_current(current.value)
        if err:
            text = ctypes.c_char_p()
            lib.cuGetErrorName(err, ctypes.byref(text))
            raise KernelLaunchError("launching kernel %r failed: %s" % (name, (text.value or b"%d" % err).decode()))

    return launch
