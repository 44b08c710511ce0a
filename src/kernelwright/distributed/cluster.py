"""A client of the cluster: an existing Dask scheduler, or one started on this host."""

import contextlib
import logging
import os
import time

import dask
from distributed import Client, Nanny, Scheduler, SpecCluster

from kernelwright.distributed.common import LOCAL_CLUSTER, SchedulerError
from kernelwright.harness.suite import visible_gpus

log = logging.getLogger("kernelwright.distributed")


def local_cluster(jobs=None):
    """One evaluation worker per visible GPU (one on a CPU-only host), each seeing its GPU alone
    and offering the resource GPU=1, and one worker for builds with ``jobs`` threads.  Its
    scheduler leaves the rule for lost workers to kernelwright (allowed_failures 0)."""
    workers = {}
    for i, gpu in enumerate(visible_gpus() or [None]):
        env = {} if gpu is None else {"CUDA_VISIBLE_DEVICES": gpu}
        workers["gpu-%d" % i] = {"cls": Nanny, "options": {"nthreads": 1, "resources": {"GPU": 1}, "env": env}}
    workers["build"] = {"cls": Nanny, "options": {"nthreads": jobs or os.cpu_count() or 1}}
    return SpecCluster(workers=workers, silence_logs=logging.WARNING,
                       scheduler={"cls": Scheduler, "options": {"dashboard_address": None, "allowed_failures": 0}})


@contextlib.contextmanager
def connect(address, jobs=None):
    """A Client of the scheduler at ``address`` ("local-cluster": of a cluster started here and
    closed on leaving); a SchedulerError naming the address where it cannot be reached."""
    cluster = local_cluster(jobs) if address == LOCAL_CLUSTER else None
    try:
        try:
            # Dask's own setting, distributed.comm.timeouts.connect, says how long to try.
            client = Client(cluster or address, timeout=dask.config.get("distributed.comm.timeouts.connect"))
        except (OSError, TimeoutError, ValueError) as error:
            raise SchedulerError("cannot reach the Dask scheduler at %s: %s" % (address, error)) from None
        try:
            yield client
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()


def split_workers(client, address, poll_s=2.0):
    """(addresses of the workers that offer the resource GPU, those that do not).  Waits while
    the cluster has no worker at all (an adaptive one grows later); a SchedulerError where its
    workers offer no GPU, for the evaluations would wait for one forever."""
    said = False
    while True:
        workers = client.scheduler_info(n_workers=-1)["workers"]
        if workers:
            break
        if not said:
            log.warning("the scheduler at %s has no workers yet; waiting for them", address)
            said = True
        time.sleep(poll_s)
    gpu = sorted(a for a, w in workers.items() if (w.get("resources") or {}).get("GPU"))
    if not gpu:
        raise SchedulerError("no worker of the scheduler at %s offers the resource GPU: start one worker "
                             "per GPU with --resources GPU=1 (see docs/distributed.md)" % address)
    return gpu, sorted(set(workers) - set(gpu))
