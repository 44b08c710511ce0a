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
import random
import sys
import time
import traceback

_write = os.write
_perf_counter = time.perf_counter
_sleep = time.sleep


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
    if isinstance(exc, MemoryError) or "out of memory" in low or "can't allocate memory" in low \
            or "outofmemoryerror" in low or "cannot allocate memory" in low:
        status, cause = "crash", "out of memory"
    elif any(s in low for s in ("illegal memory access", "cuda error", "device-side assert",
                                "misaligned address", "unspecified launch failure", "cublas_status",
                                "cudnn_status", "illegal instruction")):
        status, cause = "crash", "CUDA error"
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


def _detach_tree(obj, torch):
    """A clone of every tensor in a (nested) output, with containers kept."""
    if isinstance(obj, torch.Tensor):
        return obj.detach().clone()
    if isinstance(obj, (list, tuple)):
        return type(obj)(_detach_tree(o, torch) for o in obj)
    if isinstance(obj, dict):
        return {k: _detach_tree(v, torch) for k, v in obj.items()}
    return obj


def _tree_to_cpu(obj, torch):
    """A CPU copy; never a view of the original, which the caller will overwrite."""
    if isinstance(obj, torch.Tensor):
        return obj.detach().to("cpu", copy=True)
    if isinstance(obj, (list, tuple)):
        return type(obj)(_tree_to_cpu(o, torch) for o in obj)
    if isinstance(obj, dict):
        return {k: _tree_to_cpu(v, torch) for k, v in obj.items()}
    return obj


# --------------------------------------------------------------------------- judge


class _Judge:
    def __init__(self, job, chan):
        import torch

        from kernelwright.harness import compare, inputs
        from kernelwright.harness.loading import load_module, require

        self.torch, self.compare, self.inputs = torch, compare, inputs
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

    def _fp64(self, x):
        """The float64 reference output for ``x``, or None when float64 cannot run."""
        inputs = self.inputs
        if self.fp64_where is None:
            try:
                self.model64 = copy.deepcopy(self.model).double()
                out = self.model64(*inputs.to_float64(inputs.clone_tree(x)))
                self.fp64_where = "float64 on %s" % self.device.type
                return out
            except Exception as exc:
                if self.device.type == "cpu":
                    self.fp64_where = "unavailable"
                    self.fp64_note = "float64 reference failed (%s: %s); compared with eager only" % (
                        type(exc).__name__, str(exc)[:200])
                    return None
                try:
                    self.model64 = copy.deepcopy(self.model).cpu().double()
                    out = self.model64(*inputs.to_float64(inputs.to_device(x, "cpu")))
                    self.fp64_where = "float64 on cpu"
                    self.fp64_note = "float64 failed on %s (%s), ran on cpu" % (self.device, str(exc)[:200])
                    return out
                except Exception as exc2:
                    self.fp64_where = "unavailable"
                    self.fp64_note = "float64 reference failed (%s: %s); compared with eager only" % (
                        type(exc2).__name__, str(exc2)[:200])
                    return None
        if self.fp64_where == "unavailable":
            return None
        dev = "cpu" if self.fp64_where == "float64 on cpu" else self.device
        return self.model64(*inputs.to_float64(inputs.clone_tree(inputs.to_device(x, dev))))

    def _eager(self, x):
        return self.model(*self.inputs.clone_tree(x))

    @staticmethod
    def _all_finite(out, torch):
        from kernelwright.harness.compare import flatten

        return all(bool(torch.isfinite(v).all()) for _, v in flatten(out)
                   if isinstance(v, torch.Tensor) and v.is_floating_point())

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
        first = inputs.draw_inputs(self.get_inputs, seeds[0])
        per_set = max(1, _nbytes(first))
        # Very large problems: keep to a memory budget rather than exhaust the device.
        max_sets = max(2, int(job.get("max_input_bytes", 4 << 30) // per_set))
        n_trials = min(len(seeds), max(1, max_sets - len(inputs.VARIANTS)))
        n_variants = min(len(inputs.VARIANTS), max(0, max_sets - n_trials))
        notes = []
        if n_trials < len(seeds) or n_variants < len(inputs.VARIANTS):
            notes.append("inputs are %.0f MiB per set: %d trials and %d variants" % (
                per_set / 2**20, n_trials, n_variants))
        # Variants are made where the data lives (the device), not in float64 on the host.
        sets = [("trial%d" % i, inputs.to_device(first if i == 0 else inputs.draw_inputs(self.get_inputs, seeds[i]),
                                                 self.device))
                for i in range(n_trials)]
        for k, kind in enumerate(inputs.VARIANTS[:n_variants]):
            base = k % n_trials
            sets.append(("%s(trial%d)" % (kind, base),
                         inputs.make_variant(sets[base][1], kind, job["variant_seeds"][k])))

        self.sets, self.expected = [], {}
        ref_mutates = ref_aliases = False
        base_finite = {}
        dropped = []
        from kernelwright.harness.anticheat import aliased_outputs, mutated_inputs
        from kernelwright.harness.compare import flatten

        with torch.no_grad():
            for name, x in sets:
                xd = inputs.to_device(x, self.device)
                xc = inputs.clone_tree(xd)
                eager = self.model(*xc)
                if mutated_inputs(xc, xd):
                    ref_mutates = True
                if aliased_outputs(flatten(eager), xc):
                    ref_aliases = True
                eager = _detach_tree(eager, torch)
                ref64 = self._fp64(xd)
                finite = self._all_finite(eager, torch) and (ref64 is None or self._all_finite(ref64, torch))
                if name.startswith("trial"):
                    base_finite[name] = finite
                elif not finite and base_finite.get(name.split("(")[1].rstrip(")"), False):
                    dropped.append(name)
                    continue
                self.sets.append((name, x))
                self.expected[name] = (eager, ref64)
        _sync(torch, self.device)

        path = os.path.join(job["workdir"], "inputs.pt")
        torch.save({
            "sets": [(name, inputs.to_device(x, "cpu")) for name, x in self.sets],
            "state_dict": state,
            "init_inputs": init_inputs,
        }, path)
        out_dtypes = sorted({str(v.dtype).replace("torch.", "") for e, _ in self.expected.values()
                             for _, v in flatten(e) if isinstance(v, torch.Tensor)})
        chan.send(event="prepared", path=path, sets=[n for n, _ in self.sets], dropped=dropped,
                  fp64=self.fp64_where, fp64_note=self.fp64_note, notes=notes,
                  reference_mutates_inputs=ref_mutates, reference_aliases_inputs=ref_aliases,
                  output_dtypes=out_dtypes, **_environment(torch, self.device))

    def judge(self, path):
        torch = self.torch
        cand = torch.load(path, map_location=None, weights_only=True)
        results = {}
        for name, _ in self.sets:
            if name not in cand:
                results[name] = {"ok": False, "reason": "no output recorded"}
                continue
            eager, ref64 = self.expected[name]
            results[name] = self.compare.compare_outputs(cand[name], eager, ref64,
                                                         self.job.get("atol"), self.job.get("rtol"))
        self.chan.send(event="judged", results=results)

    def recheck(self, path):
        torch, inputs = self.torch, self.inputs
        data = torch.load(path, map_location=None, weights_only=True)
        results = []
        with torch.no_grad():
            for item in data:
                x = inputs.to_device(item["inputs"], self.device)
                eager = _detach_tree(self._eager(x), torch)
                ref64 = self._fp64(x)
                # Devices were checked on the correctness trials; these copies came back via CPU.
                r = self.compare.compare_outputs(inputs.to_device(item["output"], self.device), eager, ref64,
                                                 self.job.get("atol"), self.job.get("rtol"))
                r["call"] = item["call"]
                results.append(r)
        self.chan.send(event="rechecked", results=results)


def _run_judge(job, chan):
    judge = _Judge(job, chan)
    judge.prepare()
    for line in sys.stdin:
        cmd, _, arg = line.strip().partition(" ")
        if cmd == "judge":
            judge.judge(arg)
        elif cmd == "recheck":
            judge.recheck(arg)
        elif cmd == "exit":
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
        from kernelwright.harness import anticheat, compare, inputs, kernels
        from kernelwright.harness.loading import load_module, require

        self.torch, self.timing, self.anticheat = torch, timing, anticheat
        self.compare, self.inputs, self.kernels = compare, inputs, kernels
        self.job, self.chan = job, chan
        self.rng = random.SystemRandom()
        self.device = _resolve_device(job["device"], torch)
        if self.device.type == "cpu":
            _limit_memory(job.get("memory_limit_mb"))
        self.flags = {}
        self.notes = []
        self.no_grad = torch.no_grad

        chan.phase("import problem")
        problem = load_module(job["problem"], "kw_problem")
        self.Model, = require(problem, ["Model"], "problem")
        _preload_dynamo()
        self.guard = anticheat.Guard(extra=[("problem", problem), ("problem.Model", self.Model)])
        self.threads_before = anticheat.live_threads()

        chan.phase("import candidate")
        t0 = _perf_counter()
        cand_mod = load_module(job["candidate"], "kw_candidate")
        self.ModelNew, = require(cand_mod, ["ModelNew"], "candidate")
        self.import_s = _perf_counter() - t0
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
        data = torch.load(path, weights_only=True)
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
        self.sets = [(name, inputs.to_device(x, self.device)) for name, x in data["sets"]]
        self._check_guard()

    def _call(self, model, x):
        out = model(*x)
        _sync(self.torch, self.device)
        return out

    def correctness(self, allow_mutation, allow_alias):
        torch, inputs, ac = self.torch, self.inputs, self.anticheat
        from kernelwright.harness.compare import bitwise_equal, flatten

        outputs = {}
        with self.no_grad():
            for name, x in self.sets:
                self.chan.phase("correctness %s" % name)
                xc = inputs.clone_tree(x)
                ac.poison_free_memory(self.device)
                out = self._call(self.cand, xc)
                snap = _detach_tree(out, torch)
                outputs[name] = snap
                bad = ac.mutated_inputs(xc, x)
                if bad and not allow_mutation:
                    self.flag("input_mutated", "input(s) %s changed by forward() on %s" % (bad, name))
                hits = ac.aliased_outputs(flatten(out), xc)
                if hits and not allow_alias:
                    self.flag("output_aliases_input", "; ".join(hits))
                # Work still running after forward() returned changes the output later.
                _sleep(0.01)
                _sync(torch, self.device)
                for (path, live), (_, kept) in zip(flatten(out), flatten(snap)):
                    if isinstance(live, torch.Tensor) and not bitwise_equal(live, kept):
                        self.flag("output_changed_after_return", "%s changed after return on %s" % (path, name))
                        break
                ac.scrub(xc)
                del out, xc
        self._check_guard()
        return outputs

    def recycling(self):
        """Candidate, then reference, then candidate again on the same inputs.

        The first call sees poisoned memory; the reference then leaves its result in freed
        memory.  An output that is never written matches the reference only the second time.
        """
        torch, inputs, ac = self.torch, self.inputs, self.anticheat
        from kernelwright.harness.compare import bitwise_equal, compare_tensor, flatten, tolerance_for

        self.chan.phase("recycled-memory check")
        name, x = self.sets[0]
        with self.no_grad():
            xc = inputs.clone_tree(x)
            ac.poison_free_memory(self.device)
            first = _detach_tree(self._call(self.cand, xc), torch)
            # The C allocator behind CPU tensors does not always hand the same block back,
            # so a few rounds make the outcome dependable.
            for _ in range(8 if self.device.type == "cpu" else 1):
                # Occupy every free cached block, so the block the reference's result is
                # freed into is the one the allocator hands out next, as in a naive harness.
                held = ac.poison_free_memory(self.device, keep=True)
                x_ref, x_second = inputs.clone_tree(x), inputs.clone_tree(x)
                ref_out = self._call(self.ref, x_ref)
                ref_keep = _detach_tree(ref_out, torch)
                del ref_out
                second = _detach_tree(self._call(self.cand, x_second), torch)
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
                if "recycled_output" in self.flags:
                    break

    def _pool(self):
        """Timing inputs: the trial draws, rewritten with fresh values before every call."""
        torch, inputs = self.torch, self.inputs
        pristine = [x for name, x in self.sets if name.startswith("trial")][:3]
        work = [inputs.clone_tree(x) for x in pristine]
        rng = self.rng

        def make_args(i):
            k = i % len(work)
            scale = rng.uniform(0.75, 1.25)
            for src, dst in zip(pristine[k], work[k]):
                if isinstance(dst, torch.Tensor):
                    if dst.is_floating_point():
                        torch.mul(src, scale, out=dst)
                    else:
                        dst.copy_(src)
            return tuple(work[k])

        return make_args

    def _time(self, fn, make_args, after_call=None, rounds=1, budget_s=None):
        t = self.job["timing"]
        return self.timing.time_fn(
            fn, make_args, self.device, warmup=t["warmup"], warmup_ms=t["warmup_ms"],
            min_reps=max(2, t["min_reps"] // rounds), max_reps=max(2, t["max_reps"] // rounds),
            budget_s=min(budget_s or t["budget_s"], t["budget_s"]) / rounds, target_rse=t["target_rse"],
            after_call=after_call)

    def timings(self):
        torch, timing = self.torch, self.timing
        make_args = self._pool()
        min_reps = self.job["timing"]["min_reps"]
        rounds = max(1, int(self.job["timing"]["rounds"]))
        guaranteed = rounds * max(2, min_reps // rounds)  # calls every timing run makes
        chosen = set(self.rng.sample(range(guaranteed), min(3, guaranteed)))
        rechecks = []
        state = {"calls": 0, "pending": None}

        def make_checked_args(i):
            args = make_args(i)
            state["pending"] = None
            if i >= 0:
                # Which calls are re-checked is drawn from the OS, so it cannot be predicted.
                # Inputs are copied before the call: a candidate that writes to them must
                # not turn its own re-check into a false alarm.
                n = state["calls"]
                state["calls"] += 1
                if n in chosen or (len(rechecks) < 5 and self.rng.random() < 0.02):
                    state["pending"] = _tree_to_cpu(list(args), torch)
            return args

        def after_call(i, args, out):
            if state["pending"] is not None:
                rechecks.append({"call": state["calls"] - 1, "inputs": state["pending"],
                                 "output": _tree_to_cpu(out, torch)})
                state["pending"] = None

        results = {}
        with self.no_grad():
            timing.spin_up(self.device)
            if self.device.type == "cuda":
                self.chan.phase("timing baseline")
                tiny = torch.zeros(1, device=self.device)
                results["baseline"] = self._time(lambda: tiny.add_(1), None, budget_s=0.5)
            # Interleaved rounds: drift in clocks or co-tenants hits both sides alike.
            parts = {"eager": [], "candidate": []}
            for r in range(rounds):
                self.chan.phase("timing eager reference (round %d)" % (r + 1))
                parts["eager"].append(self._time(self.ref, make_args, rounds=rounds))
                self.chan.phase("timing candidate (round %d)" % (r + 1))
                parts["candidate"].append(self._time(self.cand, make_checked_args, after_call, rounds=rounds))
            results["eager"] = timing.merge(parts["eager"])
            results["candidate"] = timing.merge(parts["candidate"])
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
                except Exception as exc:
                    self.notes.append("torch.compile reference failed: %s: %s" % (type(exc).__name__, str(exc)[:300]))
        path = os.path.join(self.job["workdir"], "rechecks.pt")
        torch.save(rechecks, path)
        return results, compile_s, path

    def escape_check(self, results):
        base, cand = results.get("baseline"), results["candidate"]
        if base is None or cand.wall_median_ms is None:
            return
        overhead = base.wall_median_ms - base.median_ms
        excess = (cand.wall_median_ms - cand.median_ms) - overhead
        limit = max(self.job["escape_abs_ms"], self.job["escape_rel"] * cand.wall_median_ms)
        if excess > limit:
            self.flag("escaped_timed_stream", "device-synchronised wall %.4f ms vs CUDA events %.4f ms" % (
                cand.wall_median_ms, cand.median_ms))

    def new_threads(self):
        now = self.anticheat.live_threads()
        extra = [name for ident, name in now.items() if ident not in self.threads_before]
        if extra:
            self.flag("background_thread", "threads still running: %s" % ", ".join(extra[:5]))


def _run_candidate(job, chan):
    c = _Candidate(job, chan)
    torch = c.torch
    chan.send(event="ready", import_s=c.import_s)
    cmd, _, arg = sys.stdin.readline().strip().partition(" ")
    if cmd != "go":
        return
    go = json.loads(arg)
    c.setup(go["inputs"])
    outputs = c.correctness(go["reference_mutates_inputs"], go["reference_aliases_inputs"])
    out_path = os.path.join(job["workdir"], "outputs.pt")
    torch.save(outputs, out_path)
    del outputs
    c.recycling()
    results, compile_s, recheck_path = c.timings()
    c.escape_check(results)
    chan.send(event="result", outputs=out_path, rechecks=recheck_path, flags=c.flags, notes=c.notes,
              weights=c.weights, import_s=c.import_s, compile_s=compile_s,
              timings={k: v.to_dict() for k, v in results.items()},
              kernels=getattr(c, "kernel_info", None))


def _run_build(job, chan):
    from kernelwright.harness.loading import load_module, require

    chan.phase("import candidate")
    t0 = _perf_counter()
    mod = load_module(job["candidate"], "kw_candidate")
    require(mod, ["ModelNew"], "candidate")
    chan.send(event="built", build_s=_perf_counter() - t0)


# torch.set_float32_matmul_precision for every worker ('highest', 'high' or 'medium').
PRECISION_ENV = "KERNELWRIGHT_FLOAT32_MATMUL_PRECISION"


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    with open(argv[0]) as f:
        job = json.load(f)
    chan = Channel(int(argv[1]))
    faulthandler.enable()
    precision = os.environ.get(PRECISION_ENV)
    if precision:
        # Set before the problem and the candidate load, so both run at the precision asked for.
        import torch

        torch.set_float32_matmul_precision(precision)
    try:
        if job["role"] == "judge":
            _run_judge(job, chan)
        elif job["role"] == "candidate":
            _run_candidate(job, chan)
        else:
            _run_build(job, chan)
    except BaseException as exc:  # SystemExit from candidate code is a failure too
        chan.send(event="failed", **_failure(exc))
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(3)
    sys.stdout.flush()
    sys.stderr.flush()
    # Skip interpreter teardown: candidate extensions and threads can hang or crash in it.
    os._exit(0)


if __name__ == "__main__":
    main()
