"""Whether a problem fits the device, decided from its sizes before anything large is made.

A problem whose sets cannot be held used to end in an out-of-memory crash part-way through an
evaluation (``mul_training_step`` on an 80 GB GPU: three 6 GiB inputs, three 6 GiB outputs), and
a crash fails ``kernelwright run``.  The judge now first learns the sizes of one input set and
of one output set from a forward on fake tensors (no memory, no kernels), compares the larger of
the two workers' peaks (docs/harness.md, "Memory") with the memory free, and reports a problem
that cannot fit as ``skipped``, with the figures, instead of running it.
"""

import torch
from torch._subclasses.fake_tensor import FakeTensorMode

from kernelwright.harness import inputs
from kernelwright.harness.plumbing import device_free_bytes, headroom, host_room

GIB = 1 << 30
# The other worker's CUDA context, which it may not have made yet when the judge measures.
CONTEXT_BYTES = 1 << 30


def peaks(in_bytes, out_bytes):
    """{(worker, phase): device bytes at its peak} for sets of ``in_bytes`` and outputs of
    ``out_bytes``, without the model's own working memory and the optional float64 reference
    (which runs on the host, or not at all, where the device has no room for it)."""
    s, o = in_bytes, out_bytes
    return {
        # The set, the copy the eager reference runs on and its output; making a variant
        # holds the draw and the variant (2s, never more than this).
        ("judge", "reference trials"): 2 * s + o,
        # The eager output recomputed and the candidate's, compared a chunk at a time.
        ("judge", "judging"): 2 * o,
        # The set, its copy, the output and its snapshot (with passed sets).
        ("candidate", "correctness"): 2 * s + 2 * o,
        # Two copies of the set; the first output, the reference's kept result and the second.
        ("candidate", "recycled-memory check"): 2 * s + 3 * o,
        # One rotating set and its pristine copy, and the output.
        ("candidate", "timing"): 2 * s + o,
    }


def required_bytes(in_bytes, out_bytes, weight_bytes=0):
    """(bytes the evaluation needs at its peak, (worker, phase) of that peak).  The weights are
    counted three times: the judge's Model, the candidate worker's Model and ModelNew."""
    (worker, phase), peak = max(peaks(in_bytes, out_bytes).items(), key=lambda kv: kv[1])
    return peak + 3 * weight_bytes, (worker, phase)


def dry_sizes(Model, init_inputs, get_inputs, seed, device):
    """(input set bytes, output bytes, weight bytes) of the problem on ``device``, from a forward
    on fake tensors: shapes and dtypes only, so a problem of any size costs nothing to size.
    Raises what the forward raises where fake tensors cannot follow it (data-dependent control
    flow, ops without a fake kernel)."""
    inputs.seed_everything(seed)
    with FakeTensorMode(allow_non_fake_inputs=True), torch.device(device):
        model = Model(*init_inputs)
        x = get_inputs()
        with torch.no_grad():
            out = model(*x)
        weights = model.state_dict() if isinstance(model, torch.nn.Module) else {}
    return inputs.nbytes(list(x)), inputs.nbytes(out), inputs.nbytes(list(weights.values()))


def misfit(Model, init_inputs, get_inputs, seed, device, job):
    """(why the problem cannot be evaluated in the memory here or None, its output bytes or None,
    a note or None): the sizes come from a forward on fake tensors (dry_sizes), before anything
    is made on ``device``; ``job``: the judge's, for the worker's memory cap on the host."""
    try:
        in_b, out_b, weight_b = dry_sizes(Model, init_inputs, get_inputs, seed, device)
    except Exception as exc:  # noqa: BLE001 - then the run itself finds out, as before
        return None, None, "memory need not estimated beforehand: a forward on fake tensors failed (%s: %s)" % (
            type(exc).__name__, str(exc).split("\n")[0][:200])
    if device.type == "cuda":
        free, total = device_free_bytes(torch, device)
        reserve = headroom(total) + CONTEXT_BYTES
        where = "%s (%s)" % (device, torch.cuda.get_device_properties(device).name)
    else:
        free = host_room(job)
        if free is None:
            return None, out_b, None
        total, reserve = int(job["memory_limit_mb"]) << 20, 0
        where = "a worker's memory cap (%d MiB)" % int(job["memory_limit_mb"])
    return check(in_b, out_b, weight_b, free, total, reserve, where), out_b, None


def warm(device):
    """Fake tensors' first use (their dispatch set up: most of a second), on ``device`` (a
    torch.device; None: the CPU)."""
    try:
        with FakeTensorMode(), torch.device(device or "cpu"):
            torch.ones(2).add(1)
    except Exception:  # noqa: BLE001 - dry_sizes meets the same error and says so
        pass


def check(in_bytes, out_bytes, weight_bytes, free, total, reserve, where):
    """None when the evaluation fits in ``free`` bytes less ``reserve``, else a dict saying why
    not: the sizes, the memory free and what would be needed (``reason``: one line)."""
    need, (worker, phase) = required_bytes(in_bytes, out_bytes, weight_bytes)
    if need + reserve <= free:
        return None
    reason = "does not fit %s: input sets of %s and outputs of %s need about %s at the peak (the %s worker's %s)%s; " \
             "%s of %s is free" % (where, size(in_bytes), size(out_bytes), size(need), worker, phase,
                                   " plus %s of headroom" % size(reserve) if reserve else "", size(free), size(total))
    return {"reason": reason, "input_bytes": in_bytes, "output_bytes": out_bytes, "weight_bytes": weight_bytes,
            "needed_bytes": need, "reserve_bytes": reserve, "free_bytes": free, "total_bytes": total,
            "peak": "%s: %s" % (worker, phase)}


def size(n):
    return "%.1f GiB" % (n / GIB) if n >= GIB else "%.0f MiB" % (n / 2**20)


def set_counts(n_seeds, max_sets):
    """(trials, variants) of at most ``max_sets`` sets: variants first, once there is a trial."""
    n_trials = min(n_seeds, max(1, max_sets - len(inputs.VARIANTS)))
    return n_trials, min(len(inputs.VARIANTS), max(0, max_sets - n_trials))


def sets_in_time(n_trials, n_variants, set_s, budget_s, notes):
    """(trials, variants) whose references fit ``budget_s`` where a set's take ``set_s``: every
    set's references are computed again for each re-checked call and, beyond what the judge
    can keep, when judging (level-1 68, H200: 3 s a set, most of it the float64 forward).
    At least two sets; ``notes`` gets a line where there are fewer than asked."""
    n = n_trials + n_variants
    if budget_s is None or set_s <= 0 or n * set_s <= budget_s:
        return n_trials, n_variants
    trials, variants = set_counts(n_trials, min(n, max(2, int(budget_s // set_s))))
    notes.append("references take %.1f s a set: %d trials and %d variants (reference_budget_s %g)" % (
        set_s, trials, variants, budget_s))
    return trials, variants


def rechecks_in_time(set_s, budget_s, most, notes):
    """Timed calls to re-check, drawn in advance: ``most``, or as many as a quarter of
    ``budget_s`` pays for where each costs a set's references, ``set_s`` (at least one);
    ``notes`` gets a line where there are fewer."""
    if budget_s is None or set_s <= 0 or most * set_s <= budget_s / 4:
        return most
    n = max(1, int(budget_s / 4 // set_s))
    notes.append("%d timed call%s re-checked in advance, not %d: each re-check computes the references again"
                 % (n, "" if n == 1 else "s", most))
    return n
