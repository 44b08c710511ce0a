"""Suites on a Dask cluster: ``kernelwright eval --suite DIR --scheduler ADDRESS`` and
``kernelwright optimize --suite DIR --scheduler ADDRESS`` (docs/distributed.md).

Dask is optional (the extra ``distributed``): nothing here imports it until a suite is given a
scheduler, so the single-host path needs none of it.
"""

from kernelwright.distributed.common import LOCAL_CLUSTER, SchedulerError


def _scheduling():
    try:
        from kernelwright.distributed import scheduling
    except ImportError as error:
        if (error.name or "").split(".")[0] not in ("dask", "distributed"):
            raise
        raise SchedulerError("a scheduler needs Dask distributed, which is not installed: "
                             "pip install 'kernelwright[distributed]'") from None
    return scheduling


def evaluate_pending(scheduler, pending, out_dir, opts, record, jobs=None, build_first=True):
    """Evaluates ``pending`` pairs on the cluster at ``scheduler``; ``record`` gets each record."""
    _scheduling().evaluate_pending(scheduler, pending, out_dir, opts, record, jobs, build_first)


def optimize_pending(scheduler, pending, out, precision, timeout, record):
    """Optimizes ``pending`` problem files on the cluster at ``scheduler``; ``record`` gets each."""
    _scheduling().optimize_pending(scheduler, pending, out, precision, timeout, record)


__all__ = ["LOCAL_CLUSTER", "SchedulerError", "evaluate_pending", "optimize_pending"]
