"""How readable the transformed code is: for every code object Dynamo writes for the
programs in examples/ (those with a main()) and the graph-break corpus
(tests/dynamo_corpus.py), as the report shows it (``decompile(code, dynamo=True)``):

- lines: statements' lines of the decompiled function's body (comments left out);
- temps: the decompiler's ``_tN`` names in it;
- no-effect: statements that do nothing (an inert expression, a temporary stored and
  never read, ``x[i:i] = []``, ``.extend([])``);
- original: the source lines the original code object's line table names, less the
  ``def`` line (a resume function's first line is the line it resumes at, and counts);
  ``global`` and ``nonlocal`` lines count on neither side;
- target: lines <= original + one line per resume call.

Needs torch (3.11 here). Prints one row per code object and a summary line; exits 0.
``--plain`` measures the decompiler's output without these simplifications, for
comparison.

    PYTHONPATH=. .venv/bin/python benchmarks/transformed_code.py [--plain]
"""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import io
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import torch  # noqa: E402
import torch._dynamo  # noqa: E402
from dynamo_corpus import CORPUS, call  # noqa: E402
from torch._dynamo.convert_frame import register_bytecode_hook  # noqa: E402

from depyf_report import decompile  # noqa: E402

TEMP = re.compile(r"\b_+[ts]\d+\b")


def written_by(run) -> list:
    """(original, transformed) code objects Dynamo writes while ``run`` runs."""
    pairs = []
    torch._dynamo.reset()
    handle = register_bytecode_hook(lambda code, new: pairs.append((code, new)))
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            run()
    finally:
        handle.remove()
        torch._dynamo.reset()
    return pairs


def programs():
    for kind, (function, calls) in CORPUS.items():
        compiled = torch.compile(function, backend="eager")
        yield f"corpus: {kind}", lambda c=compiled, calls=calls: [call(c, a) for a in calls]
    for path in sorted((ROOT / "examples").glob("*.py")):
        tree = ast.parse(path.read_text())
        if not any(isinstance(n, ast.FunctionDef) and n.name == "main" for n in tree.body):
            continue
        spec = importlib.util.spec_from_file_location(f"example_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        yield f"example: {path.stem}", module.main


def original_lines(code) -> int:
    """Source lines the line table names; a function's ``def`` line left out, but not a
    resume function's first line, which is the line it resumes at."""
    lines = {line for _, _, line in code.co_lines() if line is not None}
    if code.co_name.startswith("torch_dynamo_resume_in_"):
        return len(lines)
    return len(lines - {code.co_firstlineno})


def measure(source: str, name: str) -> tuple[int, int, int, int]:
    """(body lines, temps, no-effect statements, resume calls) of the decompiled def
    of ``name`` (inside the ``_enclosing_`` function that binds its free names)."""
    tree = ast.parse(source)
    defs = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    fn = next((n for n in defs if n.name == name), defs[0])
    text = source.splitlines()
    body = range(fn.body[0].lineno, fn.end_lineno + 1)
    # declarations are not in the line table, so they are not counted here either
    declared = {n.lineno for n in fn.body if isinstance(n, (ast.Global, ast.Nonlocal))}
    lines = sum(
        1
        for i in body
        if i not in declared and text[i - 1].strip() and not text[i - 1].strip().startswith("#")
    )
    temps = len(set(TEMP.findall(ast.unparse(fn))))
    reads = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    idle = sum(1 for stmt in ast.walk(fn) if _no_effect(stmt, reads))
    resumes = sum(
        1 for n in ast.walk(fn) if isinstance(n, ast.Call) and "__resume_at_" in ast.unparse(n.func)
    )
    return lines, temps, idle, resumes


def _no_effect(stmt, reads: set[str]) -> bool:
    if isinstance(stmt, ast.Expr):
        value = stmt.value
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return False  # a docstring or a comment
        if isinstance(value, (ast.Constant, ast.Name)):
            return True
        return (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and value.func.attr == "extend"
            and value.args
            and isinstance(value.args[0], (ast.List, ast.Tuple))
            and not value.args[0].elts
        )
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target = stmt.targets[0]
        if isinstance(target, ast.Name):
            return TEMP.fullmatch(target.id) is not None and target.id not in reads
        if isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Slice):
            s = target.slice
            empty = isinstance(stmt.value, ast.List) and not stmt.value.elts
            same = ast.dump(s.lower) == ast.dump(s.upper) if s.lower and s.upper else False
            return empty and same
    return False


def main() -> None:
    plain = "--plain" in sys.argv[1:]  # the decompiler's output without the simplification
    rows = []
    print(f"{'program':34} {'function':44} lines temps no-effect original target")
    for label, run in programs():
        for original, transformed in written_by(run):
            source = decompile(transformed, dynamo=not plain)
            lines, temps, idle, resumes = measure(source, transformed.co_name)
            limit = original_lines(original) + resumes
            ok = lines <= limit
            rows.append((temps, idle, ok))
            name = transformed.co_name[:44]
            print(
                f"{label[:34]:34} {name:44} {lines:5} {temps:5} {idle:9} "
                f"{original_lines(original):8} {'ok' if ok else f'OVER ({limit})'}"
            )
    n = len(rows)
    print(
        f"summary: {n} code objects; zero temps {sum(t == 0 for t, _, _ in rows)}/{n}; "
        f"zero no-effect {sum(i == 0 for _, i, _ in rows)}/{n}; "
        f"within target {sum(ok for _, _, ok in rows)}/{n}; "
        f"temps in all {sum(t for t, _, _ in rows)}; no-effect in all {sum(i for _, i, _ in rows)}"
    )


if __name__ == "__main__":
    main()
