"""The ranks of a distributed run, and where one rank's page is on another rank.

A dump holds a rank per process that knew its rank (torchrun's ``RANK``, or
``torch.distributed``); a launcher or a worker without one is no rank. Pages of
one rank link to the same function or graph on the others. Functions are the
same when their ids are (ids come from qualified names, the same on every rank);
a graph is the same when it is the same graph of the same compile of the same
function: Dynamo numbers compiles and graphs per process, so ``0/1`` or
``__compiled_fn_3`` of one rank may be another rank's ``1/0`` or ``__compiled_fn_5``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .context import ProcessContext

# (function id, index of the compile among the function's compiles, index of the
# graph among the compile's graphs)
GraphKey = tuple[str, int, int]


@dataclass(frozen=True)
class Rank:
    number: int
    label: str  # "rank 2"; "rank 2 (folder)" when two processes claim rank 2
    ctx: ProcessContext

    def graph_keys(self) -> dict[str, GraphKey]:
        """Graph id -> where the graph sits in its function's compiles."""
        keys = {}
        for function_id, compiles in self.ctx.compiles_of.items():
            for index, record in enumerate(compiles):
                graphs = [g for a in self.ctx.attempts(record) for g in a.graphs]
                for position, graph_id in enumerate(dict.fromkeys(graphs)):
                    if graph_id in self.ctx.dump.graphs:
                        keys.setdefault(graph_id, (function_id, index, position))
        return keys


def ranks_of(contexts: list[ProcessContext]) -> list[Rank]:
    """The processes with a rank, in rank order; none unless there are two or more,
    so a single-process dump shows nothing about ranks."""
    ranked = [c for c in contexts if c.dump.manifest.rank is not None]
    if len(ranked) < 2:
        return []
    ranked.sort(key=lambda c: (c.dump.manifest.rank, c.name))
    claims = Counter(c.dump.manifest.rank for c in ranked)
    return [
        Rank(c.dump.manifest.rank, _label(c, claims[c.dump.manifest.rank] > 1), c) for c in ranked
    ]


def _label(ctx: ProcessContext, shared: bool) -> str:
    label = f"rank {ctx.dump.manifest.rank}"
    return f"{label} ({ctx.name or 'the dump folder'})" if shared else label


def rank_list(labels: list[str] | tuple[str, ...]) -> str:
    """ "rank 2", "ranks 0, 1, 3": numbers after one word, when every label is plain."""
    if len(labels) == 1:
        return labels[0]
    numbers = [label.removeprefix("rank ") for label in labels]
    if all(n.lstrip("-").isdigit() for n in numbers):
        return "ranks " + ", ".join(numbers)
    return ", ".join(labels)
