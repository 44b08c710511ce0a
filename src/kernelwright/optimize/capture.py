"""Capture: a module and example inputs in, an ATen graph out (``torch.export``, non-strict,
core ATen decompositions plus those that turn norms and softmax into reductions and
pointwise ops the code generator can fuse).
"""

import traceback
from dataclasses import dataclass, field
from typing import Dict, List

import torch
from torch._decomp import core_aten_decompositions, get_decompositions

from . import faithful, picks, rewrites, runtime

aten = torch.ops.aten

# Composite ops that core ATen keeps whole but that are only reductions and pointwise math:
# decomposed, they fuse with what surrounds them.
_FUSIBLE_DECOMPOSITIONS = [
    aten._softmax, aten._log_softmax, aten.native_layer_norm, aten.native_group_norm,
    aten._native_batch_norm_legit_functional, aten._native_batch_norm_legit_no_training,
    aten._native_batch_norm_legit, aten.var_mean.correction, aten.std.correction,
    aten.logsumexp, aten.mse_loss, aten.l1_loss, aten.smooth_l1_loss, aten.huber_loss,
    aten.rms_norm, aten.linalg_vector_norm, aten.dist, aten.diagonal,
]

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
    rewrites.rewrite(gm)
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
