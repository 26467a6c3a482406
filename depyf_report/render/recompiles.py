"""Recompiles: which guard of which earlier cache entry failed, and the usual remedy.

Torch names the failed check in its own words ("tensor 'x' size mismatch at
index 0. expected 2, actual 3", "n == 3"); the guard tree prints the same check
on its source (``TENSOR_MATCH: check_tensor(L['x'], ...)``, ``EQUALS_MATCH:
L['n'] == 3``). This module finds that line.
"""

from __future__ import annotations

import re

from ..dump import Compile, GuardFailure

LIMIT_GB_TYPE = "Dynamo recompile limit exceeded"
_LEAF = re.compile(r"^[| ]*\+- (?P<kind>[A-Z][A-Z0-9_]*): (?P<expr>.*)$")
_MANAGER = re.compile(r"^(?P<bars>[| ]*)\+- GuardManager: source=(?P<source>.*?), accessed_by=")
_ROOT_NAME = re.compile(r"^(?P<name>[A-Za-z_]\w*)(?P<rest>.*)$", re.DOTALL)


def failed_guard_line(tree: str, failure: GuardFailure) -> int | None:
    """The 1-based line of ``tree`` holding the check that failed, if found."""
    lines = tree.splitlines()
    if failure.kind == "size" and failure.source:
        needle = f"check_tensor({failure.source},"
        return _first(lines, lambda kind, expr: kind == "TENSOR_MATCH" and needle in expr)
    expected = _as_source(failure.guard)
    found = _first(lines, lambda kind, expr: _code(expr) == expected)
    if found is None and failure.source:
        source = _as_source(failure.source)
        found = _first_under(lines, source)
    return found


def _first(lines: list[str], test) -> int | None:
    for number, line in enumerate(lines, start=1):
        leaf = _LEAF.match(line)
        if leaf and leaf["kind"] != "GuardManager" and test(leaf["kind"], leaf["expr"]):
            return number
    return None


def _first_under(lines: list[str], source: str) -> int | None:
    """The first check below the GuardManager of ``source``."""
    for number, line in enumerate(lines, start=1):
        manager = _MANAGER.match(line)
        if manager and manager["source"] == source:
            for offset, below in enumerate(lines[number:], start=number + 1):
                if _LEAF.match(below):
                    return offset
            return None
    return None


def _code(expression: str) -> str:
    return " ".join(expression.split("  # ")[0].split())


def _as_source(text: str) -> str:
    """``n == 3`` -> ``L['n'] == 3``: torch's message names locals bare."""
    text = " ".join(text.split())
    match = _ROOT_NAME.match(text)
    if match is None or match["name"] in ("L", "G"):
        return text
    return f"L['{match['name']}']{match['rest']}"


def limit_hit(record: Compile) -> bool:
    detail = record.failure_detail
    return bool(detail and detail.gb_type == LIMIT_GB_TYPE) or (
        LIMIT_GB_TYPE in (record.failure or "")
    )


def remedy(failure: GuardFailure) -> str:
    """What usually stops this kind of recompile."""
    if failure.kind == "size":
        return (
            "A tensor's size changed. If it changes from call to call, compile for "
            "any size: torch.compile(..., dynamic=True), or mark that dimension with "
            "torch._dynamo.mark_dynamic(tensor, dim) before the call."
        )
    if failure.kind == "value":
        return (
            "A Python value the code depends on changed, and Dynamo had baked it in. "
            "If it changes often, pass it as a tensor (or let an int become dynamic); "
            "if it should not change, make it a constant."
        )
    return ""


LIMIT_REMEDY = (
    "Dynamo stopped recompiling this function: it hit torch._dynamo.config."
    "recompile_limit (8 by default), and the calls that fail every guard now run "
    "without compiling. Remove the cause of the recompiles above, or raise the limit."
)
