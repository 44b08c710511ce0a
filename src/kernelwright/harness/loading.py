"""Import a problem or candidate file by path, with errors that say what is wrong."""

import importlib.util
import os
import sys


class LoadError(Exception):
    """A file could not be imported or lacks a required name."""


def load_module(path, module_name):
    """Import ``path`` as a module named ``module_name`` and return it.

    The module is registered in ``sys.modules`` before it runs, as a normal import
    would, so dataclasses, pickling and ``torch.compile`` can find it by name.  The
    file's directory goes on ``sys.path`` so that a file can import its siblings.
    """
    path = os.path.abspath(path)
    if not os.path.isfile(path):
        raise LoadError("no such file: %s" % path)
    directory = os.path.dirname(path)
    if directory not in sys.path:
        sys.path.insert(0, directory)
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise LoadError("cannot import %s (not a Python source file?)" % path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(module_name, None)
        raise
    return module


def require(module, names, what):
    """Return the named attributes of ``module``; raise LoadError naming any missing."""
    missing = [n for n in names if not hasattr(module, n)]
    if missing:
        raise LoadError(
            "%s %s does not define %s" % (what, getattr(module, "__file__", "?"), ", ".join(missing))
        )
    return [getattr(module, n) for n in names]
