"""The candidate worker: imports the problem (for the timed references) and the candidate.

Runs the candidate on the judge's inputs with anti-cheat checks, then times the eager
reference, the candidate and the torch.compile reference (candidate_timing.py).
"""

import json
import sys
import time

import torch

from kernelwright import timing
from kernelwright.harness import anticheat, compare, exchange, inputs, kernels, roofline
from kernelwright.harness.candidate_timing import DRAWN_RECHECKS, CandidateTiming
from kernelwright.harness.compare import bitwise_equal, compare_tensor, flatten, tolerance_for
from kernelwright.harness.handles import fingerprint
from kernelwright.harness.loading import load_module, require
from kernelwright.harness.plumbing import (copy_tree, exchange_dirs, exchange_holder, limit_memory, release,
                                           resolve_device, sync, warm_device)
from kernelwright.harness.protocol import Command, Event, parse_command

# Bound before the candidate is imported: it cannot replace what the worker calls.
_perf_counter = time.perf_counter
_sleep = time.sleep


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


def _tensor_shapes(model):
    """{name: shape} of a module's parameters and buffers ({} for anything else)."""
    if not isinstance(model, torch.nn.Module):
        return {}
    return {k: tuple(v.shape) for k, v in list(model.named_parameters()) + list(model.named_buffers())}


def _shape_changes(before, after):
    return ["%s %s -> %s" % (k, list(before[k]), list(after[k]) if k in after else "gone")
            for k in before if after.get(k) != before[k]]


class _Candidate(CandidateTiming):
    def __init__(self, job, chan):
        self.torch, self.timing, self.anticheat, self.exchange = torch, timing, anticheat, exchange
        self.roofline = roofline
        self.dirs = exchange_dirs(job)
        self.keep_files = bool(job.get("keep_files"))
        self.compare, self.inputs, self.kernels = compare, inputs, kernels
        self.job, self.chan = job, chan
        self.device = resolve_device(job["device"], torch)
        if self.device.type == "cpu":
            limit_memory(job.get("memory_limit_mb"))
        self.holder = exchange_holder(job, torch, self.device)
        self.drawn_rechecks = DRAWN_RECHECKS
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
        self.ref = inputs.construct(self.Model, init_inputs, seed, self.device)
        self.ref.load_state_dict(data["state_dict"])
        self.chan.phase("construct ModelNew")
        self.cand = inputs.construct(self.ModelNew, init_inputs, seed, self.device)
        self.weights = _share_weights(torch, self.cand, data["state_dict"])
        self.shapes_at_setup = _tensor_shapes(self.cand)
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
        return fingerprint(x, self.redraw["key"], self.torch) == self.redraw["sets"][name][2]

    def _scrub_host(self, *objs):
        """On the CPU freed memory goes back to the C allocator unpoisoned: fill it first."""
        if self.device.type == "cpu":
            self.anticheat.scrub(*objs)

    def _call(self, model, x, set_name=None):
        """``model(*x)``, synchronised; for a judged output (``set_name``), from the random state
        the judge's reference on that set starts from (``inputs.seed_forward``)."""
        if set_name is not None:
            self.inputs.seed_forward(self.job["init_seed"], set_name)
        out = model(*x)
        sync(self.torch, self.device)
        return out

    def correctness(self, allow_mutation, allow_alias):
        """Run the candidate on every set, one at a time; returns {set name: output file}."""
        torch, inputs, ac = self.torch, self.inputs, self.anticheat
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
                out = self._call(self.cand, xc, name)
                snap = copy_tree(out, torch)
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
                sync(torch, self.device)
                for (p, live), (_, kept) in zip(flatten(out), flatten(snap)):
                    if isinstance(live, torch.Tensor) and not bitwise_equal(live, kept):
                        self.flag("output_changed_after_return", "%s changed after return on %s" % (p, name))
                        break
                ac.scrub(xc)
                del out, xc
                self.out_bytes = max(self.out_bytes, inputs.nbytes(snap))
                # Passed by handle where there is room: held until the judge has copied it.
                outputs[name] = self.exchange.save(snap, "out%d.pt" % k, self.dirs, self.holder)
                self.outputs_by_handle += self.holder is not None and self.holder.holds(outputs[name])
                self._scrub_host(x, snap)
                del x, snap
                release(torch, self.device)
        self._check_guard()
        return outputs

    def _check_output_types(self, out, where):
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
        out_of_memory = None
        try:
            with self.no_grad():
                self._recycling_rounds(self._set(self.sets[0][0]), hold=True)
        except torch.cuda.OutOfMemoryError as exc:
            out_of_memory = str(exc).split("\n")[0][:200]
        if out_of_memory is not None:
            # Holding every cached block left too little for the two calls: run the same order
            # again with the cache poisoned but not held. Not from within the except clause,
            # whose traceback keeps the first attempt's tensors (the held blocks among them).
            release(torch, self.device)
            self.notes.append("recycled-memory check: cached memory not held during the second call "
                              "(out of device memory with it held: %s)" % out_of_memory)
            with self.no_grad():
                self._recycling_rounds(self._set(self.sets[0][0]), hold=False)
        release(torch, self.device)

    def _recycling_rounds(self, x, hold):
        torch, inputs, ac = self.torch, self.inputs, self.anticheat
        xc = inputs.clone_tree(x)
        ac.poison_free_memory(self.device)
        name = self.sets[0][0]  # every call on its seed: a model that draws random numbers repeats itself
        first = copy_tree(self._call(self.cand, xc, name), torch)
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
            ref_out = self._call(self.ref, x_ref, name)
            ref_keep = copy_tree(ref_out, torch)
            del ref_out
            second = self._call(self.cand, x_second, name)
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


def warm(device=None):
    """What a spare worker does before it has a job (worker.py): the imports every candidate
    worker needs, torch.compile's among them, and the CUDA context on ``device``."""
    _preload_dynamo()
    warm_device(device, torch)


def run(job, chan):
    c = _Candidate(job, chan)
    chan.send(event=Event.READY, import_s=c.import_s)
    cmd, arg = parse_command(sys.stdin.readline())
    if cmd != Command.GO:
        return
    go = json.loads(arg)
    if c.holder is not None:
        c.holder.budget = int(go.get("handle_budget") or 0)
    c.drawn_rechecks = int(go.get("drawn_rechecks") or DRAWN_RECHECKS)
    c.setup(go["inputs"])
    c.output_types = set(go.get("reference_output_types") or ["torch.Tensor"])
    try:
        out_paths = c.correctness(go["reference_mutates_inputs"], go["reference_aliases_inputs"])
    except Exception as exc:
        # Said with the error: a weight that changed shape after setup is a lead that the
        # traceback alone does not give.
        changed = _shape_changes(c.shapes_at_setup, _tensor_shapes(c.cand))
        if changed:
            raise RuntimeError("%s: %s (ModelNew's tensors changed shape since setup: %s)"
                               % (type(exc).__name__, exc, "; ".join(changed[:4]))) from exc
        raise
    # The judge compares them (and deletes what only it needed) before anything else runs.
    chan.send(event=Event.OUTPUTS, outputs=out_paths)
    if sys.stdin.readline().strip() != Command.CONTINUE:
        return
    if c.holder is not None:
        c.holder.release()
    c.recycling()
    # A suite measures the ceilings once per problem (session.py) and passes them on.
    ceiling = job.get("ceiling") or c.ceilings(go["dtype"])
    results, compile_s, rechecks = c.timings()
    chan.send(event=Event.RESULT, rechecks=rechecks, flags=c.flags, notes=c.notes,
              weights=c.weights, import_s=c.import_s, compile_s=compile_s,
              timings={k: v.to_dict() for k, v in results.items()},
              kernels=getattr(c, "kernel_info", None), ceiling=ceiling, design=c.design,
              outputs_by_handle=c.outputs_by_handle)
