"""The optimizer's small IR: a fused group of graph nodes and the kernel made from it.

A ``Group`` is a set of FX nodes that become one kernel. A ``KernelSpec`` is that kernel:
its domain (every element of one shape, or rows x columns of a reduction), the tensors it
reads and writes with their exact shapes and strides, its CUDA source and its CPU rendering.
Shapes are specialised: the generated code holds them as constants, and the emitted module
checks them before each launch.
"""

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import torch


class Unsupported(Exception):
    """A group cannot become one kernel; the message says why (it goes into the report)."""


class OutputShape(Unsupported):
    """The group would have to write ``node``, an output no template of it can write."""

    def __init__(self, message, node):
        super().__init__(message)
        self.node = node


@dataclass
class TensorArg:
    name: str  # the FX node's name, which is also the variable in the emitted forward
    shape: Tuple[int, ...]
    stride: Tuple[int, ...]
    dtype: torch.dtype

    @property
    def numel(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    @property
    def nbytes(self):
        return self.numel * torch.empty((), dtype=self.dtype).element_size()

    @property
    def span(self):
        """Elements from the first to the last one addressed, plus one."""
        if self.numel == 0:
            return 0
        return 1 + sum((s - 1) * st for s, st in zip(self.shape, self.stride))


@dataclass
class Group:
    id: int
    nodes: list  # FX nodes, in graph order
    inputs: list = field(default_factory=list)  # FX nodes read from outside
    outputs: list = field(default_factory=list)  # FX nodes used outside

    @property
    def name(self):
        return "kw_fused_%d" % self.id

    def ops(self):
        from .opset import op_name

        return [op_name(n.target) for n in self.nodes]


@dataclass
class Launch:
    grid: Tuple[int, int, int]
    block: Tuple[int, int, int]
    defines: Tuple[Tuple[str, int], ...]  # compile-time constants this variant sets
    # Bytes of zeroed scratch the kernel takes as its last parameter (``unsigned char* kw_ws``),
    # where blocks that share a row leave partial results and count arrivals at a barrier.
    workspace: int = 0
    # Blocks wait for each other at that barrier, so all of them must be resident at once:
    # launched cooperatively, which fails instead of hanging where they cannot be.
    cooperative: bool = False
    # Bytes of dynamic shared memory a block takes (the cluster-rows template's part of a row).
    shared: int = 0
    template: str = ""  # another template of the same group (KernelSpec.other_bodies); "": the spec's own

    def describe(self):
        what = ", ".join("%s=%d" % d for d in self.defines)
        return "%s, %s" % (self.template, what) if self.template else what


@dataclass
class KernelSpec:
    name: str
    template: str  # "pointwise" or "rows"
    inputs: List[TensorArg]
    outputs: List[TensorArg]
    cuda_body: str  # the kernel without its variant's #defines
    torch_source: str  # a Python function computing the same from the same index arithmetic
    variants: List[Launch]
    ops: List[str]
    rows: int = 0
    cols: int = 0
    flops: int = 0
    chosen: Optional[Launch] = None
    other_bodies: Dict[str, str] = field(default_factory=dict)  # template -> kernel, for variants of it

    def cuda_source(self, launch=None):
        """The kernel as the emitted module holds it: the variant's constants and the body
        (``runtime.Kernel`` puts the shared helpers, ``cuda_math.CUDA_PRELUDE``, in front)."""
        launch = launch or self.chosen or self.variants[0]
        defines = "".join("#define %s %d\n" % d for d in launch.defines)
        return defines + (self.other_bodies[launch.template] if launch.template else self.cuda_body)

    @property
    def bytes_moved(self):
        """The fewest bytes the kernel must move: each input read once, each output written once."""
        return sum(t.nbytes for t in self.inputs) + sum(t.nbytes for t in self.outputs)
