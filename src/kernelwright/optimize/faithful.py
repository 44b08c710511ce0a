"""Whether a captured graph computes what the model computes, on the example inputs.

The graph is PyTorch's decompositions of the model's ops, and a decomposition can disagree
with the op it stands for (torch 2.11-2.13's ``multilabel_margin_loss`` counts target slots
after a row's terminating -1). Everything downstream (the kernels, their ATen twins, the
emitted fallback) computes what the graph computes, so a wrong decomposition would be a wrong
model that no later check catches. The test is loose: it looks for a different computation,
not for rounding, which a decomposition may change (a mean as a sum and a division).
"""

import torch
from torch.utils import _pytree

# Relative L2 distance beyond which two float results are different computations, not the same
# one rounded otherwise (a variance by hand over a large mean moved 3e-3 between two orders).
TOLERANCE = {torch.float16: 5e-2, torch.bfloat16: 5e-2}
FLOAT_TOLERANCE = 1e-2
# Integer and bool results of float math may flip where a value sits on a boundary.
MISMATCH_FRACTION = 1e-2


def is_random(gm):
    """Whether the graph draws random numbers: its results cannot be compared with another run."""
    return any(n.op == "call_function" and torch.Tag.nondeterministic_seeded in getattr(n.target, "tags", ())
               for n in gm.graph.nodes)


def differs(model, args, gm, env, user_outputs, mutated):
    """None where the graph's outputs match ``model(*args)``'s, else a sentence on the first
    output that does not. ``env``: the graph's placeholder values; ``mutated``: FQNs of buffers
    that forward updates, put back as they were after the model has run."""
    saved = {fqn: buf.detach().clone() for fqn, buf in model.named_buffers() if fqn in mutated}
    # An output that is an updated buffer (or a view of one) would be put back with it: copied.
    held = {buf.untyped_storage().data_ptr() for fqn, buf in model.named_buffers() if fqn in mutated}
    try:
        with torch.no_grad():
            # The graph first: it reads the buffers that the model's forward then updates.
            got = [t for t in run(gm, env, user_outputs) if isinstance(t, torch.Tensor)]
            want = [t.clone() if t.untyped_storage().data_ptr() in held else t
                    for t in _pytree.tree_leaves(model(*args)) if isinstance(t, torch.Tensor)]
    finally:
        buffers = dict(model.named_buffers())
        with torch.no_grad():
            for fqn, value in saved.items():
                buffers[fqn].copy_(value)
    if len(want) != len(got):
        return "%d tensor outputs against the model's %d" % (len(got), len(want))
    for i, (a, b) in enumerate(zip(got, want)):
        why = _compare(a, b)
        if why:
            return "output %d %s" % (i, why)
    return None


def run(gm, env, outputs):
    """The graph's ``outputs`` from its placeholders' values, through the GraphModule's own code
    (which drops each value after its last use)."""
    flat = gm(*[env[n] for n in gm.graph.nodes if n.op == "placeholder"])
    produced = next(n for n in gm.graph.nodes if n.op == "output").args[0]
    by_node = {node: value for node, value in zip(produced, flat) if isinstance(node, torch.fx.Node)}
    return [by_node[o] if isinstance(o, torch.fx.Node) else o for o in outputs]


def _compare(got, want):
    if got.shape != want.shape:
        return "has shape %s where the model's has %s" % (tuple(got.shape), tuple(want.shape))
    if want.numel() == 0:
        return None
    if not (want.dtype.is_floating_point or want.dtype.is_complex):
        wrong = (got.to(want.dtype) != want).sum().item()
        if wrong > MISMATCH_FRACTION * want.numel():
            return "differs in %d of %d elements" % (wrong, want.numel())
        return None
    a, b = got.double(), want.double()
    finite = torch.isfinite(b)
    # NaN and infinities in the same places with the same signs; the rest compared by distance.
    if not torch.equal(torch.isnan(a), torch.isnan(b)) or not torch.equal(a[torch.isinf(b)], b[torch.isinf(b)]):
        return "has NaN or infinities where the model's has none, or the reverse"
    a, b = a[finite], b[finite]
    scale = b.norm().item()
    distance = (a - b).norm().item()
    tol = TOLERANCE.get(want.dtype, FLOAT_TOLERANCE)
    if distance > tol * max(scale, 1e-30) and distance > 1e-30:
        return "is %.3g from the model's (relative L2)" % (distance / max(scale, 1e-30))
    return None
