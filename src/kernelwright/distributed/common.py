"""What the client, the workers and the reports share, without Dask."""

LOCAL_CLUSTER = "local-cluster"
# Each task says on this topic that it began, and where: a task that began and then lost its
# worker is one that died mid-candidate.
TOPIC = "kernelwright-started"
# A candidate whose worker is lost runs once more elsewhere; lost a second time, it is a crash.
ATTEMPTS = 2
WORKER_LOST = "worker_lost"


class SchedulerError(RuntimeError):
    """The cluster cannot run the suite (unreachable, no GPU workers, a task failed there)."""


def where(rec):
    """"host, GPU (worker)" of a judged_by or lost_workers entry."""
    return "%s, %s (%s)" % (rec.get("host"), rec.get("gpu"), rec.get("worker"))


def judged_by_markdown(records, name=lambda r: r.get("id") or r.get("problem")):
    """The summary.md section naming the host, GPU and Dask worker that judged each record;
    empty for a single-host run, whose records carry none."""
    placed = [r for r in records if r.get("judged_by") or r.get("lost_workers")]
    if not placed:
        return ""
    lines = ["", "## Where each was judged", "",
             "Each speedup compares a candidate with references timed in the same evaluation, on the same "
             "GPU. Workers lost while it ran: its candidate ran again elsewhere (once).", "",
             "| candidate | host | GPU | worker | workers lost under it |", "|---|---|---|---|---|"]
    for r in placed:
        j = r.get("judged_by") or {}
        lines.append("| %s | %s | %s | %s | %s |" % (name(r), j.get("host", "-"), j.get("gpu", "-"), j.get("worker", "-"),
                                                     "; ".join(where(w) for w in r.get("lost_workers") or []) or "-"))
    return "\n".join(lines) + "\n"
