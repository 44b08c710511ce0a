"""The judge worker: imports the problem only.

Builds the reference Model, draws the trial inputs and adversarial variants, runs the eager
reference and the float64 reference, and writes the inputs and weights for the candidate
worker.  It then waits for commands on stdin and compares the candidate's outputs with its
own.  The candidate's code never runs in this process, so it cannot reach the comparison.
"""

import json
import sys
import time

import torch

from kernelwright.harness import compare, exchange, fit, inputs, roofline
from kernelwright.harness.compare import flatten
from kernelwright.harness.exchange import available_host_bytes
from kernelwright.harness.candidate_timing import DRAWN_RECHECKS
from kernelwright.harness.handles import candidate_budget, fingerprint, new_key, room_bytes
from kernelwright.harness.loading import load_module, require
from kernelwright.harness.plumbing import (environment, exchange_dirs, exchange_holder, limit_memory, release,
                                           resolve_device, timing_sets, warm_device)
from kernelwright.harness.protocol import Command, Event, parse_command
from kernelwright.harness.reference_store import ReferenceStore
from kernelwright.harness.references import References


class _Judge(References):
    def __init__(self, job, chan):
        self.torch, self.compare, self.inputs, self.exchange = torch, compare, inputs, exchange
        self.roofline = roofline
        self.job, self.chan = job, chan
        self.device = resolve_device(job["device"], torch)
        if self.device.type == "cpu":
            limit_memory(job.get("memory_limit_mb"))
        chan.phase("import problem")
        problem = load_module(job["problem"], "kw_problem")
        self.Model, self.get_inputs, self.get_init_inputs = require(
            problem, ["Model", "get_inputs", "get_init_inputs"], "problem")
        self._init_references()
        self.out_bytes, self.fit_note = None, None
        self.dirs = exchange_dirs(job)
        self.keep_files = bool(job.get("keep_files"))
        self.holder = exchange_holder(job, torch, self.device)
        self.handle_room = None
        self.fingerprint_key = None
        self.fingerprints, self.tampered = {}, None
        # Sets drawn again from their seeds (see _redrawable): {name: (trial, variant)}, the
        # fingerprints the candidate worker checks its own draws against, and their key.
        self.redraw, self.recipes, self.drawn = False, {}, {}
        self.draw_key = None
        self.drew_on_host = False
        self.shared = False
        self.first_set_s = 0.0  # the first set's references took this long

    def prepare(self):
        torch, inputs, job, chan = self.torch, self.inputs, self.job, self.chan
        chan.phase("reference setup")
        inputs.seed_everything(job["init_seed"])
        init_inputs = self.init_inputs = list(self.get_init_inputs())
        misfit, self.out_bytes, self.fit_note = fit.misfit(self.Model, init_inputs, self.get_inputs,
                                                           job["trial_seeds"][0], self.device, job)
        if misfit:
            chan.send(event=Event.PREPARED, does_not_fit=misfit, **environment(torch, self.device))
            return False
        self.model = inputs.construct(self.Model, init_inputs, job["init_seed"], self.device)
        state = {k: v.detach().cpu() for k, v in self.model.state_dict().items()}

        chan.phase("reference trials")
        seeds = job["trial_seeds"]
        first = self._draw(seeds[0])
        self.redraw = self._redrawable(first, seeds[0])
        per_set = self.per_set = max(1, inputs.nbytes(first))
        # Very large problems: a bounded number of sets keeps the time and exchange space in
        # check.  Memory does not depend on the count: sets are made, run and written one
        # at a time.
        max_sets = max(2, int(job.get("max_input_bytes", 4 << 30) // per_set))
        n_trials, n_variants = fit.set_counts(len(seeds), max_sets)
        notes = [self.fit_note] if self.fit_note else []
        if n_trials < len(seeds) or n_variants < len(inputs.VARIANTS):
            notes.append("inputs are %.0f MiB per set: %d trials and %d variants" % (
                per_set / 2**20, n_trials, n_variants))
        host = job.get("reference_host_bytes")
        self.store = ReferenceStore(int(job.get("reference_cache_bytes", 1 << 30)),
                                    int(host) if host is not None else available_host_bytes() // 4, self.holder)
        self.sets, self.paths = [], {}
        self.ref_mutates = self.ref_aliases = False
        self.base_finite, self.dropped, self.out_dtypes = {}, [], set()
        order = {}
        with torch.no_grad():
            b = 0
            while b < n_trials:
                # Variants are made where the data lives (the device), from the draw they
                # vary, while it is there: one draw and one variant in memory at a time.
                order["trial%d" % b] = b
                self.recipes["trial%d" % b] = (b, None)
                if b == 0 or not self.redraw:
                    x = inputs.to_device(first if b == 0 else self._draw(seeds[b]), self.device)
                else:  # exactly as the candidate worker will draw it: no fallback to the host
                    x = self._load_set("trial%d" % b)
                first = None
                self._add_set("trial%d" % b, x, None)
                if b == 0:
                    n_trials, n_variants = fit.sets_in_time(n_trials, n_variants, self.first_set_s,
                                                            job.get("reference_budget_s"), notes)
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
                    release(torch, self.device)
                    self._add_set(name, v, "trial%d" % b)
                    del v
                x = None
                release(torch, self.device)
                b += 1
        self.sets.sort(key=lambda item: order[item[0]])
        self.timing_names = timing_sets([name for name, _ in self.sets])
        notes += self.store.notes(len(self.sets))

        self.drawn_rechecks = fit.rechecks_in_time(self.first_set_s, job.get("reference_budget_s"),
                                                   DRAWN_RECHECKS, notes)
        if self.fp64_on_host:
            notes.append("float64 reference kept on the host (no room for it on the device beside the eager "
                         "output and the candidate's) and compared on the device a chunk at a time")

        self.state, self.notes = state, notes
        # A judge a suite shares among a problem's candidates (session.ProblemJudge) starts each
        # from the state it had here, as a judge of their own would.
        self.shared = bool(job.get("shared")) and self.redraw
        if self.shared:
            self.snapshot = [(m, {k: v.detach().cpu().clone() for k, v in m.state_dict().items()})
                             for m in (self.model, self.model64) if m is not None]
        self._offer()
        return True

    def _offer(self):
        """Write the setup for a candidate worker and say the judge is ready for it."""
        torch = self.torch
        redraw = None
        if self.redraw:
            redraw = {"key": self.draw_key,
                      "sets": {name: list(self.recipes[name]) + [self.drawn[name]] for name, _ in self.sets}}
        setup_path = self.exchange.save({"state_dict": self.state, "init_inputs": self.init_inputs,
                                         "sets": [(name, self.paths[name]) for name, _ in self.sets],
                                         "redraw": redraw},
                                        "setup.pt", self.dirs)
        self.chan.send(event=Event.PREPARED, path=setup_path, sets=[n for n, _ in self.sets], dropped=self.dropped,
                       fp64=self.fp64_where, fp64_note=self.fp64_note, notes=self.notes,
                       reference_mutates_inputs=self.ref_mutates, reference_aliases_inputs=self.ref_aliases,
                       output_dtypes=sorted(self.out_dtypes), output_types=sorted(self.out_types),
                       input_bytes=self.per_set, work=self.work,
                       handle_budget=self.handle_budget(), sets_by_handle=len(self.fingerprints),
                       drawn_rechecks=self.drawn_rechecks,
                       sets_redrawn=len(self.drawn), shareable=self.shared,
                       **environment(torch, self.device))

    def next_candidate(self, arg):
        """Serve the next candidate of a suite: its own exchange directories, the model as it
        was after preparing, the references kept since."""
        self.dirs = json.loads(arg)["exchange_dirs"]
        self.tampered = None
        for model, state in self.snapshot:
            model.load_state_dict(state)
        self._offer()

    def _draw(self, seed):
        """One draw of the inputs, on the device where it fits and where ``get_inputs()`` works
        with the device as the default (one that draws with a CPU generator does not), else on
        the host; an error there is the problem's own."""
        if not self.drew_on_host:
            try:
                return self.inputs.draw_inputs(self.get_inputs, seed, self.device)
            except Exception:  # noqa: BLE001 - drawn again on the host, as get_inputs() is written
                release(self.torch, self.device)
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
        release(self.torch, self.device)
        if same:
            self.draw_key = new_key()
        return same

    def _add_set(self, name, x, base):
        torch = self.torch
        started = time.perf_counter()
        eager, ref64, mutates, aliases = self._references(x, name)
        self.ref_mutates |= mutates
        self.ref_aliases |= aliases
        finite = self._all_finite(eager) and (ref64 is None or self._all_finite(ref64))
        computed_s = time.perf_counter() - started  # the finiteness checks waited for the device
        self.first_set_s = self.first_set_s or computed_s
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
            self.fingerprint_key = self.fingerprint_key or new_key()
            self.fingerprints[name] = fingerprint(x, self.fingerprint_key, torch)
        self.sets.append((name, None))
        self.store.add(name, eager, ref64, computed_s)

    def _size_handle_budget(self, x, eager):
        """What the judge may hold for the candidate worker, from the first set's sizes."""
        in_b, out_b = inputs.nbytes(x), inputs.nbytes(eager)
        fp64_b = 2 * (in_b + out_b) if self.fp64_where == "float64 on cuda" else 0
        total = self.torch.cuda.get_device_properties(self.device).total_memory
        self.holder.budget, self.handle_room = room_bytes(total, in_b, out_b, fp64_b)

    def handle_budget(self):
        """Bytes of outputs the candidate worker may pass by handle: the room the judge left."""
        if self.holder is None or self.handle_room is None:
            return 0
        total = self.torch.cuda.get_device_properties(self.device).total_memory
        return candidate_budget(total, self.handle_room, self.holder.bytes + self.holder.reserved)

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
        if fingerprint(x, self.fingerprint_key, self.torch) != self.fingerprints[name] and not self.tampered:
            self.tampered = "the judge's copy of input set %s changed while the candidate worker could reach it" % name
        return self.inputs.clone_tree(x) if writable else x

    def _expected(self, name):
        kept = self.store.get(name, self.device)
        if kept is not None:
            return kept
        eager, ref64, _, _ = self._references(self._load_set(name, writable=True), name, keep_inputs=False)
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
                results[name] = self.compare.compare_outputs(cand, eager, ref64, self.job.get("atol"),
                                                             self.job.get("rtol"), device=self.device)
                del cand, eager, ref64
                release(torch, self.device)
        for name, _ in self.sets:
            if name not in self.timing_names:
                self._done_with(self.paths[name])
        # Kept references served this comparison only (the re-checks compute their own), unless
        # the next candidate of a suite is judged on them too.
        if not self.shared:
            self.store.clear()
        release(torch, self.device)
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
                eager, ref64, _, _ = self._references(x, name, keep_inputs=False)
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
                r = self.compare.compare_outputs(out, eager, ref64, self.job.get("atol"), self.job.get("rtol"),
                                                 device=self.device)
                r["call"] = item.get("call")
                r["sampled"] = bool(samples)
                results.append(r)
                del out, eager, ref64
                release(torch, self.device)
        for name in self.timing_names:
            self._done_with(self.paths[name])
        self.chan.send(event=Event.RECHECKED, results=results, tampered=self.tampered)


def warm(device=None):
    """What a spare judge does before it has a job (worker.py), besides importing this module
    and torch: the CUDA context on ``device`` and fake tensors' first use (the problem's memory
    need is sized with them); the problem comes with the job."""
    fit.warm(warm_device(device, torch))


def run(job, chan):
    judge = _Judge(job, chan)
    if not judge.prepare():
        return
    for line in sys.stdin:
        cmd, arg = parse_command(line)
        if cmd == Command.JUDGE:
            judge.judge(arg)
        elif cmd == Command.RECHECK:
            judge.recheck(arg)
        elif cmd == Command.NEXT and judge.shared:
            judge.next_candidate(arg)
        elif cmd == Command.EXIT:
            return
