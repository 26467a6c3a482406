"""Which lines of a guard tree a page shows at load.

Torch prints the tree with one check a line, its depth drawn as ``| | +- ``. A
Llama model's tree has thousands of checks under ``L['self']``; the page shows
the levels that fit in the lines the page has left, and the lines of failed guards with every
check above them, so a recompile's cause is in view without unfolding.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

_BRANCH = re.compile(r"^(?P<bars>(?:\| )*)\+- ")


def depths(tree: str) -> tuple[int, ...]:
    """Each line's depth: ``+- `` is 1, each ``| `` before it one more. A line
    without a branch (a check printed over several lines) goes with the line above."""
    found, last = [], 0
    for index, text in enumerate(tree.splitlines()):
        match = _BRANCH.match(text)
        if match:
            last = len(match["bars"]) // 2 + 1
        elif index == 0:
            last = 0
        found.append(last)
    return tuple(found)


def shown_lines(
    depths: tuple[int, ...], open_at: Iterable[int], cost: Callable[[int], int], budget: int
) -> frozenset[int]:
    """Indexes of the lines to show: the deepest first levels whose lines cost no
    more than ``budget`` in all, as many of them as fit where even the first two
    levels do not; and the lines ``open_at`` (1-based) with every line above them.

    ``cost`` gives a line's cost; it is asked only for lines that may be shown,
    as few as the budget allows: drawing a line to count it is most of its cost."""
    level = 1
    deepest = max(depths, default=0)
    while level < deepest and _fits(depths, cost, level + 1, budget):
        level += 1
    shown: set[int] = {0} if depths else set()  # the root, to unfold from
    for index, depth in enumerate(depths):
        if budget <= 0:  # every line costs something
            break
        if depth <= level and cost(index) <= budget:
            shown.add(index)
            budget -= cost(index)
    for number in open_at:
        shown |= _path_to(depths, number - 1)
    return frozenset(shown)


def _fits(depths: tuple[int, ...], cost: Callable[[int], int], level: int, budget: int) -> bool:
    """Whether the lines down to ``level`` cost no more than ``budget`` in all."""
    for index, depth in enumerate(depths):
        if depth <= level:
            budget -= cost(index)
            if budget < 0:
                return False
    return True


def _path_to(depths: tuple[int, ...], index: int) -> set[int]:
    """Line ``index`` and the line above it at each smaller depth: its ancestors."""
    if not 0 <= index < len(depths):
        return set()
    path, depth = {index}, depths[index]
    for j in range(index - 1, -1, -1):
        if depths[j] < depth:
            path.add(j)
            depth = depths[j]
    return path


# A tree line: its branch, kind, check and comment, "| +- TYPE_MATCH: f(x)  # y = g(x)".
_BEFORE_CHECK = re.compile(r"[|+\- ]*(?:[A-Za-z_]+: )?")
_COMMENT = re.compile(r"\s+# ")


def _check(text: str) -> str:
    """A tree line's check: between the kind and the first comment."""
    start = _BEFORE_CHECK.match(text).end()
    comment = _COMMENT.search(text, start)
    return text[start : comment.start() if comment else len(text)].strip()


def guard_lines_of(tree: str, expressions: list[str]) -> list[int | None]:
    """The tree line (1-based) of each guard, so search opens the tree at it; a guard
    torch printed twice maps to its occurrences in order."""
    at: dict[str, list[int]] = {}
    lines = tree.splitlines()
    for number, text in enumerate(lines, start=1):
        at.setdefault(_check(text), []).append(number)
    found: list[int | None] = []
    for expression in expressions:
        numbers = at.get(expression.strip())
        if numbers:
            found.append(numbers.pop(0) if len(numbers) > 1 else numbers[0])
        else:  # a guard cut or padded differently: the first line that holds it
            found.append(next((n for n, t in enumerate(lines, 1) if expression in t), None))
    return found
