"""The public entry point: ``decompile(fn_or_code) -> str``."""

from __future__ import annotations

import ast
import gc
import inspect
import re
import sys
import threading
import types

from ..bytecode.versions import PYTHON_CALLS_USE_C_STACK
from ..simulation import markers as m
from ..structuring.fallback import MARK
from ..tidy.unparse import unparse
from .definitions import Definitions, body_of, function_def, lambda_expr

_MARK_LINE = re.compile(r"^(\s*)(?:'|\"\"\")" + MARK + r"(.*?)(?:'|\"\"\")$", re.M)


def code_of(obj) -> types.CodeType:
    """The code object behind a function, method, generator function or code."""
    obj = inspect.unwrap(obj) if callable(obj) else obj
    obj = getattr(obj, "__func__", obj)
    code = getattr(obj, "__code__", obj)
    if not isinstance(code, types.CodeType):
        raise TypeError(f"cannot decompile {type(obj).__name__!r}: not a function or code object")
    return code


def decompile(obj, *, dynamo: bool = False) -> str:
    """Return Python source that recompiles to code meaning the same as ``obj``.

    ``dynamo=True`` says the code is one Dynamo wrote (transformed code, a resume
    function): the lists it builds on the stack are evaluated away, temporaries used
    once are inlined, its profiling calls around a graph call become a comment
    (``tidy/dynamo.py``), and each statement ends with a comment naming the source lines
    it stands for."""
    code = code_of(obj)
    function = obj if isinstance(obj, types.FunctionType) else getattr(obj, "__func__", None)
    with _RUNNING:
        return _checked_source(code, function, dynamo)


# How deep the decompiler may recurse. Where calls between Python functions also
# take C stack, a lower limit keeps it clear of a C stack overflow.
DEEP = 5000 if PYTHON_CALLS_USE_C_STACK else 20000


class _Running:
    """The process-wide settings a decompile needs while it runs: a recursion limit of
    at least DEEP (long elif chains nest deeply) and no garbage collection (the many
    short-lived AST nodes would trigger full collections). The first of overlapping
    calls, in any threads, sets them; the last one out puts back what it found."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._calls = 0
        self._saved = (0, False)

    def __enter__(self) -> None:
        with self._lock:
            if self._calls == 0:
                self._saved = (sys.getrecursionlimit(), gc.isenabled())
                sys.setrecursionlimit(max(self._saved[0], DEEP))
                gc.disable()
            self._calls += 1

    def __exit__(self, *exc) -> None:
        with self._lock:
            self._calls -= 1
            if self._calls == 0:
                limit, collecting = self._saved
                sys.setrecursionlimit(limit)
                if collecting:
                    gc.enable()


_RUNNING = _Running()


def _checked_source(code, function, dynamo: bool) -> str:
    source = _source(code, function, dynamo)
    try:
        compile(source, "<decompiled>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        # check each structured body on its own, falling back where needed
        source = _source(code, function, dynamo, probe=True)
    return source


def _source(code, function, dynamo: bool, probe: bool = False) -> str:
    defs = Definitions(probe, dynamo)
    tree = ast.Module(body=_top_level(code, function, defs), type_ignores=[])
    try:
        _number_statements(tree.body)
        text = unparse(tree, defs.lines)
    except Exception:
        if probe:
            raise
        return "<unprintable>"
    return _MARK_LINE.sub(r"\1# \2", text) + "\n"


def _top_level(code, function, defs: Definitions) -> list[ast.stmt]:
    if not code.co_flags & 1:  # module or class body: plain statements
        return body_of(code, defs) or [ast.Pass()]
    fn = m.Function(code)
    binds = {}
    if function is not None:
        fn.defaults = [
            _value(v, binds, f"default_{i}") for i, v in enumerate(function.__defaults__ or ())
        ]
        kw = function.__kwdefaults__ or {}
        fn.kwdefaults = {k: _value(v, binds, f"kwdefault_{k}") for k, v in kw.items()}
    name = code.co_name if code.co_name.isidentifier() else "_" + re.sub(r"\W", "_", code.co_name)
    node = function_def(code, defs, fn, name)
    if code.co_name == "<lambda>":
        expr = lambda_expr(fn, defs)
        if expr is not None:
            node = ast.Assign(targets=[m.name(name, True)], value=expr)
    free = list(code.co_freevars)
    binds.update(defs.objects.values)
    if not free and not binds:
        return [node]
    params = [ast.arg(arg=n) for n in free + list(binds)]
    args = ast.arguments(
        posonlyargs=[],
        args=params,
        vararg=None,
        kwonlyargs=[],
        kw_defaults=[],
        kwarg=None,
        defaults=[],
    )
    ret = ast.Return(value=m.name(name))
    outer = ast.FunctionDef(
        name=f"_enclosing_{name}", args=args, body=[node, ret], decorator_list=[]
    )
    return [outer]


def _value(value, binds: dict, label: str) -> ast.expr:
    """A default value as a literal when it is one, else a parameter of the enclosure."""
    try:
        text = repr(value)
        if len(text) < 200 and ast.literal_eval(text) == value:
            return ast.parse(text, mode="eval").body
    except Exception:
        pass
    binds[label] = value
    return m.name(label)


def _number_statements(body) -> None:
    """Give statements the ``lineno`` that ``ast.unparse`` reads for type comments; far
    cheaper than ``ast.fix_missing_locations`` over every expression."""
    todo = [body]
    while todo:
        for stmt in todo.pop():
            stmt.lineno = getattr(stmt, "lineno", 1)
            for name in ("body", "orelse", "finalbody", "handlers", "cases"):
                inner = getattr(stmt, name, None)
                if isinstance(inner, list):
                    todo.append(inner)
