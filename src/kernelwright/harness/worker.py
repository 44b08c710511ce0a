"""Worker processes: the only places where problem and candidate code ever run.

    python -m kernelwright.harness.worker JOB.json MESSAGE_FD

Three roles, chosen by the job file:

``judge``      imports the problem only.  Builds the reference Model, draws the trial
               inputs and adversarial variants, runs the eager reference and the float64
               reference, and writes the inputs and weights for the candidate worker.
               It then waits for commands on stdin and compares the candidate's outputs
               with its own.  The candidate's code never runs in this process, so it
               cannot reach the comparison.
``candidate``  imports the problem (for the timed references) and the candidate; runs the
               candidate on the judge's inputs with anti-cheat checks, then times the
               eager reference, the candidate and the torch.compile reference.
``build``      imports the candidate only, so that its extensions get compiled.

Messages to the parent are JSON lines on MESSAGE_FD; stdout and stderr go to a log file.
"""

import copy
import faulthandler
import json
import os
import sys
import time
import traceback

from kernelwright.harness import proctree
from kernelwright.harness.protocol import PRECISION_ENV, Cause, Command, Event, Role, parse_command

_write = os.write
_perf_counter = time.perf_counter
_sleep = time.sleep


def _os_bits(k, _urandom=os.urandom):
    """``k`` random bits straight from the OS.  The candidate worker draws its timing scales
    and re-checked calls here rather than through ``random.SystemRandom``, whose methods and
    module internals (``random._urandom``) candidate code could replace to predict them."""
    return int.from_bytes(_urandom((k + 7) // 8), "little") >> (-k % 8)


def _os_uniform(a, b):
    return a + (b - a) * (_os_bits(53) / float(1 << 53))


def _os_sample(n, k):
    """``k`` distinct integers of ``range(n)``."""
    chosen = set()
    while len(chosen) < min(k, n):
        chosen.add(_os_bits(64) % n)
    return chosen


class Channel:
    def __init__(self, fd):
        self.fd = fd

    def send(self, **msg):
        data = (json.dumps(msg, default=str) + "\n").encode()
        while data:
            n = _write(self.fd, data)
            data = data[n:]

    def phase(self, name):
        self.send(phase=name)


def _limit_memory(limit_mb):
    """Cap address space growth at ``limit_mb`` beyond what is mapped now (CPU only).

    CUDA reserves terabytes of virtual address space, so on GPUs the parent enforces the
    limit on resident memory instead.
    """
    import resource

    try:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except (ValueError, OSError):
        pass
    if not limit_mb:
        return
    with open("/proc/self/statm") as f:
        vsz = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    cap = vsz + int(limit_mb) * (1 << 20)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    except (ValueError, OSError):
        pass


def _failure(exc):
    """A report of an exception, as 'error' or, when the process cannot go on, 'crash'."""
    msg = "%s: %s" % (type(exc).__name__, exc)
    low = msg.lower()
    status = "error"
    cause = None
    if type(exc).__name__ == "ExchangeSpaceError":
        cause = Cause.EXCHANGE_SPACE
    elif type(exc).__name__ == "HandleError":
        cause = Cause.EXCHANGE_BY_HANDLE
    elif type(exc).__name__ == "InputsNotReproduced":
        cause = Cause.INPUTS_NOT_REPRODUCED
    elif isinstance(exc, MemoryError) or "out of memory" in low or "can't allocate memory" in low \
            or "outofmemoryerror" in low or "cannot allocate memory" in low:
        status, cause = "crash", Cause.OUT_OF_MEMORY
    elif any(s in low for s in ("illegal memory access", "cuda error", "device-side assert",
                                "misaligned address", "unspecified launch failure", "cublas_status",
                                "cudnn_status", "illegal instruction")):
        status, cause = "crash", Cause.CUDA_ERROR
    tb = traceback.format_exc()
    return {"status": status, "cause": cause, "message": msg[:4000], "traceback": tb[-6000:]}


def _resolve_device(name, torch):
    if name in (None, "", "auto"):
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    dev = torch.device(name)
    if dev.type == "cuda" and not torch.cuda.is_available():
        raise RuntimeError("device cuda requested but torch.cuda.is_available() is False")
    return dev


def _environment(torch, device):
    env = {
        "device": str(device),
        "torch_version": torch.__version__,
        "cuda_version": torch.version.cuda,
        "python_version": sys.version.split()[0],
        # The precision contract of the verdict (api.precision_check) follows it.
        "float32_matmul_precision": torch.get_float32_matmul_precision(),
    }
    if device.type == "cuda":
        props = torch.cuda.get_device_properties(device)
        env["device_name"] = props.name
        env["l2_cache_bytes"] = int(getattr(props, "L2_cache_size", 0) or 0)
    else:
        import platform

        env["device_name"] = platform.processor() or platform.machine()
    return env


def _sync(torch, device):
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def _nbytes(obj):
    from kernelwright.harness.inputs import tensors_in

    return sum(t.numel() * t.element_size() for t in tensors_in(obj))


def _copy_tensor(t, torch, device=None):
    """A plain ``torch.Tensor`` copy of ``t``, never a view of it.  A subclass's values are
    copied with its ``__torch_function__`` off: its own methods could return anything
    (a lazy or self-substituting tensor), and a pickled subclass is no file the judge can
    read.  The subclass itself is flagged elsewhere."""
    if type(t) in (torch.Tensor, torch.nn.Parameter):
        return t.detach().clone() if device is None else t.detach().to(device, copy=True)
    with torch._C.DisableTorchFunctionSubclass():
        out = torch.empty(tuple(t.shape), dtype=t.dtype, device=t.device if device is None else device)
        out.copy_(t.detach())
    return out


def _copy_tree(obj, torch, device=None, subclasses_only=False):
    """A copy of every tensor in a (nested) output, on ``device`` (default: where it is),
    with containers kept; with ``subclasses_only``, plain tensors are kept as they are."""
    if isinstance(obj, torch.Tensor):
        if subclasses_only and type(obj) in (torch.Tensor, torch.nn.Parameter):
            return obj
        return _copy_tensor(obj, torch, device)
    if isinstance(obj, (list, tuple)):
        return type(obj)(_copy_tree(o, torch, device, subclasses_only) for o in obj)
    if isinstance(obj, dict):
        return {k: _copy_tree(v, torch, device, subclasses_only) for k, v in obj.items()}
    return obj


# --------------------------------------------------------------------------- judge


def _rss_bytes():
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _release(torch, device):
    """Give cached device memory back, so the other worker (or the next phase) can use it."""
    if device.type == "cuda":
        torch.cuda.synchronize(device)
        torch.cuda.empty_cache()


def _device_free_bytes(torch, device):
    """(bytes this process can still get on ``device``, total bytes); cached free blocks count."""
    free, total = torch.cuda.mem_get_info(device)
    stats = torch.cuda.memory_stats(device)
    cached = stats.get("reserved_bytes.all.current", 0) - stats.get("allocated_bytes.all.current", 0)
    return free + max(0, cached), total


def _headroom(total):
    return max(1 << 30, total // 32)


def _host_room(job):
    """Bytes this worker may still add to its resident memory (None: no cap)."""
    limit = job.get("memory_limit_mb")
    if not limit:
        return None
    return int(limit) * (1 << 20) - _rss_bytes() - (512 << 20)


def _exchange_dirs(job):
    return job.get("exchange_dirs") or [job["workdir"]]


def _holder(job, torch, device):
    """Where this worker keeps the GPU tensors it passes by handle (see handles.py); None when
    everything goes through files (on the CPU, when asked, or when the files are kept)."""
    if device.type != "cuda" or not job.get("device_exchange", True) or job.get("keep_files"):
        return None
    from kernelwright.harness import handles

    return handles.Holder(torch)


# The timing rotates through at most this many trial draws.  Their files stay until the
# re-checks, whose inputs the judge rebuilds from them; every other set's file goes once
# the candidate's outputs are judged.
TIMING_SETS = 3
# Timed calls re-checked: three drawn in advance, at most two more at random; on a GPU, one
# more drawn among the calls of the device-time rounds.
MAX_RECHECKS = 5
# Rounds of gated (device-time) measurement, GPU only.
DEVICE_ROUNDS = 2
# The gate opens by itself after this many times the slower side's wall time from an idle GPU
# (plus GATE_TIMEOUT_PAD_MS): a call's host part never takes that long unless it waits on the
# device, which the closed gate would hold forever.
GATE_TIMEOUT_FACTOR = 3.0
GATE_TIMEOUT_PAD_MS = 5.0


def _reps_per_round(min_reps, rounds):
    return max(2, -(-min_reps // rounds))


def _timing_sets(names):
    return [n for n in names if n.startswith("trial")][:TIMING_SETS]


class _Judge:
    def __init__(self, job, chan):
        import torch

        from kernelwright.harness import compare, exchange, inputs, roofline
        from kernelwright.harness.loading import load_module, require

        self.torch, self.compare, self.inputs, self.exchange = torch, compare, inputs, exchange
        self.roofline = roofline
        self.job, self.chan = job, chan
        self.device = _resolve_device(job["device"], torch)
        if self.device.type == "cpu":
            _limit_memory(job.get("memory_limit_mb"))
        chan.phase("import problem")
        problem = load_module(job["problem"], "kw_problem")
        self.Model, self.get_inputs, self.get_init_inputs = require(
            problem, ["Model", "get_inputs", "get_init_inputs"], "problem")
        self.fp64_where = None
        self.fp64_note = None
        self.model64 = None
        self.dirs = _exchange_dirs(job)
        self.keep_files = bool(job.get("keep_files"))
        self.holder = _holder(job, torch, self.device)
        self.handle_room = None
        self.fingerprint_key = None
        self.fingerprints, self.tampered = {}, None
        self.work = None
        # Sets drawn again from their seeds (see _redrawable): {name: (trial, variant)}, the
        # fingerprints the candidate worker checks its own draws against, and their key.
        self.redraw, self.recipes, self.drawn = False, {}, {}
        self.draw_key = None
        self.drew_on_host = False

    def _fp64_choose(self, x, out_bytes):
        """Where float64 runs: the device when it has room for it, else the host, else nowhere."""
        in_bytes = self.inputs.nbytes(x)
        need = 2 * (in_bytes + out_bytes)  # float64 copies of the inputs and of the outputs
        where = [self.device]
        if self.device.type == "cuda":
            free, total = _device_free_bytes(self.torch, self.device)
            if need + _headroom(total) > free:
                where = []
                self.fp64_note = "float64 reference needs about %.1f GiB; the device had %.1f GiB free" % (
                    need / 2**30, free / 2**30)
            where.append(self.torch.device("cpu"))
        room = _host_room(self.job)
        if room is not None and self.device.type == "cuda" and need + in_bytes > room:
            where = [d for d in where if d.type != "cpu"]
        return where, need

    def _fp64(self, x, out_bytes=0):
        """The float64 reference output for ``x``, or None when float64 cannot run."""
        torch, inputs = self.torch, self.inputs
        if self.fp64_where is None:
            where, need = self._fp64_choose(x, out_bytes)
            errors = []
            for dev in where:
                try:
                    self.model64 = copy.deepcopy(self.model).to(dev).double()
                    out = self.model64(*inputs.float64_copy(inputs.to_device(x, dev)))
                    self.fp64_where = "float64 on %s" % dev.type
                    if errors or dev.type != self.device.type:
                        self.fp64_note = "float64 reference ran on %s (%s)" % (
                            dev.type, "; ".join(errors) or self.fp64_note)
                    return out
                except Exception as exc:
                    errors.append("%s on %s: %s" % (type(exc).__name__, dev.type, str(exc)[:200]))
                    self.model64 = None
                    _release(torch, self.device)
            self.fp64_where = "unavailable"
            if not where:
                errors.append("needs about %.1f GiB on the device or the host; neither has room" % (need / 2**30))
            self.fp64_note = "float64 reference failed (%s); compared with eager only" % "; ".join(errors)
            return None
        if self.fp64_where == "unavailable":
            return None
        dev = "cpu" if self.fp64_where == "float64 on cpu" else self.device
        return self.model64(*inputs.float64_copy(inputs.to_device(x, dev)))

    def _references(self, x):
        """(eager, float64, reference mutates its inputs, reference output aliases them)."""
        from kernelwright.harness.anticheat import aliased_outputs, mutated_inputs, type_name
        from kernelwright.harness.compare import flatten

        torch = self.torch
        xc, eager = self._eager(x)
        self.out_types |= {type_name(type(v)) for _, v in flatten(eager) if isinstance(v, torch.Tensor)}
        mutates = bool(mutated_inputs(xc, x))
        aliases = bool(aliased_outputs(flatten(eager), xc))
        eager = _copy_tree(eager, torch)
        del xc
        ref64 = self._fp64(x, _nbytes(eager))
        return eager, ref64, mutates, aliases

    def _eager(self, x):
        """(a clone of ``x``, the eager reference's output on it); the first call also counts
        the reference's work (see roofline.py), with no forward of its own."""
        xc = self.inputs.clone_tree(x)
        if self.work is not None:
            return xc, self.model(*xc)
        try:
            eager, self.work = self.roofline.count_work(self.model, xc)
            return xc, eager
        except Exception as exc:
            # The metric must never cost the verdict: run plainly (a fault of the problem
            # itself raises again there) and say why the work is missing.
            self.work = {"note": "work of the reference not counted: %s: %s" % (type(exc).__name__, str(exc)[:200])}
            xc = self.inputs.clone_tree(x)
            return xc, self.model(*xc)

    @staticmethod
    def _all_finite(out, torch):
        from kernelwright.harness.compare import flatten

        def finite(v):
            # By chunk: isfinite on a whole float64 tensor makes temporaries its size.
            flat = v.reshape(-1)
            step = 1 << 23
            return all(bool(torch.isfinite(flat[i:i + step]).all()) for i in range(0, flat.numel(), step))

        return all(finite(v) for _, v in flatten(out) if isinstance(v, torch.Tensor) and v.is_floating_point())

    def prepare(self):
        torch, inputs, job, chan = self.torch, self.inputs, self.job, self.chan
        chan.phase("reference setup")
        inputs.seed_everything(job["init_seed"])
        init_inputs = list(self.get_init_inputs())
        inputs.seed_everything(job["init_seed"])
        self.model = self.Model(*init_inputs).to(self.device)
        state = {k: v.detach().cpu() for k, v in self.model.state_dict().items()}

        chan.phase("reference trials")
        seeds = job["trial_seeds"]
        first = self._draw(seeds[0])
        self.redraw = self._redrawable(first, seeds[0])
        per_set = max(1, _nbytes(first))
        # Very large problems: a bounded number of sets keeps the time and exchange space in
        # check.  Memory does not depend on the count: sets are made, run and written one
        # at a time.
        max_sets = max(2, int(job.get("max_input_bytes", 4 << 30) // per_set))
        n_trials = min(len(seeds), max(1, max_sets - len(inputs.VARIANTS)))
        n_variants = min(len(inputs.VARIANTS), max(0, max_sets - n_trials))
        notes = []
        if n_trials < len(seeds) or n_variants < len(inputs.VARIANTS):
            notes.append("inputs are %.0f MiB per set: %d trials and %d variants" % (
                per_set / 2**20, n_trials, n_variants))
        keep_budget = int(job.get("reference_cache_bytes", 1 << 30))
        self.kept_bytes = self.set_ref_bytes = 0

        self.sets, self.expected, self.paths = [], {}, {}
        self.ref_mutates = self.ref_aliases = False
        self.base_finite, self.dropped, self.out_dtypes, self.out_types = {}, [], set(), set()
        order = {}
        with torch.no_grad():
            for b in range(n_trials):
                # Variants are made where the data lives (the device), from the draw they
                # vary, while it is there: one draw and one variant in memory at a time.
                order["trial%d" % b] = b
                self.recipes["trial%d" % b] = (b, None)
                if b == 0 or not self.redraw:
                    x = inputs.to_device(first if b == 0 else self._draw(seeds[b]), self.device)
                else:  # exactly as the candidate worker will draw it: no fallback to the host
                    x = self._load_set("trial%d" % b)
                first = None
                self._add_set("trial%d" % b, x, None, keep_budget)
                for k, kind in enumerate(inputs.VARIANTS[:n_variants]):
                    if k % n_trials != b:
                        continue
                    name = "%s(trial%d)" % (kind, b)
                    order[name] = n_trials + k
                    self.recipes[name] = (b, k)
                    if x is None:  # the draw is made again or read back rather than held
                        x = self._load_set("trial%d" % b)
                    v = inputs.make_variant(x, kind, job["variant_seeds"][k])
                    x = None
                    _release(torch, self.device)
                    self._add_set(name, v, "trial%d" % b, keep_budget)
                    del v
                x = None
                _release(torch, self.device)
        self.sets.sort(key=lambda item: order[item[0]])
        self.timing_names = _timing_sets([name for name, _ in self.sets])
        if len(self.expected) < len(self.sets):
            notes.append("reference results recomputed when judging (%d of %d sets; %.0f MiB each kept "
                         "would exceed %.0f MiB)" % (len(self.sets) - len(self.expected), len(self.sets),
                                                      self.set_ref_bytes / 2**20, keep_budget / 2**20))

        redraw = None
        if self.redraw:
            redraw = {"key": self.draw_key,
                      "sets": {name: list(self.recipes[name]) + [self.drawn[name]] for name, _ in self.sets}}
        setup_path = self.exchange.save({"state_dict": state, "init_inputs": init_inputs,
                                         "sets": [(name, self.paths[name]) for name, _ in self.sets],
                                         "redraw": redraw},
                                        "setup.pt", self.dirs)
        chan.send(event=Event.PREPARED, path=setup_path, sets=[n for n, _ in self.sets], dropped=self.dropped,
                  fp64=self.fp64_where, fp64_note=self.fp64_note, notes=notes,
                  reference_mutates_inputs=self.ref_mutates, reference_aliases_inputs=self.ref_aliases,
                  output_dtypes=sorted(self.out_dtypes), output_types=sorted(self.out_types),
                  input_bytes=per_set, work=self.work,
                  handle_budget=self.handle_budget(), sets_by_handle=len(self.fingerprints),
                  sets_redrawn=len(self.drawn),
                  **_environment(torch, self.device))

    def _draw(self, seed):
        """One draw of the inputs, on the device where it fits and where ``get_inputs()`` works
        with the device as the default (one that draws with a CPU generator does not), else on
        the host; an error there is the problem's own."""
        if not self.drew_on_host:
            try:
                return self.inputs.draw_inputs(self.get_inputs, seed, self.device)
            except Exception:  # noqa: BLE001 - drawn again on the host, as get_inputs() is written
                _release(self.torch, self.device)
                self.drew_on_host = self.device.type == "cuda"
                if not self.drew_on_host:
                    raise
        return self.inputs.draw_inputs(self.get_inputs, seed)

    def _redrawable(self, first, seed):
        """Whether both workers draw the sets from their seeds instead of passing them.

        A set of several GiB costs seconds each way through a file, and the judge and the
        candidate worker each need every set more than once; drawing one on the GPU takes
        milliseconds.  Only where ``get_inputs()`` gives the same bytes when drawn twice here,
        on the device; the candidate worker checks each of its draws against the judge's
        fingerprint.  Files keep the sets when asked to (``keep_files``, or
        ``redraw_inputs=False``).
        """
        if self.keep_files or not self.job.get("redraw_inputs", True) or self.drew_on_host:
            return False
        try:
            again = self._draw(seed)
        except Exception:  # noqa: BLE001 - a second draw that fails is not reproducible
            again = None
        same = again is not None and not self.drew_on_host and self.inputs.identical(first, again)
        del again
        _release(self.torch, self.device)
        if same:
            from kernelwright.harness.handles import new_key

            self.draw_key = new_key()
        return same

    def _add_set(self, name, x, base, keep_budget):
        torch = self.torch
        from kernelwright.harness.compare import flatten
        from kernelwright.harness.handles import fingerprint

        eager, ref64, mutates, aliases = self._references(x)
        self.ref_mutates |= mutates
        self.ref_aliases |= aliases
        finite = self._all_finite(eager, torch) and (ref64 is None or self._all_finite(ref64, torch))
        if base is None:
            self.base_finite[name] = finite
        elif not finite and self.base_finite.get(base, False):
            self.dropped.append(name)
            return
        self.out_dtypes |= {str(v.dtype).replace("torch.", "") for _, v in flatten(eager)
                            if isinstance(v, torch.Tensor)}
        if self.holder is not None and self.handle_room is None:
            self._size_handle_budget(x, eager)
        if self.redraw:
            self.drawn[name] = fingerprint(x, self.draw_key, torch)
            self.paths[name] = None
        else:
            self.paths[name] = self.exchange.save(x, "set%d.pt" % len(self.paths), self.dirs, self.holder)
        if self.holder is not None and self.holder.holds(self.paths[name]):
            # The candidate worker maps this very memory while it copies the set.
            from kernelwright.harness.handles import new_key

            self.fingerprint_key = self.fingerprint_key or new_key()
            self.fingerprints[name] = fingerprint(x, self.fingerprint_key, torch)
        self.sets.append((name, None))
        self.set_ref_bytes = _nbytes(eager) + _nbytes(ref64)
        # Small references stay in memory; large ones are recomputed from the set when the
        # candidate's output arrives, so the judge holds no copies in between.
        if self.kept_bytes + self.set_ref_bytes <= keep_budget:
            self.expected[name] = (eager, ref64)
            self.kept_bytes += self.set_ref_bytes

    def _size_handle_budget(self, x, eager):
        """What the judge may hold for the candidate worker, from the first set's sizes."""
        from kernelwright.harness.handles import room_bytes

        in_b, out_b = _nbytes(x), _nbytes(eager)
        fp64_b = 2 * (in_b + out_b) if self.fp64_where == "float64 on cuda" else 0
        total = self.torch.cuda.get_device_properties(self.device).total_memory
        self.holder.budget, self.handle_room = room_bytes(total, in_b, out_b, fp64_b)

    def handle_budget(self):
        """Bytes of outputs the candidate worker may pass by handle: the room the judge left."""
        if self.holder is None or self.handle_room is None:
            return 0
        from kernelwright.harness.handles import candidate_budget

        total = self.torch.cuda.get_device_properties(self.device).total_memory
        return candidate_budget(total, self.handle_room, self.holder.bytes)

    def _load_set(self, name, writable=False):
        """Set ``name`` on the device; a copy of its own when ``writable``."""
        if self.redraw:
            job = self.job
            return self.inputs.draw_set(self.get_inputs, self.recipes[name], job["trial_seeds"],
                                        job["variant_seeds"], self.device)
        path = self.paths[name]
        if self.holder is None or not self.holder.holds(path):
            return self.inputs.to_device(self.exchange.load(path, "cpu"), self.device)
        x = self.holder.get(path)
        from kernelwright.harness.handles import fingerprint

        if fingerprint(x, self.fingerprint_key, self.torch) != self.fingerprints[name] and not self.tampered:
            self.tampered = "the judge's copy of input set %s changed while the candidate worker could reach it" % name
        return self.inputs.clone_tree(x) if writable else x

    def _expected(self, name):
        if name in self.expected:
            return self.expected[name]
        x = self._load_set(name)
        eager, ref64, _, _ = self._references(x)
        return eager, ref64

    def _done_with(self, path):
        if path is None:  # a set drawn again from its seeds: no file, nothing held
            return
        if not self.keep_files:
            self.exchange.remove(path)
        if self.holder is not None:
            self.holder.release(path)

    def _candidate_file(self, path, map_location):
        """(what the candidate worker wrote, None), or (None, why it cannot be read): a file
        made from the candidate's output is the candidate's to get right, not the problem's."""
        try:
            return self.exchange.load(path, map_location), None
        except Exception as exc:  # noqa: BLE001 - any unreadable output fails the candidate
            return None, "the candidate's output could not be read back: %s: %s" % (
                type(exc).__name__, str(exc).split("\n")[0][:200])
        finally:
            self._done_with(path)

    def judge(self, arg):
        torch = self.torch
        self.chan.phase("judging outputs")
        paths = json.loads(arg)
        results = {}
        with torch.no_grad():
            for name, _ in self.sets:
                if not paths.get(name):
                    results[name] = {"ok": False, "reason": "no output recorded"}
                    continue
                eager, ref64 = self._expected(name)
                cand, unreadable = self._candidate_file(paths[name], None)
                if unreadable:
                    results[name] = {"ok": False, "reason": unreadable}
                    continue
                results[name] = self.compare.compare_outputs(cand, eager, ref64,
                                                             self.job.get("atol"), self.job.get("rtol"))
                del cand, eager, ref64
                _release(torch, self.device)
        for name, _ in self.sets:
            if name not in self.timing_names:
                self._done_with(self.paths[name])
        # Kept references served this comparison only; the re-checks compute their own.
        self.expected.clear()
        _release(torch, self.device)
        self.chan.send(event=Event.JUDGED, results=results)

    def recheck(self, arg):
        """Compare re-checked timed outputs with the references on the same inputs.

        Each call's inputs are rebuilt here from its set and scale, as the candidate worker's
        timing made them (inputs.rescale), rather than passed as files.
        """
        torch, inputs = self.torch, self.inputs
        self.chan.phase("re-checking timed outputs")
        results = []
        with torch.no_grad():
            for item in json.loads(arg):
                name, scale, touched = item.get("set"), item.get("scale"), item.get("touch")
                if name not in self.timing_names or not isinstance(scale, float) or not (
                        touched is None or (isinstance(touched, list) and len(touched) == 2
                                            and isinstance(touched[0], int) and isinstance(touched[1], float))):
                    results.append({"ok": False, "call": item.get("call"), "reason":
                                    "inputs of the call unknown (set %r, scale %r, touch %r)" % (name, scale, touched)})
                    continue
                x = self._load_set(name, writable=True)
                inputs.rescale(x, x, scale)
                if touched:
                    inputs.touch(x, *touched)
                eager, ref64, _, _ = self._references(x)
                del x
                # Devices were checked on the correctness trials; these copies came back via CPU.
                data, unreadable = self._candidate_file(item["output"], "cpu")
                if unreadable:
                    results.append({"ok": False, "call": item.get("call"), "reason": unreadable})
                    continue
                out = inputs.to_device(data["output"], self.device)
                samples = data["samples"]
                why = self.compare.samples_mismatch(eager, samples)
                if why:
                    results.append({"ok": False, "call": item.get("call"), "reason": why})
                    continue
                eager = self.compare.take_samples(eager, samples)
                if ref64 is not None:
                    ref64 = None if self.compare.samples_mismatch(ref64, samples) \
                        else self.compare.take_samples(ref64, samples)
                r = self.compare.compare_outputs(out, eager, ref64, self.job.get("atol"), self.job.get("rtol"))
                r["call"] = item.get("call")
                r["sampled"] = bool(samples)
                results.append(r)
                del out, eager, ref64
                _release(torch, self.device)
        for name in self.timing_names:
            self._done_with(self.paths[name])
        self.chan.send(event=Event.RECHECKED, results=results, tampered=self.tampered)


def _run_judge(job, chan):
    judge = _Judge(job, chan)
    judge.prepare()
    for line in sys.stdin:
        cmd, arg = parse_command(line)
        if cmd == Command.JUDGE:
            judge.judge(arg)
        elif cmd == Command.RECHECK:
            judge.recheck(arg)
        elif cmd == Command.EXIT:
            return


# ----------------------------------------------------------------------- candidate


def _preload_dynamo():
    """Let torch.compile make its one-time patches before the tamper snapshot is taken.

    The first torch.compile replaces ``torch.manual_seed`` and ``nn.Module.__init__``;
    done here, a candidate that uses torch.compile is not mistaken for one that patches.
    """
    import torch._dynamo  # noqa: F401  (importing it makes the first of those patches)

    try:
        from torch._dynamo.mutation_guard import install_generation_tagging_init

        install_generation_tagging_init()
    except ImportError:
        pass


def _share_weights(torch, cand, state):
    """Give ModelNew the reference's weights wherever names and shapes agree."""
    if not isinstance(cand, torch.nn.Module):
        return {"loaded": 0, "note": "ModelNew is not a torch.nn.Module"}
    own = cand.state_dict()
    loadable = {k: v for k, v in state.items() if k in own and tuple(own[k].shape) == tuple(v.shape)}
    if loadable:
        cand.load_state_dict(loadable, strict=False)
    return {
        "loaded": len(loadable),
        "reference_tensors": len(state),
        "shape_mismatch": sorted(k for k in state if k in own and k not in loadable),
        "not_in_candidate": sorted(k for k in state if k not in own),
        "candidate_only": sorted(k for k in own if k not in state),
    }


class _Candidate:
    def __init__(self, job, chan):
        import torch

        from kernelwright import timing
        from kernelwright.harness import anticheat, compare, exchange, inputs, kernels, roofline
        from kernelwright.harness.loading import load_module, require

        self.torch, self.timing, self.anticheat, self.exchange = torch, timing, anticheat, exchange
        self.roofline = roofline
        self.dirs = _exchange_dirs(job)
        self.keep_files = bool(job.get("keep_files"))
        self.compare, self.inputs, self.kernels = compare, inputs, kernels
        self.job, self.chan = job, chan
        self.device = _resolve_device(job["device"], torch)
        if self.device.type == "cpu":
            _limit_memory(job.get("memory_limit_mb"))
        self.holder = _holder(job, torch, self.device)
        self.outputs_by_handle = 0
        self.flags = {}
        self.notes = []
        self.no_grad = torch.no_grad

        chan.phase("import problem")
        problem = load_module(job["problem"], "kw_problem")
        self.Model, = require(problem, ["Model"], "problem")
        # Bound before the candidate is imported: the sets are drawn from it (see _set).
        self.get_inputs = getattr(problem, "get_inputs", None)
        _preload_dynamo()
        self.gate = None
        if self.device.type == "cuda":
            chan.phase("timing gate")
            try:
                with torch.cuda.device(self.device):
                    self.gate = timing.Gate(self.device)
            except Exception as exc:  # noqa: BLE001 - no gate: no device-time rounds, said in notes
                self.notes.append("device time not measured: no timing gate (%s: %s)" % (
                    type(exc).__name__, str(exc).split("\n")[0][:200]))
        self.guard = anticheat.Guard(extra=[("problem", problem), ("problem.Model", self.Model)])
        self.threads_before = anticheat.live_threads()

        chan.phase("import candidate")
        t0 = _perf_counter()
        cand_mod = load_module(job["candidate"], "kw_candidate")
        self.ModelNew, = require(cand_mod, ["ModelNew"], "candidate")
        self.import_s = _perf_counter() - t0
        self.design = roofline.first_sentence(cand_mod.__doc__)
        self._check_guard()

    def flag(self, name, detail):
        self.flags.setdefault(name, detail)

    def _check_guard(self):
        replaced, changed = self.guard.changes()
        if replaced:
            self.flag("tampered_harness", "replaced: " + ", ".join(replaced[:8]))
        if changed:
            self.flag("changed_global_settings", "; ".join(changed[:8]))

    def setup(self, path):
        torch, inputs = self.torch, self.inputs
        self.chan.phase("setup")
        data = self.exchange.load(path, "cpu")
        if not self.keep_files:
            self.exchange.remove(path)  # read once, here
        init_inputs = data["init_inputs"]
        seed = self.job["init_seed"]
        inputs.seed_everything(seed)
        self.ref = self.Model(*init_inputs).to(self.device)
        self.ref.load_state_dict(data["state_dict"])
        inputs.seed_everything(seed)
        self.chan.phase("construct ModelNew")
        self.cand = self.ModelNew(*init_inputs)
        if isinstance(self.cand, torch.nn.Module):
            self.cand = self.cand.to(self.device)
        self.weights = _share_weights(torch, self.cand, data["state_dict"])
        # Input sets are drawn again from their seeds, or stay in their files, and are made
        # one at a time.
        self.sets = [(name, p) for name, p in data["sets"]]
        self.redraw = data.get("redraw")
        self.out_bytes = 0
        self._check_guard()

    def _set(self, name):
        """Input set ``name`` on the device: drawn from its seeds as the judge drew it (checked
        against the judge's fingerprint), or loaded from what the judge passed."""
        inputs = self.inputs
        if not self.redraw:
            return inputs.to_device(self.exchange.load(dict(self.sets)[name]), self.device)
        b, k, _ = self.redraw["sets"][name]
        job = self.job
        x = inputs.draw_set(self.get_inputs, (b, k), job["trial_seeds"], job["variant_seeds"], self.device)
        if not self._as_drawn(name, x):
            raise inputs.InputsNotReproduced(
                "input set %s drawn again from its seed in the candidate worker differs from the judge's "
                "draw: get_inputs() does not give the same values in another process, or code loaded "
                "there changed what it draws" % name)
        return x

    def _as_drawn(self, name, x):
        """Whether ``x`` holds set ``name`` as the judge drew it (by its keyed fingerprint)."""
        from kernelwright.harness.handles import fingerprint

        return fingerprint(x, self.redraw["key"], self.torch) == self.redraw["sets"][name][2]

    def _scrub_host(self, *objs):
        """On the CPU freed memory goes back to the C allocator unpoisoned: fill it first."""
        if self.device.type == "cpu":
            self.anticheat.scrub(*objs)

    def _call(self, model, x):
        out = model(*x)
        _sync(self.torch, self.device)
        return out

    def correctness(self, allow_mutation, allow_alias):
        """Run the candidate on every set, one at a time; returns {set name: output file}."""
        torch, inputs, ac = self.torch, self.inputs, self.anticheat
        from kernelwright.harness.compare import bitwise_equal, flatten

        outputs = {}
        with self.no_grad():
            for k, (name, _) in enumerate(self.sets):
                self.chan.phase("correctness %s" % name)
                # Drawn sets are checked against their fingerprint after the call, and drawn a
                # second time only to name the inputs that changed: one copy of a large set
                # fewer in memory while the candidate runs.
                xc = self._set(name)
                x = None if self.redraw else inputs.clone_tree(xc)
                ac.poison_free_memory(self.device)
                out = self._call(self.cand, xc)
                snap = _copy_tree(out, torch)
                if x is None and not self._as_drawn(name, xc):
                    x = self._set(name)
                    bad = ac.mutated_inputs(xc, x) or ["within a nested input"]
                else:
                    bad = ac.mutated_inputs(xc, x) if x is not None else []
                if bad and not allow_mutation:
                    self.flag("input_mutated", "input(s) %s changed by forward() on %s" % (bad, name))
                hits = ac.aliased_outputs(flatten(out), xc)
                if hits and not allow_alias:
                    self.flag("output_aliases_input", "; ".join(hits))
                self._check_output_types(out, name)
                # Work still running after forward() returned changes the output later.
                _sleep(0.01)
                _sync(torch, self.device)
                for (p, live), (_, kept) in zip(flatten(out), flatten(snap)):
                    if isinstance(live, torch.Tensor) and not bitwise_equal(live, kept):
                        self.flag("output_changed_after_return", "%s changed after return on %s" % (p, name))
                        break
                ac.scrub(xc)
                del out, xc
                self.out_bytes = max(self.out_bytes, _nbytes(snap))
                # Passed by handle where there is room: held until the judge has copied it.
                outputs[name] = self.exchange.save(snap, "out%d.pt" % k, self.dirs, self.holder)
                self.outputs_by_handle += self.holder is not None and self.holder.holds(outputs[name])
                self._scrub_host(x, snap)
                del x, snap
                _release(torch, self.device)
        self._check_guard()
        return outputs

    def _check_output_types(self, out, where):
        from kernelwright.harness.compare import flatten

        odd = self.anticheat.subclassed_outputs(flatten(out), self.output_types)
        if odd:
            self.flag("tensor_subclass_output", "%s on %s; the reference returns %s" % (
                "; ".join(odd[:3]), where, ", ".join(sorted(self.output_types)) or "no tensors"))

    def recycling(self):
        """Candidate, then reference, then candidate again on the same inputs.

        The first call sees poisoned memory; the reference then leaves its result in freed
        memory.  An output that is never written matches the reference only the second time.
        """
        torch = self.torch
        self.chan.phase("recycled-memory check")
        try:
            with self.no_grad():
                self._recycling_rounds(self._set(self.sets[0][0]), hold=True)
        except torch.cuda.OutOfMemoryError as exc:
            # Holding every cached block left too little for the two calls: run the same
            # order again with the cache poisoned but not held.
            _release(torch, self.device)
            self.notes.append("recycled-memory check: cached memory not held during the second call "
                              "(out of device memory with it held: %s)" % str(exc).split("\n")[0][:200])
            with self.no_grad():
                self._recycling_rounds(self._set(self.sets[0][0]), hold=False)
        _release(torch, self.device)

    def _recycling_rounds(self, x, hold):
        torch, inputs, ac = self.torch, self.inputs, self.anticheat
        from kernelwright.harness.compare import bitwise_equal, compare_tensor, flatten, tolerance_for

        xc = inputs.clone_tree(x)
        ac.poison_free_memory(self.device)
        first = _copy_tree(self._call(self.cand, xc), torch)
        ac.scrub(xc)
        del xc
        rounds = 8 if self.device.type == "cpu" else 1
        # The C allocator behind CPU tensors does not always hand the same block back,
        # so a few rounds make the outcome dependable.
        for k in range(rounds):
            # Occupy every free cached block, so the block the reference's result is
            # freed into is the one the allocator hands out next, as in a naive harness.
            held = ac.poison_free_memory(self.device, keep=True) if hold else ac.poison_free_memory(self.device)
            # The set itself is the reference's copy (one copy fewer in memory); the next
            # round makes it again.
            x_second = inputs.clone_tree(x)
            x_ref, x = x, None
            ref_out = self._call(self.ref, x_ref)
            ref_keep = _copy_tree(ref_out, torch)
            del ref_out
            second = self._call(self.cand, x_second)
            del held
            for (path, a), (_, b), (_, r) in zip(flatten(first), flatten(second), flatten(ref_keep)):
                if not all(isinstance(t, torch.Tensor) for t in (a, b, r)) or a.shape != r.shape \
                        or a.dtype != r.dtype:
                    continue
                if bitwise_equal(b, r) and not bitwise_equal(a, r):
                    atol, rtol = tolerance_for(r.dtype)
                    if r.is_floating_point() and compare_tensor(a, r, None, atol, rtol)["ok"]:
                        continue
                    self.flag("recycled_output",
                              "%s matched the reference only when its freed result was in memory" % path)
            del x_ref, x_second, ref_keep, second
            if "recycled_output" in self.flags or k == rounds - 1:
                break
            x = self._set(self.sets[0][0])

    def _room(self):
        """(bytes this worker may still allocate on its device, where that comes from).

        (None, None) on the CPU without a memory cap.
        """
        if self.device.type == "cuda":
            free, total = _device_free_bytes(self.torch, self.device)
            return free - _headroom(total), "device has %.1f GiB free" % (free / 2**30)
        room = _host_room(self.job)
        if room is None:
            return None, None
        return room, "memory limit %d MiB" % int(self.job["memory_limit_mb"])

    def _rotation(self, per_set, n_max):
        """How many timing input sets fit, and whether their pristine copies stay on the host.

        Each rotating set needs a pristine copy and a working copy; on top of them come the
        output, a re-checked call's host copies and the cache-flush buffer.
        """
        out = max(self.out_bytes, 1)
        room, where = self._room()
        if room is None:
            return n_max, False, None
        room -= 2 * out + self.timing.flush_buffer_bytes(self.device)
        if self.device.type == "cpu":
            room -= per_set + out
        n = int(min(n_max, max(0, room // (2 * per_set))))
        if n >= n_max:
            return n_max, False, None
        if n >= 1:
            return n, False, "timing rotates %d input set(s), not %d: %.0f MiB per set, %s" % (
                n, n_max, per_set / 2**20, where)
        if self.device.type == "cuda" and room >= per_set:
            return 1, True, ("timing inputs refreshed from a pristine copy in host memory: "
                             "%.0f MiB per set, %s" % (per_set / 2**20, where))
        return 1, False, "timing rotates 1 input set with little room to spare: %.0f MiB per set, %s" % (
            per_set / 2**20, where)

    def _pool(self):
        """Timing inputs: the trial draws, rewritten with fresh values before every call.

        Returns ``make_args`` and a dict naming the set and the scale of its latest call.
        """
        inputs = self.inputs
        names = _timing_sets([name for name, _ in self.sets])
        first = self._set(names[0])
        n, on_host, note = self._rotation(max(1, _nbytes(first)), len(names))
        if note:
            self.notes.append(note)
        pristine = [first] + [self._set(name) for name in names[1:n]]
        work = [inputs.clone_tree(x) for x in pristine]
        if on_host:
            pristine = [inputs.to_device(x, "cpu") for x in pristine]
        del first
        drawn = {}

        def make_args(i, touched=False):
            """``touched``: the set and scale of the call before, a few elements changed."""
            if touched and drawn:
                k = names.index(drawn["set"])
                drawn["touch"] = [_os_bits(62), _os_uniform(1.5, 2.0)]
            else:
                k = i % len(work)
                drawn.update(set=names[k], scale=_os_uniform(0.75, 1.25), touch=None)
            x = inputs.rescale(pristine[k], work[k], drawn["scale"])
            if drawn["touch"]:
                inputs.touch(x, *drawn["touch"])
            return tuple(x)

        return make_args, drawn

    def ceilings(self, dtype):
        """The device's copy bandwidth and the fastest matrix rate a ``dtype`` problem may use
        at the float32 matmul precision in force (see roofline.py), in the memory free now,
        before the timing inputs are loaded; None where neither fits."""
        torch, timing, roofline = self.torch, self.timing, self.roofline
        self.chan.phase("ceilings")
        room, where = self._room()
        flush = timing.flush_buffer_bytes(self.device)
        copy = matrix = None
        try:
            with self.no_grad():
                timing.spin_up(self.device)
                copy = roofline.copy_ceiling(self.device, room, flush, timing.time_fn)
                matrix = roofline.matrix_ceiling(self.device, dtype, room, timing.time_fn)
        except (RuntimeError, MemoryError) as exc:  # out of memory included
            self.notes.append("ceilings not measured: %s: %s" % (type(exc).__name__, str(exc).split("\n")[0][:200]))
        else:
            if copy is None:
                self.notes.append("copy bandwidth not measured: two buffers of %.0f MiB do not fit (%s)" % (
                    flush / 2**20, where))
            if matrix is None:
                self.notes.append("%s matrix rate not measured: its matrices do not fit (%s)" % (dtype, where))
        _release(torch, self.device)
        if copy is None and matrix is None:
            return None
        return dict(copy or {}, **(matrix or {}))

    def _time(self, fn, make_args, after_call=None, rounds=1, budget_s=None, gate_timeout_ms=None):
        """``gate_timeout_ms``: time behind the gate (see timing.py, ``gate``)."""
        t = self.job["timing"]
        gated = {} if gate_timeout_ms is None else dict(gate=self.gate, gate_timeout_ms=gate_timeout_ms)
        return self.timing.time_fn(
            fn, make_args, self.device, warmup=t["warmup"], warmup_ms=t["warmup_ms"],
            min_reps=_reps_per_round(t["min_reps"], rounds), max_reps=max(2, t["max_reps"] // rounds),
            budget_s=min(budget_s or t["budget_s"], t["budget_s"]) / rounds, target_rse=t["target_rse"],
            after_call=after_call, **gated)

    def timings(self):
        torch, timing = self.torch, self.timing
        make_args, drawn = self._pool()
        min_reps = self.job["timing"]["min_reps"]
        rounds = max(1, int(self.job["timing"]["rounds"]))
        guaranteed = rounds * _reps_per_round(min_reps, rounds)  # calls every timing run makes
        chosen = _os_sample(guaranteed, 3)
        rechecks = []
        state = {"calls": 0, "pending": None, "extra": MAX_RECHECKS - len(chosen)}

        def make_checked_args(i):
            state["pending"] = None
            if i < 0:
                return make_args(i)
            # Which calls are re-checked is drawn from the OS, so it cannot be predicted.
            # The judge rebuilds the inputs from the set, the scale and the touch: a
            # candidate that writes to them cannot turn its own re-check into a false alarm.
            # Re-checked calls, and half the others, are touched: they repeat the call before
            # but for a few elements, which a cache keyed on sampled values does not see.
            n = state["calls"]
            state["calls"] += 1
            extra = n not in chosen and state["extra"] > 0 and _os_bits(53) < (1 << 53) // 50
            checked = n in chosen or extra
            args = make_args(i, touched=checked or _os_bits(1) == 1)
            if checked:
                state["extra"] -= extra
                state["pending"] = dict(drawn, call=n)
            return args

        def after_call(i, args, out):
            self._check_output_types(out, "timed call %d" % i)
            if state["pending"] is not None:
                # Written out at once: at most one re-checked output is held in memory.
                out, samples = self.compare.sample_leaves(
                    _copy_tree(out, torch, subclasses_only=True), self.job["recheck_sample_elements"],
                    _os_bits(62))
                out_cpu = {"output": _copy_tree(out, torch, "cpu"), "samples": samples}
                path = self.exchange.save(out_cpu, "recheck%d.pt" % len(rechecks), self.dirs)
                rechecks.append(dict(state["pending"], output=path))
                state["pending"] = None
                del out_cpu

        results = {}
        with self.no_grad():
            timing.spin_up(self.device)
            if self.device.type == "cuda":
                self.chan.phase("timing baseline")
                tiny = torch.zeros(1, device=self.device)
                results["baseline"] = self._time(lambda: tiny.add_(1), None, budget_s=0.5)
            # Interleaved rounds: drift in clocks or co-tenants hits both sides alike. The order
            # flips every round, so neither side always runs second (timing torch.matmul against
            # itself with a fixed order gave 0.990-0.996x).
            parts = {"eager": [], "candidate": []}
            sides = [("eager", "eager reference", self.ref, make_args, None),
                     ("candidate", "candidate", self.cand, make_checked_args, after_call)]
            for r in range(rounds):
                for key, what, fn, make, after in (sides if r % 2 == 0 else sides[::-1]):
                    self.side_processes()
                    self.chan.phase("timing %s (round %d)" % (what, r + 1))
                    parts[key].append(self._time(fn, make, after, rounds=rounds))
            results["eager"] = timing.merge(parts["eager"])
            results["candidate"] = timing.merge(parts["candidate"])
            if self.device.type == "cuda":
                # The launch latency again: the host's speed can change within an evaluation.
                self.chan.phase("timing baseline (after the rounds)")
                results["baseline_end"] = self._time(lambda: tiny.add_(1), None, budget_s=0.5)
                # The device's time alone, and the host's beside it: each call made in full
                # behind the gate, so the host's speed (which differs between processes on a
                # shared host) drops out of the device time; the times above are what a caller
                # waiting on the result sees.
                gate_timeout = GATE_TIMEOUT_PAD_MS + GATE_TIMEOUT_FACTOR * max(
                    results[k].wall_median_ms or results[k].median_ms for k in ("eager", "candidate"))
                self.gate_timeout_ms = gate_timeout
                if self.gate is not None:
                    try:
                        self.chan.phase("timing baseline, gated")
                        results["baseline_gated"] = self._time(lambda: tiny.add_(1), None, budget_s=0.5,
                                                               gate_timeout_ms=gate_timeout)
                        # One call of these rounds is re-checked too, drawn like the others.
                        chosen.add(state["calls"] + _os_bits(64) % (
                            DEVICE_ROUNDS * _reps_per_round(min_reps, DEVICE_ROUNDS)))
                        dev_parts = {"eager": [], "candidate": []}
                        for r in range(DEVICE_ROUNDS):
                            for key, what, fn, make, after in (sides if r % 2 == 0 else sides[::-1]):
                                self.side_processes()
                                self.chan.phase("timing %s, gated (round %d)" % (what, r + 1))
                                dev_parts[key].append(self._time(fn, make, after, rounds=DEVICE_ROUNDS,
                                                                 budget_s=self.job["timing"]["budget_s"] / 2,
                                                                 gate_timeout_ms=gate_timeout))
                        results["eager_device"] = timing.merge(dev_parts["eager"])
                        results["candidate_device"] = timing.merge(dev_parts["candidate"])
                    except timing.GateUnavailable as exc:
                        self.notes.append("device time not measured: %s" % exc)
                        for key in ("baseline_gated", "eager_device", "candidate_device"):
                            results.pop(key, None)
            self._check_guard()
            self.chan.phase("kernel listing")
            try:
                args_list = [make_args(i) for i in range(3)]
                ref_names = ()
                if self.device.type == "cuda":
                    ref_names = self.kernels.cuda_kernel_names(self.ref, args_list, self.device)
                self.kernel_info = self.kernels.kernel_report(self.cand, args_list, self.device, ref_names)
            except Exception as exc:
                self.kernel_info = {"error": "%s: %s" % (type(exc).__name__, str(exc)[:300])}
            # Last point where candidate code ran; torch.compile below starts threads of its own.
            self._check_guard()
            self.new_threads()
            self.side_processes(final=True)
            compile_s = None
            if self.job.get("compile", True):
                self.chan.phase("torch.compile reference")
                try:
                    compiled = torch.compile(self.ref)
                    t0 = _perf_counter()
                    self._call(compiled, make_args(0))
                    compile_s = _perf_counter() - t0
                    self.chan.phase("timing torch.compile reference")
                    results["compile"] = self._time(compiled, make_args)
                    if "candidate_device" in results:
                        self.chan.phase("timing torch.compile reference, gated")
                        results["compile_device"] = self._time(compiled, make_args,
                                                               gate_timeout_ms=self.gate_timeout_ms)
                except Exception as exc:
                    self.notes.append("torch.compile reference failed: %s: %s" % (type(exc).__name__, str(exc)[:300]))
        return results, compile_s, rechecks

    def escape_check(self, results):
        """Work outside the timed stream: on the idle-GPU rounds and the gated ones, device
        work that outlasts the end event shows in the wall clock to a device-wide sync; work
        that ran before the gated rounds' start event (a copy engine is not held by the gate)
        shows as idle-GPU time the gated device and host times cannot account for.

        The wall clock's own share (launch and sync latency, host stalls) is the largest gap
        between wall and events of the calls that cannot escape, timed in the same rounds: a
        one-element add before and after them, and the eager reference."""
        for bases, key, where in ((("baseline", "baseline_end", "eager"), "candidate", ""),
                                  (("baseline_gated", "eager_device"), "candidate_device", "gated rounds: ")):
            cand = results.get(key)
            gaps = [results[b].gap_median_ms for b in bases if b in results and results[b].gap_median_ms is not None]
            if cand is None or cand.gap_median_ms is None or not gaps:
                continue
            excess = cand.gap_median_ms - max(gaps)
            if excess > self._escape_limit(cand.wall_median_ms):
                self.flag("escaped_timed_stream", "%sdevice-synchronised wall %.4f ms vs CUDA events %.4f ms "
                          "(median gap %.4f ms; %.4f ms where nothing escapes)" % (
                              where, cand.wall_median_ms, cand.median_ms, cand.gap_median_ms, max(gaps)))
                return
        base = results.get("baseline")

        def unaccounted(side):
            # From an idle GPU the events span the call's device work and the waits for its
            # host: at most the two measured behind the gate, plus the events' own latency.
            # None where the gated rounds timed nothing usable (the call waited on the device).
            gated = results.get(side + "_device")
            if base is None or gated is None or gated.gate_timeouts:
                return None
            return results[side].median_ms - (gated.median_ms + gated.host_median_ms + base.median_ms)

        cand_unaccounted = unaccounted("candidate")
        if cand_unaccounted is None:
            return
        idle, gated = results["candidate"], results["candidate_device"]
        allowed = max(0.0, unaccounted("eager") or 0.0)
        if cand_unaccounted - allowed > self._escape_limit(idle.median_ms):
            self.flag("escaped_timed_stream", "gated rounds: %.4f ms from an idle GPU, but %.4f ms of device "
                      "and %.4f ms of host time behind the gate" % (idle.median_ms, gated.median_ms,
                                                                    gated.host_median_ms))

    def _escape_limit(self, ms):
        return max(self.job["escape_abs_ms"], self.job["escape_rel"] * ms)

    def side_processes(self, final=False):
        """Processes started under this worker (it adopts their orphans, see proctree) that
        hold the GPU, or that left the worker's process group: between the timed sides, such
        a process can load the device while the reference runs and idle while the candidate
        does, and one still starting CUDA when timing ends shows no device file yet.  Checked
        before every timed side; the others, still running at the end, are reported."""
        pids = proctree.descendants(os.getpid())
        own_group = os.getpgrp()
        on_gpu = [p for p in pids if proctree.uses_gpu(p)]
        detached = [p for p in pids if proctree.process_group(p) not in (None, own_group)]
        rest = [p for p in pids if p not in on_gpu and p not in detached]
        for name, found in (("gpu_side_process", on_gpu), ("detached_process", detached),
                            ("child_process", rest if final else [])):
            if found:
                self.flag(name, "; ".join("pid %d: %s" % (p, proctree.command_line(p)) for p in found[:3]))

    def new_threads(self):
        now = self.anticheat.live_threads()
        extra = [name for ident, name in now.items() if ident not in self.threads_before]
        if extra:
            self.flag("background_thread", "threads still running: %s" % ", ".join(extra[:5]))


def _run_candidate(job, chan):
    c = _Candidate(job, chan)
    chan.send(event=Event.READY, import_s=c.import_s)
    cmd, arg = parse_command(sys.stdin.readline())
    if cmd != Command.GO:
        return
    go = json.loads(arg)
    if c.holder is not None:
        c.holder.budget = int(go.get("handle_budget") or 0)
    c.setup(go["inputs"])
    c.output_types = set(go.get("reference_output_types") or ["torch.Tensor"])
    out_paths = c.correctness(go["reference_mutates_inputs"], go["reference_aliases_inputs"])
    # The judge compares them (and deletes what only it needed) before anything else runs.
    chan.send(event=Event.OUTPUTS, outputs=out_paths)
    if sys.stdin.readline().strip() != Command.CONTINUE:
        return
    if c.holder is not None:
        c.holder.release()
    c.recycling()
    ceiling = c.ceilings(go["dtype"])
    results, compile_s, rechecks = c.timings()
    c.escape_check(results)
    chan.send(event=Event.RESULT, rechecks=rechecks, flags=c.flags, notes=c.notes,
              weights=c.weights, import_s=c.import_s, compile_s=compile_s,
              timings={k: v.to_dict() for k, v in results.items()},
              kernels=getattr(c, "kernel_info", None), ceiling=ceiling, design=c.design,
              outputs_by_handle=c.outputs_by_handle)


def _run_build(job, chan):
    from kernelwright.harness.loading import load_module, require

    chan.phase("import candidate")
    t0 = _perf_counter()
    mod = load_module(job["candidate"], "kw_candidate")
    require(mod, ["ModelNew"], "candidate")
    chan.send(event=Event.BUILT, build_s=_perf_counter() - t0)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    with open(argv[0]) as f:
        job = json.load(f)
    chan = Channel(int(argv[1]))
    faulthandler.enable()
    proctree.adopt_orphans()
    precision = os.environ.get(PRECISION_ENV)
    if precision:
        # Set before the problem and the candidate load, so both run at the precision asked for.
        import torch

        torch.set_float32_matmul_precision(precision)
    try:
        if job["role"] == Role.JUDGE:
            _run_judge(job, chan)
        elif job["role"] == Role.CANDIDATE:
            _run_candidate(job, chan)
        else:
            _run_build(job, chan)
    except BaseException as exc:  # SystemExit from candidate code is a failure too
        chan.send(event=Event.FAILED, **_failure(exc))
        proctree.kill_descendants(os.getpid())
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(3)
    # Nothing a candidate started outlives its worker (a new session escapes the group kill).
    proctree.kill_descendants(os.getpid())
    sys.stdout.flush()
    sys.stderr.flush()
    # Skip interpreter teardown: candidate extensions and threads can hang or crash in it.
    os._exit(0)


if __name__ == "__main__":
    main()
