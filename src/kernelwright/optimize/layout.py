"""Memory layout as a measured choice: a model with convolutions is also captured with its
4-D and 5-D tensors in channels_last order (cuDNN's faster layout on recent GPUs, which the
fused kernels then read in place), and the faster whole forward is kept. The emitted forward
converts parameters and inputs itself, so ModelNew still takes Model's tensors as they are.
"""

import copy

import torch

from . import opset

_FORMATS = {4: (torch.channels_last, "torch.channels_last"), 5: (torch.channels_last_3d, "torch.channels_last_3d")}


def has_convolution(captured):
    return any(opset.op_name(n.target) == "convolution" for n in captured.graph_module.graph.nodes
               if n.op == "call_function")


def channels_last(model, inputs):
    """(a copy of model, inputs) with every 4-D/5-D tensor in channels_last order, and
    {parameter/buffer FQN or input index: the memory format's name} of what was converted."""
    converted = {}
    model = copy.deepcopy(model)
    with torch.no_grad():
        for fqn, t in list(model.named_parameters()) + list(model.named_buffers()):
            if t.dim() in _FORMATS:
                fmt, name = _FORMATS[t.dim()]
                t.data = t.data.contiguous(memory_format=fmt)
                converted[fqn] = name
    new_inputs = []
    for i, x in enumerate(inputs):
        if isinstance(x, torch.Tensor) and x.dim() in _FORMATS:
            fmt, name = _FORMATS[x.dim()]
            x = x.contiguous(memory_format=fmt)
            converted[i] = name
        new_inputs.append(x)
    return model, new_inputs, converted


def placeholder_formats(captured, converted):
    """{placeholder name: memory format name} for the captured graph's converted tensors."""
    by_fqn = {fqn: name for name, fqn in captured.params.items()}
    formats = {by_fqn[k]: v for k, v in converted.items() if isinstance(k, str) and k in by_fqn}
    tensor_inputs = [name for name in captured.user_inputs]
    for k, v in converted.items():
        if isinstance(k, int) and k < len(tensor_inputs):
            formats[tensor_inputs[k]] = v
    return formats
