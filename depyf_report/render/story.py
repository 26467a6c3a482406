"""One function's whole story as a single Python file a user can download.

The original source, then each cache entry's guards (as a function returning
whether they all hold) and its transformed code, then each resume function the
same way. Any piece that is not valid Python on its own is kept as comments,
so the file always compiles.
"""

from __future__ import annotations

import re
import textwrap

from ..model import CacheEntry, Function
from .context import ProcessContext


def function_story(ctx: ProcessContext, fn: Function) -> str:
    header = (
        f'"""What torch.compile did with {fn.qualname}, written by depyf-report.\n\n'
        "Names Dynamo creates (__compiled_fn_*, __resume_at_*, ___check_*) are not\n"
        "defined in this file; it shows the code, it does not run the model.\n"
        '"""\n'
    )
    parts = [header]
    for member in _with_resumes(ctx, fn):
        parts.append(_function_part(member))
    return "\n\n".join(parts).rstrip() + "\n"


def _with_resumes(ctx: ProcessContext, fn: Function) -> list[Function]:
    found, todo = [], [fn]
    while todo:
        current = todo.pop(0)
        if current not in found:
            found.append(current)
            todo += ctx.resumes_of.get(current.id, [])
    return found


def _function_part(fn: Function) -> str:
    kind = "resume function" if fn.is_resume else "function"
    parts = [_banner(f"{kind} {fn.qualname} ({fn.filename}:{fn.first_line})", "=")]
    if fn.resume:
        parts.append(
            f"# resumes line {fn.resume.resume_line} after the graph break on line {fn.resume.break_line}"
        )
    if fn.is_resume:
        parts.append(_banner("resume function code, decompiled", "-"))
        missing = fn.original.decompile_error or "not decompiled"
        parts.append(python_or_comment(fn.original.decompiled or "", missing))
    else:
        parts.append(_banner("original source", "-"))
        parts.append(python_or_comment(textwrap.dedent(fn.source or ""), "source not captured"))
    for index, entry in enumerate(fn.entries):
        parts.append(_entry_part(fn, index, entry))
    return "\n".join(parts)


def _entry_part(fn: Function, index: int, entry: CacheEntry) -> str:
    name = _identifier(f"guard_{index}_for_{fn.name}")
    code = entry.code.decompiled
    return "\n".join(
        [
            _banner(f"cache entry {index} (compile {entry.compile_id}): guards", "-"),
            _comment(entry.guards.tree),
            guard_function(
                name, [g.expression for g in entry.guards.guards] + entry.guards.shape_guards
            ),
            _banner(f"cache entry {index}: transformed code", "-"),
            python_or_comment(code or "", entry.code.decompile_error or "not decompiled"),
        ]
    )


def guard_function(name: str, expressions: list[str]) -> str:
    """A function that is true when every guard holds; unparsable guards become comments."""
    valid = [e for e in expressions if _is_expression(e)]
    skipped = [f"    # not a Python expression: {e}" for e in expressions if e not in valid]
    body = "\n        and ".join(f"({e})" for e in valid) or "True"
    lines = [
        f"def {name}(L, G, **___kwargs_ignored):",
        *skipped,
        f"    return (\n        {body}\n    )",
    ]
    return "\n".join(lines)


def _is_expression(text: str) -> bool:
    try:
        compile(text, "<guard>", "eval")
    except (SyntaxError, ValueError):
        return False
    return "\n" not in text


def python_or_comment(text: str, missing: str) -> str:
    if not text.strip():
        return f"# ({missing})"
    try:
        compile(text, "<story>", "exec")
    except (SyntaxError, ValueError) as error:
        return f"# (not valid Python here: {error.msg})\n" + _comment(text)
    return text.rstrip()


def _comment(text: str) -> str:
    return "\n".join(f"# {line}".rstrip() for line in text.splitlines())


def _banner(text: str, fill: str) -> str:
    return f"\n# {fill * 3} {_comment(text)[2:]} {fill * max(3, 72 - len(text))}"


def _identifier(text: str) -> str:
    clean = re.sub(r"\W", "_", text)
    return clean if clean.isidentifier() else f"_{clean}"
