"""Run a plan in this process: ATen calls as they are, each group through a callable made
from its spec. With ``torch_kernels`` (the CPU rendering of every generated kernel) this
checks the planner and the code generator's index arithmetic and math without a GPU.
"""

import torch

from . import dialects
from .ir import Group


def torch_kernel(spec):
    """The spec's CPU rendering as a function of its input tensors."""
    namespace = dict(dialects.TORCH_HELPERS, torch=torch)
    exec(compile(spec.torch_source, "<%s>" % spec.name, "exec"), namespace)
    return namespace[spec.name]


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
            env[node] = state[fqn] if fqn in state else _constant(captured.graph_module, fqn)
        else:
            env[node] = next(values)
    return env


def _constant(gm, fqn):
    obj = gm
    for part in fqn.split("."):
        obj = getattr(obj, part)
    return obj


def run(plan, model, inputs, kernels, env=None):
    """The user outputs, computing each group with ``kernels[group.id]`` (tensors in, tuple out).
    ``env``, if given, is filled with every node's value."""
    captured = plan.captured
    env = {} if env is None else env
    env.update(environment(captured, model, inputs))

    def value(a):
        if isinstance(a, torch.fx.Node):
            return env[a]
        if isinstance(a, (list, tuple)):
            return type(a)(value(x) for x in a)
        return a

    for unit in plan.units:
        if isinstance(unit, Group):
            spec = plan.specs[unit.id]
            by_name = {n.name: n for n in unit.inputs}
            outs = kernels[unit.id](*[env[by_name[t.name]] for t in spec.inputs])
            for node, out in zip(unit.outputs, outs):
                env[node] = out
        else:
            args = value(unit.args)
            kwargs = {k: value(v) for k, v in unit.kwargs.items()}
            env[unit] = unit.target(*args, **kwargs)
    return [value(o) for o in captured.user_outputs]
