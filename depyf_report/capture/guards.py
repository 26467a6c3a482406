"""Guard tree text (as Dynamo prints a guard manager) -> ``GuardSet``.

Each tree line is ``| | +- KIND: expression  # user code  # file:line in fn``;
``GuardManager: source=...`` lines open a subtree about one value, and the
leaf guards below them check that value. Lambda guards at the top level, after
the root manager, are the shape guards Dynamo checks last.
"""

from __future__ import annotations

import re

from ..dump import Guard, GuardFailure, GuardSet

_LINE = re.compile(r"^(?P<bars>(?:\| )*)\+- (?P<body>.*)$")
_LEAF = re.compile(r"^(?P<kind>[A-Z][A-Z0-9_]*)(?::\s*(?P<expr>.*))?$")
_MANAGER_SOURCE = re.compile(r"source=(?P<source>.*?), accessed_by=")
_WHERE = re.compile(r"^(?P<file>.+?):(?P<line>\d+) in (?P<fn>\S+)")
SHAPE_KIND = "SHAPE"


def parse_guard_tree(text: str) -> GuardSet:
    """Every guard in the tree, each with the source of the value it checks."""
    tree = text.strip("\n")
    guards: list[Guard] = []
    shape_guards: list[str] = []
    sources: list[str | None] = []  # the value each open GuardManager checks, by depth
    for raw in tree.splitlines():
        match = _LINE.match(raw)
        if match is None:
            continue
        depth = len(match["bars"]) // 2
        body = match["body"]
        del sources[depth:]
        if body.startswith(("GuardManager", "RootGuardManager", "DictGuardManager")):
            found = _MANAGER_SOURCE.search(body)
            sources.append(found["source"] if found else None)
            continue
        guard = _leaf_guard(body, _innermost(sources))
        if guard is None:
            continue
        if depth == 0 and guard.kind == "LAMBDA_GUARD":
            guard.kind = SHAPE_KIND
            shape_guards.append(guard.expression)
        guards.append(guard)
    return GuardSet(tree=tree, guards=guards, shape_guards=shape_guards)


def _innermost(sources: list[str | None]) -> str | None:
    return next((s for s in reversed(sources) if s), None)


def _leaf_guard(body: str, source: str | None) -> Guard | None:
    expression, *comments = body.split("  # ")
    leaf = _LEAF.match(expression.strip())
    if leaf is None:
        return None
    guard = Guard(
        expression=(leaf["expr"] or leaf["kind"]).strip(),
        kind=leaf["kind"],
        user_source=source,
    )
    for comment in comments:
        where = _WHERE.match(comment.strip())
        if where:
            guard.filename, guard.line = where["file"], int(where["line"])
    return guard


def strip_comment(guard_text: str) -> str:
    """``2 <= L['a'].size()[0]  # user code ...`` -> ``2 <= L['a'].size()[0]``."""
    return guard_text.split("  # ")[0].strip()


# "0/1: <the failed check>  # user code  # file:line in fn", then "User stack trace:".
_FAILURE = re.compile(r"^(?P<entry>\d+/\d+(?:_\d+)?): (?P<guard>.*)$", re.DOTALL)
_SIZE = re.compile(r"^tensor '(?P<name>.+?)' (?:size|stride) mismatch at index \d+")
_TENSOR = re.compile(r"^tensor '(?P<name>.+?)' ")
_VALUE = re.compile(r"^(?P<source>.+?) (?:==|is|!=|is not) .+$")


def guard_failure(reason: str) -> GuardFailure:
    """The cache entry and the check named in one of torch's recompile reasons."""
    found = _FAILURE.match(reason.strip())
    entry, text = (found["entry"], found["guard"]) if found else (None, reason.strip())
    first = text.split("\n", 1)[0]
    guard = strip_comment(first)
    failure = GuardFailure(reason=reason.strip(), entry=entry, guard=guard)
    size = _SIZE.match(guard)
    tensor = _TENSOR.match(guard)
    value = _VALUE.match(guard)
    if size:
        failure.kind, failure.source = "size", _local(size["name"])
    elif tensor:
        failure.source = _local(tensor["name"])
    elif value:
        failure.kind, failure.source = "value", value["source"].strip()
    return failure


_ROOT = re.compile(r"^(?P<name>[A-Za-z_]\w*)(?P<rest>.*)$", re.DOTALL)


def _local(name: str) -> str:
    """The guard tree's source of a tensor torch's message names: by its source
    ("L['x']"), or from a local, bare ("x", "args[1]", "self.w")."""
    match = _ROOT.match(name)
    if match is None or match["name"] in ("L", "G"):
        return name
    return f"L['{match['name']}']{match['rest']}"
