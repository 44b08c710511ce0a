"""Partition a captured graph into generated kernels and ATen calls, and say why.

Greedy producer-consumer fusion in graph order: each pointwise op, reduction, view or
constant joins the group of its producers when the result is still one kernel (the code
generator builds it) and the groups and ATen calls can still run in some order (no group
waits on its own output, through an ATen call or another group); an op that joins no
producer may join a sibling, a group that reads the same tensor. A join may be provisional
(``_partition``), and the plan is made again without it where it came to nothing. Everything
else (GEMMs, convolutions, pooling, indexing ...) stays an ATen call, and so does a view of
such a result, which costs nothing there.
"""

import operator
from dataclasses import dataclass, field
from typing import Dict, List

import torch

from . import codegen, opset
from .ir import Group, KernelSpec, OutputShape, Unsupported

_FUSIBLE = (opset.POINTWISE, opset.REDUCTION, opset.WINDOW, opset.SCAN, opset.VIEW, opset.CONSTANT)
_WORK = (opset.POINTWISE, opset.REDUCTION, opset.WINDOW, opset.SCAN)
# A round's partition is saved every this many ops, and the next round, whose one new forbidden
# join changes nothing before its op, starts from the save before that op.
_SAVE_EVERY = 32


@dataclass
class Plan:
    captured: object
    groups: List[Group]
    specs: Dict[int, KernelSpec]
    units: list  # execution order: FX nodes (ATen calls) and Groups
    decisions: List[str] = field(default_factory=list)


def plan(captured):
    gm = captured.graph_module
    nodes = [n for n in gm.graph.nodes if n.op == "call_function"]
    users = {n: set(n.users) for n in gm.graph.nodes}
    forbidden = set()
    # Each round below partitions the graph anew with one more provisional join forbidden, and
    # tries the same candidate groups as the round before up to that join: each candidate's
    # build is kept (a six-step stencil, corpus 644, took 55 rounds of 400 builds each), and so
    # is the partition before the join (an unrolled ODE solver, corpus 661: 152 rounds).
    tried, saved, start = {}, {}, 0
    index = {n: i for i, n in enumerate(nodes)}
    while True:
        members, decisions, provisional = _partition(nodes, users, forbidden, tried, saved, start)
        groups, specs, failed = [], {}, None
        for gid, node_list in members.items():
            ordered = [m for m in nodes if m in set(node_list)]
            if not any(opset.kind(m) in _WORK for m in ordered):
                # Copies and constants no kernel computes with: ATen's own op does the same work.
                decisions += ["%s (%s): ATen (%s)" % (m.name, _target(m), "a pick (gather or indexing), " + _MOVED
                                                      if m.meta.get("kw_pick_moved") else "no generated kernel reads it")
                              for m in ordered if opset.copies(m) or opset.kind(m) == opset.CONSTANT]
                continue
            group = _group(len(groups), ordered, users)
            try:
                spec = codegen.build(group)
                if not spec.inputs:  # its launch would have no tensor to say where the model runs
                    raise Unsupported("it reads no tensor (values from aranges alone): ATen makes them on the "
                                      "model's device")
            except Unsupported as why:
                pending = [m for m in ordered if m in provisional]
                if pending:  # a join taken on the promise of later ops that never came
                    failed = pending[0]
                    break
                decisions.append("group of %s: ATen (%s)" % (", ".join(m.name for m in ordered), why))
                continue
            groups.append(group)
            specs[group.id] = spec
            decisions.append("%s: %s kernel fusing %d ops (%s)" % (
                group.name, spec.template, len(group.nodes), ", ".join(_short(group.ops()))))
            decisions += ["%s (%s): read inside %s, %s" % (m.name, _target(m), group.name, _MOVED)
                          for m in ordered if m.meta.get("kw_pick_moved")]
        if failed is None:
            break
        forbidden.add(failed)
        start = index[failed] // _SAVE_EVERY * _SAVE_EVERY
    units = _schedule(gm, groups)
    return Plan(captured, groups, specs, units, list(captured.notes) + decisions)


def _partition(nodes, users, forbidden, tried, saved, start=0):
    """({group id: nodes}, decisions, provisional): greedy fusion in graph order. A join that
    leaves a group with an output no template writes (GroupNorm's per-channel coefficients, of
    neither the row's shape nor one value a row) is taken provisionally where that output's
    users all come later and could join too; ``plan`` undoes it (``forbidden``) if they did not.
    ``tried``: {candidate group's nodes: why the code generator refused it, or None}, filled here.
    ``saved``: {op index: the partition before it}, filled here every _SAVE_EVERY ops; the pass
    starts from ``saved[start]`` (members' lists are replaced, never changed, so a shallow copy
    keeps them); it also keeps groups' input bases (``_input_bases``)."""
    if start:
        decisions, group_of, members, provisional, first_id = saved[start]
        decisions, group_of, members, provisional = list(decisions), dict(group_of), dict(members), set(provisional)
    else:
        decisions, group_of, members, provisional, first_id = [], {}, {}, set(), 0
    next_id = [first_id]
    position = {n: i for i, n in enumerate(nodes)}

    def attempt(n, node_list, replacing=()):
        """Builds the group ``node_list`` would be in place of the groups ``replacing``."""
        if _closes_a_cycle(node_list, members, group_of, users, position, position[n]):
            raise Unsupported("it would wait on its own output, through an ATen call or another kernel")
        key = tuple(node_list)
        if key not in tried:
            try:
                codegen.build(_group(-1, node_list, users))
                tried[key] = None
            except Unsupported as why:
                tried[key] = why
        why = tried[key]
        if isinstance(why, OutputShape) and n not in forbidden and _later_fusible_users(
                why.node, users, position, position[n], set(node_list)):
            provisional.add(n)
        elif why is not None:
            raise why.with_traceback(None)

    def producer(a):
        """The group that computes ``a``, looking through views left to ATen (free there, but a
        reduction fused with what precedes it must read through them), and those views."""
        views = []
        while a not in group_of and opset.kind(a) == opset.VIEW and not opset.copies(a) and a.all_input_nodes:
            views.append(a)
            a = a.all_input_nodes[0]
        return group_of.get(a), views

    for i in range(start, len(nodes)):
        n = nodes[i]
        if i % _SAVE_EVERY == 0:
            saved[i] = (tuple(decisions), dict(group_of), dict(members), frozenset(provisional), next_id[0])
        k = opset.kind(n)
        if k not in _FUSIBLE:
            decisions.append("%s (%s): ATen (%s)" % (n.name, _target(n), _why_aten(n)))
            continue
        producers, through = [], {}
        for a in n.all_input_nodes:
            g, views = producer(a)
            if g is not None:
                if g not in producers:
                    producers.append(g)
                through.setdefault(g, []).extend(v for v in views if v not in through.get(g, []))
        if k == opset.VIEW and not producers and not opset.copies(n):
            continue  # a view of an ATen result or an input: free in ATen, read with its strides
        options = ([producers] if len(producers) > 1 else []) + [[g] for g in sorted(
            producers, key=lambda g: -len(members[g]))]
        reasons, joined = [], False
        for option in options:
            node_list = [m for g in option for m in members[g] + through.get(g, [])[::-1]] + [n]
            try:
                attempt(n, node_list, option)
            except Unsupported as why:
                reasons.append(str(why))
                continue
            gid = option[0]
            for g in option[1:]:
                members.pop(g)
            members[gid] = node_list
            for m in node_list:
                group_of[m] = gid
            joined = True
            break
        if not joined and k in (opset.POINTWISE, opset.REDUCTION):
            # A sibling: a kernel reading what this op reads (var and mean of one tensor): one
            # kernel reads it once for both.
            mine = _bases(n.all_input_nodes)
            for g in sorted((g for g in members if g not in producers), key=lambda g: -len(members[g])):
                shared = mine & _input_bases(members[g], users, saved)
                if not shared:
                    continue
                node_list = members[g] + [n]
                try:
                    attempt(n, node_list, (g,))
                except Unsupported:
                    continue
                members[g] = node_list
                group_of[n] = g
                decisions.append("%s (%s): joins the kernel of %s, which reads the same %s" % (
                    n.name, _target(n), members[g][0].name, ", ".join(sorted(b.name for b in shared))))
                joined = True
                break
        if joined:
            continue
        # A view or a constant joins its users' kernels as they form, or is read from ATen's
        # result; an arange (values by coordinate, as a mask's) starts a group its users then
        # join, and stays with ATen where none does (plan() keeps only groups that compute).
        if k == opset.VIEW and not opset.copies(n) or k == opset.CONSTANT and opset.op_name(n.target) != "arange":
            continue
        try:
            attempt(n, [n])
        except Unsupported as why:
            decisions.append("%s (%s): ATen (%s)" % (n.name, _target(n), why))
            continue
        if reasons:
            decisions.append("%s (%s): starts a new kernel (%s)" % (n.name, _target(n), reasons[0]))
        gid = next_id[0]
        next_id[0] += 1
        members[gid] = [n]
        group_of[n] = gid
    return members, decisions, provisional


def _later_fusible_users(node, users, position, now, inside):
    """Whether every user of ``node`` outside the group ``inside`` is a fusible op not yet
    visited (it could still join)."""
    outside = users[node] - inside
    return bool(outside) and all(
        u in position and position[u] > now and opset.kind(u) in _FUSIBLE for u in outside)


def _group(gid, node_list, users):
    inside = set(node_list)
    inputs, outputs = [], []
    for m in node_list:
        for a in m.all_input_nodes:
            if a not in inside and a not in inputs:
                inputs.append(a)
        if any(u not in inside for u in users[m]):
            outputs.append(m)
    return Group(gid, list(node_list), inputs, outputs)


def _input_bases(node_list, users, saved):
    """_bases of the inputs of the group of ``node_list``, kept in ``saved`` by the list's
    identity: a group's list is replaced when it grows, never changed."""
    key = ("bases", id(node_list))
    if key not in saved or saved[key][0] is not node_list:
        saved[key] = (node_list, _bases(_group(-1, node_list, users).inputs))
    return saved[key][1]


def _bases(nodes):
    """The tensors ``nodes`` are views of (looking through views that are not copies)."""
    found = set()
    for n in nodes:
        while opset.kind(n) == opset.VIEW and not opset.copies(n) and n.all_input_nodes:
            n = n.all_input_nodes[0]
        found.add(n)
    return found


def _closes_a_cycle(node_list, members, group_of, users, position, now):
    """Whether ``node_list`` run as one kernel (in place of the groups its nodes are in) would
    wait on its own output, through an ATen call or through another group that waits on it.
    The groups as they stand can run in some order (each join was checked so), so only a path
    leaving the new group and coming back to it closes a cycle: followed from the new group's
    users, a node of a group standing for all of that group's nodes (the group runs as one).
    Groups hold only nodes visited so far (graph order, up to position ``now``), so a path
    through a later node only goes on to later ones, never back: it is not followed (corpus
    661, an unrolled ODE solver of 1,900 nodes: planning 259 -> s)."""
    inside = set(node_list)
    stack = [u for m in node_list for u in users[m] if u not in inside]
    seen = set()
    while stack:
        n = stack.pop()
        if n in inside:
            return True
        if n in seen or n.op != "call_function" or position.get(n, now + 1) > now:
            continue
        g = group_of.get(n)
        for m in members[g] if g in members else (n,):
            seen.add(m)
            stack.extend(u for u in users[m] if u not in seen)
    return False


def _schedule(gm, groups):
    """Groups and remaining ATen nodes in an order that respects every dependency."""
    owner = {}
    for g in groups:
        for m in g.nodes:
            owner[m] = g
    units, placed, done = [], set(), set()
    pending = [n for n in gm.graph.nodes if n.op == "call_function"]
    while pending:
        progress = False
        rest = []
        for n in pending:
            unit = owner.get(n, n)
            if id(unit) in placed:
                continue
            needs = unit.inputs if isinstance(unit, Group) else n.all_input_nodes
            if all(a.op != "call_function" or a in done for a in needs):
                units.append(unit)
                placed.add(id(unit))
                done.update(unit.nodes if isinstance(unit, Group) else [n])
                progress = True
            else:
                rest.append(n)
        pending = [n for n in rest if id(owner.get(n, n)) not in placed]
        if pending and not progress:
            raise Unsupported("no order satisfies the groups' dependencies")
    return units


def _target(n):
    return str(n.target).replace("aten.", "").replace(".default", "")


_MOVED = ("moved ahead of the pointwise ops it picked from, which now run on the picked values alone: "
          "their whole result is never written")


def _why_aten(n):
    val = n.meta.get("val")
    if val is None:
        return "returns no tensor: a check or an effect"
    if isinstance(val, (list, tuple)):
        return "returns several values"
    if not isinstance(val, torch.Tensor):
        return "returns a number, not a tensor"
    if n.target is operator.getitem:
        return "a value of %s, which runs in ATen" % _target(n.args[0])
    name = opset.op_name(n.target)
    if n.meta.get("kw_bias_split"):
        return "a convolution: a library kernel, without its bias, which the ops after it add"
    if name in ("mm", "addmm", "bmm", "baddbmm", "convolution", "_convolution"):
        return "a GEMM or convolution: a library kernel"
    if name == "scaled_dot_product_attention":
        return "fused attention: a library kernel, which never writes the score matrix"
    return "no generated template for %s" % name


def _short(ops):
    seen = []
    for o in ops:
        if o not in seen:
            seen.append(o)
    return seen
