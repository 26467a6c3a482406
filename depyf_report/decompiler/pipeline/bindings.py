"""Names a scope binds only in code the compiler dropped as unreachable.

``return y`` / ``y = 1`` compiles to a function whose ``y`` is local (reading it
raises UnboundLocalError), but the assignment leaves no instruction behind, so the
decompiled body only reads ``y``, which would make it a global. In a class body, a
name it assigns is looked up in the class namespace and then the globals, never in
the enclosing function: read only, it would be the enclosing function's variable.
``if False: y = None`` compiles to nothing and keeps the binding.
"""

from __future__ import annotations

import ast

from ..simulation import markers as m

CO_VARARGS, CO_VARKEYWORDS = 0x04, 0x08
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def read_unbound(body) -> set[str]:
    """Names ``body`` reads in its own scope, or in the comprehensions in it, and never
    binds there."""
    reads, binds = set(), set()
    todo = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, _SCOPES):
            if not isinstance(node, ast.Lambda):
                binds.add(node.name)
            # (the parts evaluated here: decorators, defaults, bases)
            todo += [
                *getattr(node, "decorator_list", ()),
                *getattr(node, "bases", ()),
                *(k.value for k in getattr(node, "keywords", ())),
            ]
            args = getattr(node, "args", None)
            if args is not None:
                todo += [*args.defaults, *(d for d in args.kw_defaults if d is not None)]
            continue
        if isinstance(node, _COMPREHENSIONS):
            # (its loop variables are its own: bound and read there, not here; a
            # walrus in it binds this scope, as its reads of other names read it)
            inner = _comprehension_parts(node)
            own = {
                n.id for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)
            }
            reads |= read_unbound(inner) - own
            binds |= {
                n.target.id
                for part in inner
                for n in ast.walk(part)
                if isinstance(n, ast.NamedExpr)
            }
            continue
        if isinstance(node, ast.Name):
            (reads if isinstance(node.ctx, ast.Load) else binds).add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            binds |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            binds.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            binds.add(node.rest)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            binds |= set(node.names)
        todo += ast.iter_child_nodes(node)
    return reads - binds


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _comprehension_parts(node) -> list[ast.expr]:
    """What a comprehension evaluates: its element (or key and value), its iterables
    and its conditions; not its loop variables."""
    parts = [getattr(node, f) for f in ("elt", "key", "value") if hasattr(node, f)]
    return [*parts, *(x for g in node.generators for x in (g.iter, *g.ifs))]


def function_locals(code) -> set[str]:
    """The local variables of a function's code object that are not its parameters.
    Not the names it also reads as globals (or attributes): a 3.12+ inlined
    comprehension's variable is a fast local of the function only inside it."""
    count = code.co_argcount + code.co_kwonlyargcount
    count += bool(code.co_flags & CO_VARARGS) + bool(code.co_flags & CO_VARKEYWORDS)
    own = set(code.co_varnames[count:]) | (set(code.co_cellvars) - set(code.co_varnames))
    return own - set(code.co_names)


def kept_bindings(names) -> list[ast.stmt]:
    """``if False: a = b = None``: binds ``names`` in the scope and runs nothing."""
    if not names:
        return []
    targets = [m.name(n, True) for n in sorted(names)]
    assign = ast.Assign(targets=targets, value=m.const(None))
    return [ast.If(test=m.const(False), body=[assign], orelse=[])]
