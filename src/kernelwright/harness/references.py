"""The judge's references for one input set: the eager output and the float64 one.

Made so that the judge's device peak stays at two copies of a set and one output while it
records a set, one of each when it computes the references again (docs/harness.md, "Memory"):
the float64 reference first, from the pristine set, and kept on the host where the device has
no room for it beside the rest; the eager reference then on the set itself where nothing needs
the set afterwards.
"""

import copy

import torch

from kernelwright.harness import inputs
from kernelwright.harness.anticheat import aliased_outputs, mutated_inputs, type_name
from kernelwright.harness.compare import flatten, storages_overlap
from kernelwright.harness.plumbing import copy_tensor, device_free_bytes, headroom, host_room, release

HOST = torch.device("cpu")
# Elements per step of the finiteness check: float64 temporaries of a few hundred MiB at most.
_FINITE_CHUNK = 1 << 23


class References:
    """Part of the judge: uses its ``model``, ``device``, ``job``, ``roofline`` and ``out_bytes``
    (one output's bytes from the dry forward, None where it failed)."""

    def _init_references(self):
        self.fp64_where = self.fp64_note = self.model64 = None
        self.work = None
        self.out_types = set()
        self.fp64_on_host = False

    def _fp64_choose(self, x):
        """Where float64 runs: the device when it has room for it, else the host, else nowhere."""
        in_bytes = inputs.nbytes(x)
        out_bytes = in_bytes if self.out_bytes is None else self.out_bytes
        need = 2 * (in_bytes + out_bytes)  # float64 copies of the inputs and of the outputs
        where = [self.device]
        if self.device.type == "cuda":
            free, total = device_free_bytes(torch, self.device)
            if need + headroom(total) > free:
                where = []
                self.fp64_note = "float64 reference needs about %.1f GiB; the device had %.1f GiB free" % (
                    need / 2**30, free / 2**30)
            where.append(HOST)
        room = host_room(self.job)
        if room is not None and self.device.type == "cuda" and need + in_bytes > room:
            where = [d for d in where if d.type != "cpu"]
        return where, need

    def _fp64(self, x):
        """The float64 reference output for ``x``, or None when float64 cannot run."""
        if self.fp64_where is None:
            where, need = self._fp64_choose(x)
            errors = []
            for dev in where:
                try:
                    self.model64 = copy.deepcopy(self.model).to(dev).double()
                    out = self._run64(x, dev)
                    self.fp64_where = "float64 on %s" % dev.type
                    if errors or dev.type != self.device.type:
                        self.fp64_note = "float64 reference ran on %s (%s)" % (
                            dev.type, "; ".join(errors) or self.fp64_note)
                    return out
                except Exception as exc:
                    errors.append("%s on %s: %s" % (type(exc).__name__, dev.type, str(exc)[:200]))
                    self.model64 = None
                    release(torch, self.device)
            self.fp64_where = "unavailable"
            if not where:
                errors.append("needs about %.1f GiB on the device or the host; neither has room" % (need / 2**30))
            self.fp64_note = "float64 reference failed (%s); compared with eager only" % "; ".join(errors)
            return None
        if self.fp64_where == "unavailable":
            return None
        return self._run64(x, HOST if self.fp64_where == "float64 on cpu" else self.device)

    def _run64(self, x, dev):
        out = self.model64(*inputs.float64_copy(inputs.to_device(x, dev)))
        if dev.type != "cuda":
            return out
        # Judging holds the eager output (on a copy of the set while a set is recorded) and the
        # candidate's beside it; where that leaves no room, the reference waits on the host and
        # is compared a chunk at a time on the device.
        free, total = device_free_bytes(torch, self.device)
        beside = inputs.nbytes(x) + 2 * (self.out_bytes or inputs.nbytes(x))
        if beside + headroom(total) <= free:
            return out
        self.fp64_on_host = True
        out = inputs.to_device(out, HOST)
        release(torch, self.device)
        return out

    def _references(self, x, name, keep_inputs=True):
        """(eager, float64, reference mutates its inputs, reference output aliases them).

        The eager reference runs on a copy of ``x`` where ``keep_inputs`` (the set is recorded
        or varied afterwards, and whether the reference changes its inputs is found out here),
        else on ``x`` itself, which the caller gives up: one copy of the set fewer on the
        device when references are computed again (mutation is then reported as False)."""
        inputs.seed_forward(self.job["init_seed"], name)
        ref64 = self._fp64(x)
        inputs.seed_forward(self.job["init_seed"], name)
        xc, eager = self._eager(x, keep_inputs)
        self.out_types |= {type_name(type(v)) for _, v in flatten(eager) if isinstance(v, torch.Tensor)}
        mutates = keep_inputs and bool(mutated_inputs(xc, x))
        aliases = bool(aliased_outputs(flatten(eager), xc))
        eager = own_tree(eager, inputs.tensors_in(xc))
        del xc
        return eager, ref64, mutates, aliases

    def _eager(self, x, keep_inputs):
        """(what the eager reference ran on, its output); the first call, always on a copy of a
        set being recorded, also counts the reference's work (see roofline.py), with no forward
        of its own."""
        xc = inputs.clone_tree(x) if keep_inputs else x
        if self.work is not None:
            return xc, self.model(*xc)
        try:
            eager, self.work = self.roofline.count_work(self.model, xc)
            return xc, eager
        except Exception as exc:
            # The metric must never cost the verdict: run plainly (a fault of the problem
            # itself raises again there) and say why the work is missing.
            self.work = {"note": "work of the reference not counted: %s: %s" % (type(exc).__name__, str(exc)[:200])}
            xc = inputs.clone_tree(x)
            return xc, self.model(*xc)

    def _all_finite(self, out):
        def finite(v):
            # By chunk, on the device: isfinite on a whole float64 tensor makes temporaries its
            # size, and a reference kept on the host is checked faster there.
            flat = v.reshape(-1)
            return all(bool(torch.isfinite(flat[i:i + _FINITE_CHUNK].to(self.device)).all())
                       for i in range(0, flat.numel(), _FINITE_CHUNK))

        return all(finite(v) for _, v in flatten(out) if isinstance(v, torch.Tensor) and v.is_floating_point())


def own_tree(obj, inputs=()):
    """``obj`` with every tensor detached and in memory of its own.  A plain tensor that fills
    its storage alone, sharing none with ``inputs``, is kept as it is: copying every output,
    as ``plumbing.copy_tree`` does, held two of them on the device at once.  A subclass, a view
    into a larger buffer or an alias of an input is copied."""
    def own(t):
        return (type(t) in (torch.Tensor, torch.nn.Parameter) and t.storage_offset() == 0 and t.is_contiguous()
                and t.untyped_storage().nbytes() == t.numel() * t.element_size()
                and not any(storages_overlap(t, x) for x in inputs))

    if isinstance(obj, torch.Tensor):
        return obj.detach() if own(obj) else copy_tensor(obj, torch)
    if isinstance(obj, (list, tuple)):
        return type(obj)(own_tree(o, inputs) for o in obj)
    if isinstance(obj, dict):
        return {k: own_tree(v, inputs) for k, v in obj.items()}
    return obj
