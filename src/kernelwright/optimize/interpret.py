"""Run a plan in this process: ATen calls as they are, each group through a callable made
from its spec. With ``torch_kernels`` (the CPU rendering of every generated kernel) this
checks the planner and the code generator's index arithmetic and math without a GPU.
"""

import torch

from . import capture, dialects, opset, runtime
from .ir import Group


def traced_stride_for_views(node):
    """The traced strides of an ATen result that a view reads (a view was traced on them, and
    ATen may lay the result out otherwise at run time), else None."""
    val = node.meta.get("val")
    if opset.kind(node) == opset.VIEW or not isinstance(val, torch.Tensor) \
            or not any(opset.kind(u) == opset.VIEW for u in node.users):
        return None
    return tuple(val.stride())


def torch_kernel(spec):
    """The spec's CPU rendering as a function of its input tensors."""
    namespace = dict(dialects.TORCH_HELPERS, torch=torch)
    exec(compile(spec.torch_source, "<%s>" % spec.name, "exec"), namespace)
    return namespace[spec.name]


def run(plan, model, inputs, kernels, on_group=None, on_call=None):
    """The user outputs, computing each group with ``kernels[group.id]`` (tensors in, tuple out).
    ``on_group(group, args)`` is called before each group runs, ``on_call(node, args, kwargs)``
    before each ATen call. A value is dropped after its last use, so that a model of large
    activations fits as it does in eager mode."""
    captured = plan.captured
    env = capture.environment(captured, model, inputs)
    last_use = _last_uses(plan)

    def value(a):
        if isinstance(a, torch.fx.Node):
            return env[a]
        if isinstance(a, (list, tuple)):
            return type(a)(value(x) for x in a)
        return a

    for step, unit in enumerate(plan.units):
        if isinstance(unit, Group):
            spec = plan.specs[unit.id]
            by_name = {n.name: n for n in unit.inputs}
            args = [env[by_name[t.name]] for t in spec.inputs]
            if on_group is not None:
                on_group(unit, args)
            outs = kernels[unit.id](*args)
            del args
            for node, out in zip(unit.outputs, outs):
                env[node] = out
        else:
            args = value(unit.args)
            kwargs = {k: value(v) for k, v in unit.kwargs.items()}
            if on_call is not None:
                on_call(unit, args, kwargs)
            env[unit] = unit.target(*args, **kwargs)
            stride = traced_stride_for_views(unit)
            if stride is not None:
                env[unit] = runtime.strided(env[unit], stride)
            del args, kwargs
        for node in [n for n, last in last_use.items() if last == step and n in env]:
            del env[node]
    return [value(o) for o in captured.user_outputs]


def _last_uses(plan):
    """node -> index of the last unit that reads it (graph outputs are never dropped)."""
    last = {}
    for step, unit in enumerate(plan.units):
        reads = unit.inputs if isinstance(unit, Group) else unit.all_input_nodes
        for a in reads:
            last[a] = step
    keep = {o for o in plan.captured.user_outputs if isinstance(o, torch.fx.Node)}
    keep |= {n for n in plan.captured.graph_module.graph.nodes if n.name in plan.captured.mutations}
    return {n: s for n, s in last.items() if n not in keep}
