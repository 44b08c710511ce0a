"""Capture: a module and example inputs in, an ATen graph out (``torch.export``, non-strict,
core ATen decompositions plus those that turn norms and softmax into reductions and
pointwise ops the code generator can fuse).
"""

import operator
import traceback
from dataclasses import dataclass, field
from typing import Dict, List

import torch
from torch._decomp import core_aten_decompositions, get_decompositions

from . import faithful, picks, runtime

aten = torch.ops.aten

# Composite ops that core ATen keeps whole but that are only reductions and pointwise math:
# decomposed, they fuse with what surrounds them.
_FUSIBLE_DECOMPOSITIONS = [
    aten._softmax, aten._log_softmax, aten.native_layer_norm, aten.native_group_norm,
    aten._native_batch_norm_legit_functional, aten._native_batch_norm_legit_no_training,
    aten._native_batch_norm_legit, aten.var_mean.correction, aten.std.correction,
    aten.logsumexp, aten.mse_loss, aten.l1_loss, aten.smooth_l1_loss, aten.huber_loss,
    aten.rms_norm, aten.linalg_vector_norm,
]

# Ops returning (values, indices) whose halves the code generator fuses when used alone: max/min
# over a dim as amax/amin and argmax/argmin (both take the first index of the extreme, NaN
# first), max pooling's values as the pooling op without indices. op -> a (target, args) for
# each half, or None where that half has no such op.
_HALVES = {
    aten.max.dim: (lambda a, k: (aten.amax.default, (a[0], [a[1]], _keepdim(a, k)), {}),
                   lambda a, k: (aten.argmax.default, (a[0], a[1], _keepdim(a, k)), {})),
    aten.min.dim: (lambda a, k: (aten.amin.default, (a[0], [a[1]], _keepdim(a, k)), {}),
                   lambda a, k: (aten.argmin.default, (a[0], a[1], _keepdim(a, k)), {})),
    aten.max_pool2d_with_indices.default: (lambda a, k: (aten.max_pool2d.default, a, k), None),
    aten.max_pool3d_with_indices.default: (lambda a, k: (aten.max_pool3d.default, a, k), None),
}

# Ops whose results are parts of one tensor (their getitems become slices and selects).
_PARTS = (aten.split_with_sizes.default, aten.split.Tensor, aten.unbind.int)


def _keepdim(args, kwargs):
    return args[2] if len(args) > 2 else kwargs.get("keepdim", False)


class CaptureError(Exception):
    """The model could not be captured as one graph; ``where`` names the op and source line."""

    def __init__(self, message, where=None):
        super().__init__(message)
        self.where = where


@dataclass
class Captured:
    graph_module: torch.fx.GraphModule
    params: Dict[str, str]  # placeholder name -> parameter or buffer FQN
    user_inputs: List[str]  # placeholder names of forward's arguments, in order
    user_outputs: List[object]  # output nodes (or constants) of forward's result, in order
    mutations: Dict[str, str]  # output node name -> buffer FQN it is copied into
    out_kind: str  # "single", "tuple" or "list"
    input_scalars: Dict[int, object] = field(default_factory=dict)  # non-tensor forward args
    model_forward: object = None  # the model's forward, for its parameter names
    formats: Dict[str, str] = field(default_factory=dict)  # placeholder -> memory format to convert to
    # placeholder name -> a tensor forward builds from literals (torch.tensor(2.0)), lifted by export
    constants: Dict[str, torch.Tensor] = field(default_factory=dict)
    notes: List[str] = field(default_factory=list)  # what capture changed and why, for the plan's decisions


# Composite ops that core ATen decomposes but whose library kernel beats what the pieces can
# be fused into: attention as bmm, softmax and bmm materialises the score matrix that a fused
# attention kernel never writes.
_LIBRARY_OPS = [aten.scaled_dot_product_attention.default]


def decomposition_table():
    table = dict(core_aten_decompositions())
    table.update(get_decompositions(_FUSIBLE_DECOMPOSITIONS))
    for op in _LIBRARY_OPS:
        table.pop(op, None)
    return table


def capture(model, example_inputs):
    """``Captured`` for ``model(*example_inputs)``, or ``CaptureError`` saying what stopped it.
    The graph is checked against the model on the example inputs (``faithful``); an op whose
    decomposition computes otherwise is kept whole, an ATen call, and a note says so."""
    args = tuple(example_inputs)
    try:
        exported = torch.export.export(model, args, strict=False)
    except Exception as error:  # torch.export raises many types; all mean "no single graph"
        raise CaptureError("%s: %s" % (type(error).__name__, _first_line(error)), _where(error)) from error
    table = decomposition_table()
    captured = _decomposed(exported, table, model, args)
    why = _unfaithful(captured, model, args)
    if why is None:
        return captured
    # Each op the table decomposed, kept whole in turn; then all of them.
    decomposed = list(dict.fromkeys(n.target for n in exported.graph.nodes if n.op == "call_function"
                                    and n.target in table))
    for kept in [[op] for op in decomposed] + ([decomposed] if len(decomposed) > 1 else []):
        captured = _decomposed(exported, {op: f for op, f in table.items() if op not in kept}, model, args)
        if _unfaithful(captured, model, args) is None:
            captured.notes.append("%s: kept whole, an ATen call: with PyTorch's decomposition the graph's %s on "
                                  "the example inputs" % (", ".join(str(op) for op in kept), why))
            return captured
    raise CaptureError("the captured graph does not compute what the model does (its %s), whichever op is kept "
                       "whole" % why)


def _unfaithful(captured, model, args):
    """Why the captured graph's outputs differ from the model's, or None (also where the graph
    draws random numbers, which no second run reproduces)."""
    gm = captured.graph_module
    if faithful.is_random(gm):
        return None
    try:
        return faithful.differs(model, args, gm, environment(captured, model, args), captured.user_outputs,
                                set(captured.mutations.values()))
    except torch.OutOfMemoryError:
        # Both forwards' outputs at once did not fit beside the inputs: the device's limit, not a
        # fault of the graph.
        torch.cuda.empty_cache()
        captured.notes.append("the captured graph was not checked against the model: the two forwards' "
                              "outputs did not fit the device together")
        return None


def _decomposed(exported, table, model, args):
    try:
        ep = exported.run_decompositions(table)
    except Exception as error:
        raise CaptureError("%s: %s" % (type(error).__name__, _first_line(error)), _where(error)) from error
    sig = ep.graph_signature
    gm = ep.graph_module
    _drop_metadata_asserts(gm)
    _split_value_index_reductions(gm)
    _split_convolution_bias(gm)
    _parts_as_views(gm)
    picks.sink_picks(gm)
    params, constants = {}, {}
    for spec in sig.input_specs:
        kind = spec.kind.name
        # A plain tensor attribute of the model is lifted as a constant too: read from the model
        # like a parameter, so that the emitted forward sees the model's value, not the traced one.
        if kind in ("PARAMETER", "BUFFER") or kind == "CONSTANT_TENSOR" and _is_attribute(model, spec.target):
            params[spec.arg.name] = spec.target
        elif kind == "CONSTANT_TENSOR":
            constants[spec.arg.name] = _literal_constant(ep.constants[spec.target], spec.target)
    user_inputs = [spec.arg.name for spec in sig.input_specs if spec.kind.name == "USER_INPUT"]
    output_node = next(n for n in gm.graph.nodes if n.op == "output")
    flat_outputs = list(output_node.args[0])
    mutations, user_outputs = {}, []
    for spec, value in zip(sig.output_specs, flat_outputs):
        kind = spec.kind.name
        if kind == "BUFFER_MUTATION":
            mutations[value.name] = spec.target
        elif kind == "USER_OUTPUT":
            user_outputs.append(value)
        else:
            raise CaptureError("the graph mutates a user input (%s), which the optimizer does not reproduce" % kind)
    out_spec = ep.call_spec.out_spec
    out_kind = _out_kind(out_spec, len(user_outputs))
    scalars = {i: a for i, a in enumerate(args) if not isinstance(a, torch.Tensor)}
    return Captured(gm, params, user_inputs, user_outputs, mutations, out_kind, scalars, type(model).forward,
                    constants=constants)


def environment(captured, model, inputs):
    """Values of the graph's placeholders: parameters and buffers by FQN, then the inputs."""
    env = {}
    state = dict(model.named_parameters(remove_duplicate=False))
    state.update(dict(model.named_buffers(remove_duplicate=False)))
    values = iter(inputs)
    for node in captured.graph_module.graph.nodes:
        if node.op != "placeholder":
            continue
        if node.name in captured.params:
            fqn = captured.params[node.name]
            env[node] = state[fqn] if fqn in state else runtime.attr(model, fqn)
        elif node.name not in captured.constants:
            env[node] = next(values)
    device = next((v.device for v in env.values() if isinstance(v, torch.Tensor)), None)
    for node in captured.graph_module.graph.nodes:
        if node.op == "placeholder" and node.name in captured.constants:
            value = captured.constants[node.name]
            env[node] = value.to(device) if follows_inputs(value, device) else value
    return env


# The emitted module writes a lifted constant out as a literal; a larger one is not a literal a
# person would want to read, and is rare (forward building a table on every call).
MAX_CONSTANT_ELEMENTS = 256


def _is_attribute(model, fqn):
    try:
        return isinstance(runtime.attr(model, fqn), torch.Tensor)
    except AttributeError:
        return False


def _literal_constant(value, name):
    """``value`` (a tensor export lifted out of forward) detached, or CaptureError if it is too
    large to write into the emitted module."""
    value = value.detach()
    if value.is_meta:
        raise CaptureError("forward builds a tensor constant (%s) on the meta device, where it has no value; "
                           "capture with real inputs" % name)
    if value.numel() > MAX_CONSTANT_ELEMENTS:
        raise CaptureError("forward builds a tensor constant of %d elements (%s); the optimizer writes "
                           "constants of at most %d" % (value.numel(), name, MAX_CONSTANT_ELEMENTS))
    return value


def follows_inputs(constant, device):
    """Whether a constant forward built from literals belongs on ``device``, where the inputs
    are: one traced there, and a zero-dim one made on the CPU (``torch.tensor(0.5)``), a scalar
    to ATen's pointwise ops wherever the other operands are but read through a pointer by a
    generated kernel. Any other stays on the device it was traced on."""
    return device is not None and (constant.device == device or constant.dim() == 0)


def _drop_metadata_asserts(gm):
    """Export's checks that a tensor kept the dtype and device it was traced with: they hold
    by construction in the emitted module, and as users of fused values they would make each
    checked value a kernel output."""
    for n in list(gm.graph.nodes):
        if n.op == "call_function" and n.target is aten._assert_tensor_metadata.default:
            gm.graph.erase_node(n)
    gm.recompile()


def _split_value_index_reductions(gm):
    for n in list(gm.graph.nodes):
        if n.op != "call_function" or n.target not in _HALVES:
            continue
        halves = [u.args[1] if u.target is operator.getitem else None for u in n.users]
        if any(h is None or _HALVES[n.target][h] is None for h in halves):
            continue  # the tuple used whole, or a half with no op of its own: ATen computes it
        made = {}
        for user in list(n.users):
            half = user.args[1]
            if half not in made:  # only the halves in use: an unused argmax would be a kernel output
                target, args, kwargs = _HALVES[n.target][half](tuple(n.args), dict(n.kwargs))
                with gm.graph.inserting_after(n):
                    made[half] = gm.graph.call_function(target, args, kwargs)
                made[half].meta.update(n.meta, val=n.meta["val"][half])
            user.replace_all_uses_with(made[half])
            gm.graph.erase_node(user)
        gm.graph.erase_node(n)
    gm.recompile()


def _parts_as_views(gm):
    """Each part taken from a ``split``/``split_with_sizes``/``unbind`` becomes the ``slice`` or
    ``select`` it is: a view the planner reads through, so ops on the parts of a fused result
    (a GLU's or a GRU's chunks of one tensor) join the kernel that computes it, where an op of
    several results stays with ATen and its parts are written between two kernels."""
    # Positions of the graph as traced: the slices made below are never a part's user.
    position = {n: i for i, n in enumerate(gm.graph.nodes)}
    for n in list(gm.graph.nodes):
        if n.op != "call_function" or n.target not in _PARTS or not n.users:
            continue
        if any(u.target is not operator.getitem for u in n.users):
            continue  # the list used whole (a cat of the parts)
        src, dim = n.args[0], n.args[2] if len(n.args) > 2 else n.kwargs.get("dim", 0)
        dim %= src.meta["val"].dim()
        if n.target is aten.unbind.int:
            bounds = [(i, None) for i in range(src.meta["val"].shape[dim])]
        else:
            sizes = n.args[1]
            if isinstance(sizes, int):  # split.Tensor: equal parts, the last may be shorter
                total = src.meta["val"].shape[dim]
                sizes = [min(sizes, total - s) for s in range(0, total, sizes)] if sizes > 0 else []
            starts = [sum(sizes[:i]) for i in range(len(sizes))]
            bounds = [(a, a + b) for a, b in zip(starts, sizes)]
        for user in list(n.users):
            start, end = bounds[user.args[1]]
            target, args = (aten.select.int, (src, dim, start)) if end is None else (aten.slice.Tensor, (src, dim, start, end))
            # Placed where the part is first used: a group that reads one part may then take the
            # whole tensor provisionally, its other parts' users coming later (plan._partition).
            first = min(user.users, key=position.__getitem__, default=user)
            with gm.graph.inserting_before(first):
                part = gm.graph.call_function(target, args)
            part.meta.update(user.meta)
            user.replace_all_uses_with(part)
            gm.graph.erase_node(user)
        gm.graph.erase_node(n)
    gm.recompile()


def _split_convolution_bias(gm):
    """A convolution with a bias becomes the convolution without it, then an add of the bias
    over the channels: ATen's cuDNN path adds the bias in a pass of its own over the output
    (a read and a write of it), which as a pointwise op joins the kernel that reads the output
    next. Marked ``kw_bias_split`` for the planner's explanation."""
    for n in list(gm.graph.nodes):
        if n.op != "call_function" or n.target is not torch.ops.aten.convolution.default:
            continue
        bias, weight, out = n.args[2], n.args[1].meta.get("val"), n.meta.get("val")
        # Batched only (the weight's rank): channels are dim 1 there.
        if bias is None or not isinstance(out, torch.Tensor) or out.dim() != weight.dim():
            continue
        view_shape = [out.shape[1]] + [1] * (out.dim() - 2)
        with gm.graph.inserting_after(n):
            view = gm.graph.call_function(torch.ops.aten.view.default, (bias, view_shape))
        with gm.graph.inserting_after(view):
            added = gm.graph.call_function(torch.ops.aten.add.Tensor, (n, view))
        n.replace_all_uses_with(added, delete_user_cb=lambda user: user is not added)
        view.meta.update(n.meta, val=bias.meta["val"].view(view_shape))
        added.meta.update(n.meta, val=torch.ops.aten.add.Tensor(out, view.meta["val"]))
        n.args = n.args[:2] + (None,) + n.args[3:]
        n.meta["kw_bias_split"] = True
    gm.recompile()


def _out_kind(spec, count):
    if spec is None:
        return "single"
    if spec.is_leaf() if hasattr(spec, "is_leaf") else spec.num_children == 0:
        return "single"
    kind = getattr(spec, "type", None)
    children = [spec.child(i) for i in range(spec.num_children)] if hasattr(spec, "child") else spec.children_specs
    nested = any(not (c.is_leaf() if hasattr(c, "is_leaf") else c.num_children == 0) for c in children)
    if nested:
        raise CaptureError("forward returns a nested structure; only a tensor, a tuple or a list of tensors is supported")
    if kind is list:
        return "list"
    if kind is tuple:
        return "tuple"
    raise CaptureError("forward returns a %s; only a tensor, a tuple or a list of tensors is supported" % kind)


def _first_line(error):
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


def _where(error):
    """The user's source line that the failing op came from, where the traceback has it."""
    frames = traceback.extract_tb(error.__traceback__)
    user = [f for f in frames if "site-packages" not in f.filename and "/torch/" not in f.filename
            and "kernelwright" not in f.filename]
    if user:
        f = user[-1]
        return "%s:%d: %s" % (f.filename, f.lineno, (f.line or "").strip())
    return None
