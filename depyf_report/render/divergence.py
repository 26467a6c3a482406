"""What the ranks of a distributed run compiled differently.

Each rank's records are read into the facts a user compares (per function: its
compiles and recompiles, graph breaks, the guards of each cache entry, each stage
of each graph), and ranks are grouped by equal facts. Facts are compared as torch
wrote them, less what differs between any two processes: object and type ids in
guards, and the uuid in a graph's name.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import PurePath

from ..dump import CompiledGraph, Function
from .build_graph import stage_label, stage_order
from .context import ProcessContext, break_summary
from .names import short_name
from .ranks import GraphKey, Rank, rank_list

# An object's or a type's address: a different number in every process.
_ADDRESS = re.compile(r"(___check_(?:obj|type)_id\(.+?, )\d+\)|\b0x[0-9a-f]{6,}\b")
_UUID = re.compile(r"_[0-9a-f]{8}_[0-9a-f]{4}_[0-9a-f]{4}_[0-9a-f]{4}_[0-9a-f]{12}\b")


@dataclass(frozen=True)
class Side:
    """Ranks that agree on one thing, and what they have."""

    ranks: tuple[str, ...]  # rank labels
    text: str  # "" when they lack the thing
    present: bool = True
    hrefs: tuple[tuple[str, str | None], ...] = ()  # (rank label, its page of the thing)


@dataclass(frozen=True)
class Difference:
    """One thing the ranks do not agree on.

    ``sides`` hold whole texts, the side with the most ranks first, to diff
    against it; ``items`` are parts of a set (guards, breaks) that only some of
    the ranks have, with those ranks.
    """

    topic: str  # "graph breaks", "guards of cache entry 0", "__compiled_fn_1: Dynamo graph"
    sides: tuple[Side, ...] = ()
    items: tuple[tuple[str, tuple[str, ...]], ...] = ()
    among: tuple[str, ...] = ()  # for items: the ranks compared
    presence: bool = False  # the sides differ only in having the thing or not


@dataclass(frozen=True)
class Counts:
    compiles: int
    recompiles: int
    graph_breaks: int


@dataclass(frozen=True)
class FunctionDivergence:
    function_id: str
    title: str
    counts: tuple[Counts | None, ...]  # one per rank, None: not compiled there
    agree: tuple[tuple[str, ...], ...]  # ranks grouped by equal facts, most first
    differences: tuple[Difference, ...]
    hrefs: tuple[tuple[str, str | None], ...]  # (rank label, the function's page there)


@dataclass(frozen=True)
class Divergence:
    ranks: tuple[str, ...]
    agree: tuple[tuple[str, ...], ...]  # ranks grouped by equal facts of every function
    functions: tuple[FunctionDivergence, ...]  # every function; those that differ have differences

    @property
    def diverged(self) -> bool:
        return len(self.agree) > 1

    def differing(self) -> tuple[FunctionDivergence, ...]:
        return tuple(f for f in self.functions if f.differences)


@dataclass(frozen=True)
class _Graph:
    name: str  # as pages show it
    href: str | None
    stages: tuple[tuple[str, str], ...]  # (kind, text), in pipeline order


@dataclass(frozen=True)
class _Facts:
    """What one rank compiled of one function, as compared."""

    compiles: tuple[str, ...]  # one line per compile: status, and why it recompiled
    recompiles: int
    breaks: tuple[str, ...]  # "type at file:line", sorted
    guards: tuple[tuple[str, ...], ...]  # per cache entry, sorted
    graphs: tuple[tuple[GraphKey, _Graph], ...]

    def compared(self) -> tuple:
        """Everything but links, which differ by rank."""
        # Not the names: Dynamo numbers graphs per process, so a break in an
        # earlier function renumbers every later graph of that rank.
        graphs = tuple((key, g.stages) for key, g in self.graphs)
        return (self.compiles, self.breaks, self.guards, graphs)


def summary_line(found: Divergence) -> str:
    """One line: whether the ranks diverged, and which agree."""
    if not found.diverged:
        return (
            f"All {len(found.ranks)} ranks compiled the same: the same graphs, guards, "
            "graph breaks and recompiles."
        )
    count = len(found.differing())
    where = f"Ranks diverged in {count} function{'s' if count != 1 else ''}: "
    if all(len(group) == 1 for group in found.agree):
        return where + f"no two ranks agree ({rank_list(found.ranks)})."
    first, *others = found.agree
    parts = [f"{rank_list(first)} agree" if len(first) > 1 else f"{rank_list(first)} differs"]
    parts += [
        f"{rank_list(group)} differ alike" if len(group) > 1 else f"{rank_list(group)} differs"
        for group in others
    ]
    return where + "; ".join(parts) + "."


def compared_stages(graph: CompiledGraph) -> tuple[tuple[str, str], ...]:
    """A graph's stages as ranks compare them: (kind, text) in pipeline order."""
    stages = sorted(graph.stages, key=lambda s: stage_order(s.kind))
    return tuple((s.kind, _UUID.sub("", s.text)) for s in stages)


def divergence(ranks: list[Rank]) -> Divergence:
    labels = tuple(r.label for r in ranks)
    facts = [_rank_facts(r) for r in ranks]
    functions = []
    for function_id, title in _function_order(ranks):
        per_rank = [f.get(function_id) for f in facts]
        functions.append(_function_divergence(ranks, function_id, title, per_rank))
    signatures = [
        tuple((fid, f[fid].compared()) for fid in sorted(f)) for f in facts
    ]  # everything a rank compiled
    return Divergence(labels, _groups(labels, signatures), tuple(functions))


def _function_order(ranks: list[Rank]) -> list[tuple[str, str]]:
    """Every function of any rank, in the first rank's order, then the others'."""
    seen: dict[str, str] = {}
    for rank in ranks:
        for fn in rank.ctx.listed():
            seen.setdefault(fn.id, rank.ctx.title(fn))
        for function_id in _unrecorded(rank.ctx):
            seen.setdefault(function_id, function_id)
    return list(seen.items())


def _unrecorded(ctx: ProcessContext) -> list[str]:
    """Functions that compiles name but that have no record of their own (a dump
    read from a trace log holds no code objects): compared by their compiles."""
    return sorted(f for f in ctx.compiles_of if f not in ctx.dump.functions)


def _rank_facts(rank: Rank) -> dict[str, _Facts]:
    ctx = rank.ctx
    keys = rank.graph_keys()
    graphs_of: dict[str, list[tuple[GraphKey, _Graph]]] = defaultdict(list)
    for graph_id, key in sorted(keys.items(), key=lambda item: item[1]):
        graph = ctx.dump.graphs[graph_id]
        shown = compared_stages(graph)
        graphs_of[key[0]].append(
            (key, _Graph(short_name(graph.name), ctx.graph_href(graph_id), shown))
        )
    functions = [(fn.id, fn) for fn in ctx.listed()] + [(f, None) for f in _unrecorded(ctx)]
    return {
        function_id: _function_facts(ctx, function_id, fn, tuple(graphs_of.get(function_id, ())))
        for function_id, fn in functions
    }


def _function_facts(ctx: ProcessContext, function_id: str, fn: Function | None, graphs) -> _Facts:
    compiles = ctx.compiles_of.get(function_id, [])
    lines, breaks = [], []
    for index, record in enumerate(compiles):
        line = f"compile {index}: {record.status}"
        if record.guard_failures or record.recompile_reasons:
            line += ", recompiled: " + _unaddressed(_failed_guard(record))
        lines.append(line)
        for brk in ctx.graph_breaks(record):
            where = f"{PurePath(brk.filename).name}:{brk.line}" if brk.filename else "unknown line"
            breaks.append(f"{_unaddressed(break_summary(brk.reason, brk.gb_type))} at {where}")
    guards = tuple(
        tuple(
            sorted(
                {_unaddressed(g.expression) for g in entry.guards.guards}
                | set(entry.guards.shape_guards)
            )
        )
        for entry in (fn.entries if fn else [])
    )
    recompiles = sum(1 for c in compiles if c.recompile_reasons)
    return _Facts(tuple(lines), recompiles, tuple(sorted(breaks)), guards, graphs)


def _failed_guard(record) -> str:
    guards = [" ".join(f.guard.split()) for f in record.guard_failures if f.guard]
    if guards:
        return "; ".join(guards)
    first = record.recompile_reasons[0].strip().splitlines() if record.recompile_reasons else []
    return first[0] if first else "unknown reason"


def _unaddressed(text: str) -> str:
    """``text`` with the object and type ids in it written as ``<id>``."""
    return _ADDRESS.sub(_no_address, text)


def _no_address(match: re.Match) -> str:
    return f"{match[1]}<id>)" if match[1] else "0x<address>"


def _groups(labels: tuple[str, ...], values: list) -> tuple[tuple[str, ...], ...]:
    """Ranks grouped by equal value, the biggest group first (then by first rank)."""
    by_value: dict = {}
    for label, value in zip(labels, values):
        by_value.setdefault(value, []).append(label)
    return tuple(tuple(g) for g in sorted(by_value.values(), key=lambda g: -len(g)))


def _function_divergence(ranks, function_id, title, per_rank) -> FunctionDivergence:
    labels = tuple(r.label for r in ranks)
    hrefs = tuple((r.label, r.ctx.function_href(function_id)) for r in ranks)
    counts = tuple(
        Counts(len(f.compiles), f.recompiles, len(f.breaks)) if f else None for f in per_rank
    )
    agree = _groups(labels, [f.compared() if f else None for f in per_rank])
    differences: list[Difference] = []
    if len(agree) > 1:
        differences = _differences(labels, per_rank, hrefs)
    return FunctionDivergence(function_id, title, counts, agree, tuple(differences), hrefs)


def _differences(labels, per_rank: list[_Facts | None], hrefs) -> list[Difference]:
    found = []
    present = [f is not None for f in per_rank]
    if not all(present):
        compiled = ["compiled" if p else "" for p in present]
        found.append(_text_difference("compiled on some ranks only", labels, compiled, hrefs, True))
    have = [(label, f) for label, f in zip(labels, per_rank) if f is not None]
    found.append(
        _text_difference(
            "compiles and recompiles",
            [label for label, _ in have],
            ["\n".join(f.compiles) for _, f in have],
            hrefs,
        )
    )
    found.append(_items_difference("graph breaks", [(label, f.breaks) for label, f in have]))
    entries = max((len(f.guards) for _, f in have), default=0)
    for index in range(entries):
        held = [(label, f.guards[index]) for label, f in have if index < len(f.guards)]
        found.append(_items_difference(f"guards of cache entry {index}", held))
    found += _graph_differences(have)
    return [d for d in found if d is not None]


def _graph_differences(have: list[tuple[str, _Facts]]) -> list[Difference | None]:
    keys = sorted({key for _, f in have for key, _ in f.graphs})
    found = []
    for key in keys:
        graphs = [(label, dict(f.graphs).get(key)) for label, f in have]
        what = _graph_title(key, graphs)
        hrefs = tuple((label, g.href if g else None) for label, g in graphs)
        present = [g is not None for _, g in graphs]
        if not all(present):
            texts = ["made" if g else "" for _, g in graphs]
            graph_ranks = [label for label, _ in graphs]
            found.append(
                _text_difference(
                    f"{what}: made on some ranks only", graph_ranks, texts, hrefs, True
                )
            )
        kinds = sorted({k for _, g in graphs if g for k, _ in g.stages}, key=stage_order)
        for kind in kinds:
            held = [(label, dict(g.stages).get(kind, "")) for label, g in graphs if g]
            found.append(
                _text_difference(
                    f"{what}: {stage_label(kind)}",
                    [label for label, _ in held],
                    [text for _, text in held],
                    hrefs,
                )
            )
    return found


def _graph_title(key: GraphKey, graphs: list[tuple[str, _Graph | None]]) -> str:
    """ "graph __compiled_fn_1 (compile 0, graph 0)", named as the first rank that
    made it names it; Dynamo numbers graphs per process."""
    first = next(g for _, g in graphs if g)
    where = f"compile {key[1]}, graph {key[2]}"
    renamed = [other for other, g in graphs if g and g.name != first.name]
    if renamed:
        where += f"; {rank_list(renamed)} name{'s' if len(renamed) == 1 else ''} it differently"
    return f"graph {first.name} ({where})"


def _text_difference(topic, labels, texts, hrefs=(), presence=False) -> Difference | None:
    """Ranks grouped by their whole text; None when they all agree."""
    groups = _groups(tuple(labels), texts)
    if len(groups) < 2:
        return None
    text_of = dict(zip(labels, texts))
    sides = tuple(
        Side(
            group,
            text_of[group[0]],
            bool(text_of[group[0]]),
            tuple(h for h in hrefs if h[0] in group),
        )
        for group in groups
    )
    return Difference(topic, sides=sides, presence=presence)


def _items_difference(topic, held: list[tuple[str, tuple[str, ...]]]) -> Difference | None:
    """The items only some ranks have (counted: a break twice is not a break once)."""
    counted = [(label, Counter(items)) for label, items in held]
    every = sorted({(item, n) for _, c in counted for item, n in c.items()})
    items = []
    for item, n in every:
        ranks = tuple(label for label, c in counted if c.get(item) == n)
        if len(ranks) < len(counted):
            items.append((item if n == 1 else f"{item} ({n} times)", ranks))
    if not items:
        return None
    return Difference(topic, items=tuple(items), among=tuple(label for label, _ in held))
