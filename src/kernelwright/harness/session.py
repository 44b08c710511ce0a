"""The workers of one evaluation, and what a suite shares among the candidates of a problem.

An evaluation runs two workers (worker.py): the judge, which prepares the problem's input sets
and its references, and the candidate worker, which runs and times the candidate.  Alone
(``api.evaluate``) both are started for it and end with it.  In a suite, what belongs to the
problem is computed once per problem on each GPU and served to its candidates in turn
(:class:`ProblemJudge`): the judge with its input sets and float64 references, and
torch.compile's timing, whose ratio to eager is re-based on each candidate's own eager timing
(``verdict.borrow_compile``).  Every candidate still runs in a process of its own, started
while the previous one ran (:class:`Spares`), so that its imports are on nobody's clock.
"""

import json
import math
import os
import random
import shutil
import tempfile
import time
from dataclasses import asdict, replace

from kernelwright.harness import exchange
from kernelwright.harness.process import Worker, WorkerFailure
from kernelwright.harness.protocol import WARM_DEVICE_ENV, Cause, Command, Event, Role
from kernelwright.harness.verdict import borrow_compile, decide

# One seed per adversarial input variant, with room to spare: their list (inputs.VARIANTS)
# lives with torch, which this module does not import.
VARIANT_SEEDS = 8
# What a suite borrows from the worker that timed torch.compile for a problem.
_COMPILE_KEYS = ("eager", "eager_device", "compile", "compile_device")
# Flags a candidate may carry and still lend its worker's measurements to the next ones.
_CLEAN_FLAGS = {"no_custom_kernels", "host_bound"}
# A candidate worker ends by itself right after its RESULT; one still there after this is killed.
CANDIDATE_EXIT_S = 30


def default_memory_limit_mb():
    """Half of physical memory: enough for any sane candidate, never the whole machine."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2 / (1 << 20))
    except (ValueError, OSError):
        return 16384


def sanitize(obj):
    """JSON has no NaN or Infinity: report them as null."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {str(k): sanitize(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [sanitize(v) for v in obj]
    return obj


def evaluation_env(opts):
    """This process's environment with the evaluation's additions (process.worker_env then adds
    what every worker needs)."""
    env = dict(os.environ)
    env.update(opts.env or {})
    return env


def worker_limits(opts):
    """The time and memory limits every worker of an evaluation runs under."""
    return dict(memory_limit_mb=opts.memory_limit_mb or default_memory_limit_mb(),
                build_timeout=opts.build_timeout, timeout=opts.timeout)


def draw_seeds(opts):
    rng = random.Random(opts.seed) if opts.seed is not None else random.SystemRandom()
    draw = lambda: rng.randrange(1, 2**31 - 1)  # noqa: E731
    return {"init_seed": draw(), "trial_seeds": [draw() for _ in range(max(1, opts.trials))],
            "variant_seeds": [draw() for _ in range(VARIANT_SEEDS)]}


class ProblemJudge:
    """The judge of one problem, offered to its candidates one after another.

    With ``shared`` (a suite), the judge that prepared for the first candidate serves the next
    ones too, where both workers draw every input set from its seeds (then nothing the judge
    holds is within a candidate's reach; the judge restores its model's state before each) and
    it was idle when the last evaluation ended.  Otherwise each candidate gets a judge of its
    own, as an evaluation alone does."""

    def __init__(self, problem, opts, workdir=None, shared=False):
        self.problem = os.path.abspath(problem)
        self.seeds = draw_seeds(opts)
        self.workdir = workdir
        self.shared = shared
        self.worker = self.prepared = None
        self.idle = False
        # Measured beside the first candidate that passed clean, then lent to the others.
        self.compile_timings = self.compile_from = None
        self.ceiling = self.ceiling_from = None

    def offer(self, job, env, limits, space, others, spares=None):
        """The judge's PREPARED report for the next candidate; a new judge worker comes from
        ``spares`` where one waits there."""
        if self.worker is not None and self.idle and self.prepared.get("shareable"):
            self.worker.events.clear()
            self.worker.reset_phases()
            self.ask(Command.NEXT, {"exchange_dirs": space.dirs})
        else:
            self.retire()
            workdir = self.workdir or job["workdir"]
            job = dict(job, shared=self.shared, workdir=workdir)
            self.worker = spares.take(Role.JUDGE) if spares is not None else None
            if self.worker is not None:
                self.worker.take(dict(job, environ=self.worker.env_additions(env)), workdir)
            else:
                self.worker = Worker(Role.JUDGE, job, workdir, env, **limits)
        self.prepared = self.answer(Event.PREPARED, others)
        return self.prepared

    def ask(self, command, arg=None):
        self.idle = False
        self.worker.send(command if arg is None else "%s %s" % (command, json.dumps(arg)))

    def answer(self, event, others=()):
        msg = self.worker.wait_for(event, others=others)
        self.idle = True
        return msg

    def keep_or_retire(self):
        """After an evaluation: the judge stays for the next candidate only where it can serve it."""
        if not (self.shared and self.idle and self.prepared and self.prepared.get("shareable")):
            self.retire()

    def retire(self):
        if self.worker is not None:
            if self.idle:
                self.worker.send(Command.EXIT)
            self.worker.close()
        self.worker = self.prepared = None
        self.idle = False


class Spares:
    """Workers started ahead in a suite: each imports torch and the harness (a candidate worker
    torch.compile's machinery too) and makes its CUDA context while the evaluations before it
    run, then waits for its job.
    Two candidate workers ahead, since those imports take longer than a short evaluation; one
    judge, needed only when the GPU turns to another problem."""

    AHEAD = {Role.CANDIDATE: 2, Role.JUDGE: 1}

    def __init__(self, directory, opts, ahead=None, refill=True):
        """``ahead``: how many workers of each role to keep started (AHEAD by default);
        ``refill``: start another whenever one is taken (a suite's line, filled at the first
        take), or start them all now and no more (one evaluation's workers, importing while
        something else runs)."""
        self.directory, self.env, self.limits = directory, evaluation_env(opts), worker_limits(opts)
        # Each makes its CUDA context on the evaluations' device while it waits (worker.py).
        self.env[WARM_DEVICE_ENV] = opts.device or "auto"
        self.counts = dict(self.AHEAD if ahead is None else ahead)
        self.refill = refill
        self.ahead = {role: [] for role in self.AHEAD}
        self.started = 0
        if not refill:
            for role in self.counts:
                self._fill(role)

    def take(self, role=Role.CANDIDATE):
        """The oldest worker of ``role`` started ahead (None where there is none, or it died);
        with ``refill``, the line ahead is filled up again."""
        line = self.ahead[role]
        ready = line.pop(0) if line else None
        if ready is not None and ready.proc.poll() is not None:
            ready.close()
            ready = None
        if self.refill:
            self._fill(role)
        return ready

    def _fill(self, role):
        line = self.ahead[role]
        while len(line) < self.counts.get(role, 0):
            self.started += 1
            line.append(Worker(role, None, os.path.join(self.directory, "spare%d" % self.started),
                               self.env, **self.limits))

    def close(self):
        for line in self.ahead.values():
            for w in line:
                w.close()
        self.ahead = {role: [] for role in self.AHEAD}
        shutil.rmtree(self.directory, ignore_errors=True)


def _blank_result(problem, candidate, opts):
    return {
        "problem": problem, "candidate": candidate, "verdict": "error", "reason": "",
        "flags": [], "flag_details": {}, "error_vs_fp64": None, "reference_error_vs_fp64": None,
        "error_ratio": None, "allowed_error_ratio": None, "precision": None, "cudnn_allow_tf32": None,
        "speedup_vs_eager": None, "speedup_vs_compile": None,
        "speedup_vs_eager_idle": None, "speedup_vs_compile_idle": None,
        "speedup_vs_eager_device": None, "speedup_vs_compile_device": None, "cost_basis": {}, "timings": {},
        "flops": None, "bytes": None, "gbps": None, "tflops": None, "ceiling": None,
        "fraction_of_ceiling": None, "bound_by": None, "bound": None, "design": None,
        "device": opts.device, "device_name": None, "torch_version": None, "cuda_version": None,
        "python_version": None, "notes": [], "log_tail": None, "phase": None, "cause": None,
    }


def evaluate_with(problem, candidate, opts, judge=None, spares=None):
    """The record of one evaluation (see ``api.evaluate``); ``judge`` and ``spares`` as a suite
    shares them (see :func:`run_evaluation`)."""
    t_start = time.monotonic()
    result = run_evaluation(problem, candidate, opts, judge, spares)
    if result.get("cause") == Cause.INPUTS_NOT_REPRODUCED:
        # get_inputs() depends on something besides its seeds that differs between processes:
        # the same evaluation again, with the sets passed to the candidate worker (by a judge
        # of its own: a shared one draws them from their seeds).
        first = result["reason"]
        result = run_evaluation(problem, candidate, replace(opts, redraw_inputs=False))
        result["notes"].insert(0, "input sets passed through files: %s" % first)
    result["elapsed_s"] = time.monotonic() - t_start
    return result


def run_evaluation(problem, candidate, opts, judge=None, spares=None):
    """One evaluation's record.  ``judge``: the problem's :class:`ProblemJudge` where a suite
    shares it (else one of its own); ``spares``: where the candidate worker comes from."""
    t_start = time.monotonic()
    problem, candidate = os.path.abspath(problem), os.path.abspath(candidate)
    result = _blank_result(problem, candidate, opts)
    for path, what in ((problem, "problem"), (candidate, "candidate")):
        if not os.path.isfile(path):
            result["reason"] = "%s file not found: %s" % (what, path)
            return result

    judge = judge or ProblemJudge(problem, opts)
    own_workdir = opts.workdir is None
    workdir = tempfile.mkdtemp(prefix="kw-eval-") if own_workdir else opts.workdir
    os.makedirs(workdir, exist_ok=True)
    env = evaluation_env(opts)
    if opts.build_dir:
        env["TORCH_EXTENSIONS_DIR"] = os.path.abspath(opts.build_dir)
    result["seeds"] = judge.seeds
    limits = worker_limits(opts)
    mem = limits["memory_limit_mb"]
    space = cand = None
    try:
        # Tensors go to private directories in /dev/shm and the temp directory (see
        # exchange.py), removed below however the evaluation ends; the work directory keeps
        # the logs, and the tensors too only when asked to.
        space = exchange.Space(workdir if opts.keep_workdir else None)
        common = dict(problem=problem, candidate=candidate, device=opts.device, workdir=workdir,
                      memory_limit_mb=mem, atol=opts.atol, rtol=opts.rtol, exchange_dirs=space.dirs,
                      keep_files=opts.keep_workdir, device_exchange=opts.device_exchange,
                      redraw_inputs=opts.redraw_inputs, **judge.seeds)
        judge_job = dict(common, role=Role.JUDGE, max_input_bytes=opts.max_input_bytes,
                         reference_cache_bytes=opts.reference_cache_bytes,
                         reference_host_bytes=opts.reference_host_bytes,
                         reference_budget_s=opts.reference_budget_s)
        cand_job = dict(common, role=Role.CANDIDATE, compile=opts.compile and not judge.compile_timings,
                        ceiling=judge.ceiling,
                        escape_abs_ms=opts.escape_abs_ms, escape_rel=opts.escape_rel,
                        recheck_sample_elements=opts.recheck_sample_elements,
                        timing=dict(warmup=opts.warmup, warmup_ms=opts.warmup_ms, min_reps=opts.min_reps,
                                    max_reps=opts.max_reps, budget_s=opts.timing_budget_s,
                                    target_rse=opts.target_rse, rounds=opts.timing_rounds))
        cand = spares.take() if spares is not None else None
        if cand is not None:
            cand.take(dict(cand_job, environ=cand.env_additions(env)), workdir)
        else:
            cand = Worker(Role.CANDIDATE, cand_job, workdir, env, **limits)
        prepared = judge.offer(judge_job, env, limits, space, others=[cand], spares=spares)
        for key in ("device", "device_name", "torch_version", "cuda_version", "python_version", "cudnn_allow_tf32"):
            result[key] = prepared.get(key)
        if prepared.get("does_not_fit"):
            result.update(verdict="skipped", reason=prepared["does_not_fit"]["reason"],
                          does_not_fit=prepared["does_not_fit"])
        else:
            _judge_candidate(judge, cand, prepared, result, opts)
    except WorkerFailure as f:
        _record_failure(result, f, opts)
    finally:
        workers = [cand] + ([judge.worker] if judge.worker is not None else [])
        for w in workers:
            if w is not None:
                result.setdefault("peak_rss_mb", {})[w.name] = round(w.peak_rss_mb, 1)
                result.setdefault("phase_s", {})[w.name] = {k: round(v, 3) for k, v in w.phase_s.items()}
        if cand is not None:
            cand.close()
        judge.keep_or_retire()
        if result["verdict"] not in ("pass", "skipped") and result["log_tail"] is None and cand is not None:
            result["log_tail"] = cand.log_tail()
        # After the workers are dead (a shared judge waits idle): nothing writes to the
        # directories any more.
        if space is not None:
            space.close()
        if own_workdir and not opts.keep_workdir:
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            result["workdir"] = workdir
    result["elapsed_s"] = time.monotonic() - t_start
    result["options"] = {k: v for k, v in asdict(opts).items() if k != "env"}
    return sanitize(result)


def _record_failure(result, f, opts):
    who = "reference (problem file)" if f.worker == Role.JUDGE else "candidate"
    if str(f.details.get("cause") or "").startswith(Cause.HARNESS):
        who = "harness (in the %s worker)" % f.worker
    result["verdict"] = f.verdict
    reason = f.reason
    if f.details.get("cause") == Cause.OUT_OF_MEMORY and "out of memory" not in reason.lower():
        reason = "out of memory: " + reason  # e.g. the allocator's "can't allocate memory"
    if f.details.get("cause") == Cause.EXCHANGE_SPACE and opts.keep_workdir:
        reason += " (keep_workdir keeps every exchanged file, so none was freed on the way)"
    result["reason"] = "%s, %s: %s" % (who, f.phase, reason)
    result["phase"] = f.phase
    result["cause"] = f.details.get("cause")
    result["log_tail"] = f.log_tail
    if f.details.get("traceback"):
        result["traceback"] = f.details["traceback"]


def _judge_candidate(judge, cand, prepared, result, opts):
    """The evaluation once the judge has prepared its references: the candidate's outputs
    judged, its timing, the re-checks, then the verdict in ``result``."""
    jw = judge.worker
    cand.wait_for(Event.READY, others=[jw])
    cand.send(Command.GO + " " + json.dumps({
        "inputs": prepared["path"],
        "reference_mutates_inputs": prepared["reference_mutates_inputs"],
        "reference_aliases_inputs": prepared["reference_aliases_inputs"],
        "reference_output_types": prepared.get("output_types"),
        "handle_budget": prepared.get("handle_budget", 0),
        "drawn_rechecks": prepared.get("drawn_rechecks"),
        "dtype": (prepared.get("work") or {}).get("dtype", "float32"),
    }))
    # The outputs are judged before the candidate goes on, so that they and the input
    # sets only the judge needed are gone before the timed calls' outputs are written.
    outputs = cand.wait_for(Event.OUTPUTS, others=[jw])["outputs"]
    judge.ask(Command.JUDGE, outputs)
    judged = judge.answer(Event.JUDGED, others=[cand])
    cand.resume(Command.CONTINUE)
    cres = cand.wait_for(Event.RESULT, others=[jw])
    # Its timing sets and outputs gone before the judge rebuilds the re-checked calls' inputs
    # and references: on a 140 GB GPU the two together ran out of memory (mul_training_step).
    cand.end(CANDIDATE_EXIT_S)
    judge.ask(Command.RECHECK, cres["rechecks"])
    rechecked = judge.answer(Event.RECHECKED)
    if judge.shared:
        _borrow(judge, cres, result)
    decide(result, prepared, cres, judged, rechecked["results"], rechecked.get("tampered"), opts)
    if judge.shared and result["verdict"] == "pass" and set(result["flags"]) <= _CLEAN_FLAGS:
        _lend(judge, cres, result)


def _borrow(judge, cres, result):
    """What the problem's first clean candidate measured, in a later candidate's record: its
    torch.compile timing (verdict.borrow_compile) and the ceilings, each said in the notes."""
    timings = cres.get("timings") or {}
    if judge.compile_timings and "compile" not in timings:
        drift = borrow_compile(timings, judge.compile_timings)
        if drift is not None:
            result["compile_borrowed"] = {"timed_beside": judge.compile_from, "eager_drift": drift}
            result["notes"].append(
                "torch.compile timed once for the problem (beside %s) and scaled by this worker's eager "
                "time, %.3fx that worker's" % (os.path.basename(judge.compile_from), drift))
    if judge.ceiling and cres.get("ceiling") == judge.ceiling:
        result["notes"].append("ceilings measured once for the problem (beside %s)"
                               % os.path.basename(judge.ceiling_from))


def _lend(judge, cres, result):
    """Keep what this candidate's worker measured for the problem's next candidates: only from
    a clean pass, since a candidate that left work behind could slow what its worker timed
    after it."""
    timings = cres.get("timings") or {}
    if "compile" in timings and judge.compile_timings is None:
        judge.compile_timings = {k: timings[k] for k in _COMPILE_KEYS if k in timings}
        judge.compile_from = result["candidate"]
    if cres.get("ceiling") and judge.ceiling is None:
        judge.ceiling, judge.ceiling_from = cres["ceiling"], result["candidate"]
