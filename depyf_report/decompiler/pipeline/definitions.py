"""Code objects to definitions: function signatures, bodies, lambdas, classes.

A body is first recovered as structured code; when that fails or the result does not
compile, the state machine in ``fallback.py`` takes over for that code object alone.
"""

from __future__ import annotations

import ast
import copy
import dis
import inspect
import os
import traceback

from ..bytecode.instructions import SourceLines, normalize
from ..graph.cfg import Graph
from ..rewrites.clause_tails import inlined_copies
from ..rewrites.patterns import collapse
from ..rewrites.star import regular_form
from ..simulation import markers as m
from ..simulation.handlers.exceptions import helper_defs
from ..simulation.handlers.expressions import value_of
from ..simulation.handlers.typeparams import TypeAlias, type_alias_statement
from ..simulation.machine import CodeContext
from ..simulation.nodes import StatementLines
from ..structuring.fallback import StateMachine, comment, forget, hidden_locals_renamed
from ..structuring.inlined import InlinedComprehensions, cell_regions
from ..structuring.walk import structured_body
from ..tidy.clause_ends import runs_after_clearing
from ..tidy.cleanup import is_doc_store, region_value, tidy
from ..tidy.comprehensions import comprehension_expr, left_as_loops
from ..tidy.dynamo import simplify
from ..tidy.unread import unread_temporaries
from .bindings import function_locals, kept_bindings, read_unbound

CO_GENERATOR, CO_COROUTINE, CO_ASYNC_GENERATOR = 0x20, 0x80, 0x200
CO_VARARGS, CO_VARKEYWORDS = 0x04, 0x08


# For testing the state machine on everything: set DEPYF_REPORT_FORCE_FALLBACK=1.
FORCE_FALLBACK = bool(os.environ.get("DEPYF_REPORT_FORCE_FALLBACK"))
CLASS_BOOKKEEPING = {"__module__", "__qualname__", "__firstlineno__", "__static_attributes__"}


class Definitions:
    """How simulated code turns function and class markers into Python definitions.

    One per ``decompile`` call (and per retry), holding all the state of that call, so
    that calls in several threads at once do not meet."""

    def __init__(self, probe: bool = False, dynamo: bool = False):
        # Whether each structured body is compiled on its own before it is accepted. Off
        # for speed; ``api.decompile`` retries with it on when the output fails to compile.
        self.probe = probe
        self.objects = m.ObjectConstants()  # constants that are not literals, named
        # Code Dynamo wrote: its stack values simplified and its statements' source
        # lines noted here, for ``api`` to print as comments.
        self.dynamo = dynamo
        self.lines = StatementLines() if dynamo else None
        # For each class being written, the variables of the functions around it that
        # its body would read if it did not bind them (a class in a class sees them too).
        self.function_names: list[set[str]] = []

    def defines(self, value, ident: str) -> bool:
        target = value.target if isinstance(value, m.Decorated) else value
        if isinstance(target, m.Function):
            name = target.code.co_name
            mangled = name.startswith("__") and ident.startswith("_") and ident.endswith(name)
            return (name == ident or mangled) and _plain_name(name)
        if isinstance(target, TypeAlias):
            return target.name == ident
        return isinstance(target, m.Class) and target.name == ident

    def structured_body(self, code) -> list[ast.stmt] | None:
        """A nested code object's body, or None where only the state machine can write it."""
        return body_of(code, self, force_structured=True)

    def definition(self, value, ident: str, sim) -> ast.stmt:
        decorators = []
        if isinstance(value, m.Decorated):
            decorators = [value_of(sim, d) for d in value.decorators]
            value = value.target
        if isinstance(value, TypeAlias):
            return type_alias_statement(value, ident)
        if isinstance(value, m.Class):
            node = class_def(value, self, sim.ctx)
        else:  # a private method is stored mangled; its def is written unmangled
            node = function_def(value.code, self, value, value.code.co_name)
        node.decorator_list = decorators
        if value.type_params:
            node.type_params = value.type_params
        return node

    def expression(self, value, sim) -> ast.expr:
        if isinstance(value, m.Decorated):
            inner = self.expression(value.target, sim)
            for deco in reversed(value.decorators):
                inner = m.call(value_of(sim, deco), [inner])
            return inner
        if isinstance(value, m.Function) and value.code.co_name == "<lambda>":
            node = lambda_expr(value, self)
            if node is not None:
                return node
        ident = value.name if isinstance(value, m.Class) else sim.ctx.temp()
        if isinstance(value, m.Class):
            sim.emit(class_def(value, self, sim.ctx), [ident])
        else:
            sim.emit(function_def(value.code, self, value, ident), [ident])
        return m.name(ident)

    def comprehension(self, fn: m.Function, iterable, sim) -> ast.expr:
        source = iterable.value if isinstance(iterable, m.Iter) else iterable
        body = body_of(fn.code, self, force_structured=True)
        declared = [s for s in body or () if isinstance(s, (ast.Global, ast.Nonlocal))]
        body = [s for s in body or () if s not in declared]
        node = comprehension_expr(fn.code, body, source) if body is not None else None
        if node is not None:
            # A walrus in it stores to the scope around. Where that is a function, a
            # global one is the function's global too; a free one is its own cell,
            # and a module's names need no declaration.
            for stmt in declared:
                if isinstance(stmt, ast.Global) and sim.ctx.is_function:
                    sim.ctx.stored_globals.update(stmt.names)
            if fn.code.co_flags & CO_COROUTINE:
                sim.ctx.awaited_by_caller.add(node)
            return node
        return m.call(self.expression(fn, sim), [value_of(sim, iterable)])


def _plain_name(ident: str) -> bool:
    return ident.isidentifier() and not ident.startswith("<")


def body_of(code, defs, force_structured=False) -> list[ast.stmt] | None:
    """Statements for a code object's body: structured when possible."""
    instrs = collapse(normalize(code))
    try:
        if FORCE_FALLBACK and not force_structured:
            raise ValueError("state machine forced by DEPYF_REPORT_FORCE_FALLBACK")
        ctx, body = _structured(code, instrs, defs)
        body = tidy(body, ctx)
        if left_as_loops(body):
            raise ValueError("an inlined comprehension left as its loop")
        if runs_after_clearing(body):
            raise ValueError("code after a clause's POP_EXCEPT read into the clause")
        if defs.dynamo:  # (its stack lists are read through their temporaries)
            body = _simplified(body, ctx, defs.lines)
        body = unread_temporaries(body, ctx.is_temp)
        if not ctx.is_function:
            body = _forgetting_temporaries(body, ctx)
        if ctx.helpers:
            if not ctx.is_function:  # a helper would stay in the namespace
                raise ValueError("helpers outside a function: left to the state machine")
            body = helper_defs(ctx) + body
        if not defs.probe or _compiles(code, body, ctx):
            return _declared(ctx, body)
        if os.environ.get("DEPYF_REPORT_DEBUG"):
            tree = ast.fix_missing_locations(ast.Module(body=body, type_ignores=[]))
            print("structured result does not compile:", code.co_name, ast.unparse(tree))
    except Exception:
        if os.environ.get("DEPYF_REPORT_DEBUG"):
            traceback.print_exc()
    if force_structured:
        return None
    ctx = CodeContext(code, defs, structured=False)
    try:
        body = _state_machine(code, instrs, ctx).build()
    except Exception as exc:
        reason = f"{type(exc).__name__}: {exc}"
        raise_ = ast.Raise(exc=m.call("RuntimeError", [m.const("not decompiled: " + reason)]))
        body = [comment("could not decompile this code object"), raise_]
    return _declared(ctx, body)


def _structured(code, instrs, defs) -> tuple[CodeContext, list[ast.stmt]]:
    """The structured walk's statements, and the context it filled. Where the walk of
    the blocks as laid out fails, and 3.13 inlined a block into jumps to it, the copies
    are sent to their original and the walk runs again: the paths then meet where the
    source joins them. Two blocks written alike can pass for a copy and its original
    (the ends of two except clauses), which the first walk reads as written; the
    copies whose original is lost are tried last. The reason to fall back is the first
    walk's."""
    instrs, lines = regular_form(instrs), SourceLines(code)  # except* as plain handlers
    ctx = CodeContext(code, defs, structured=True)
    try:
        return ctx, structured_body(ctx, Graph(instrs, unrotate=True, lines=lines))
    except Exception as as_laid_out:
        tried = [{}]
        for lost in (False, True):
            copies = inlined_copies(instrs, lines, lost)
            if copies in tried:
                continue
            tried.append(copies)
            ctx = CodeContext(code, defs, structured=True)
            graph = Graph(instrs, unrotate=True, lines=lines, inlined=copies)
            try:
                return ctx, structured_body(ctx, graph)
            except Exception:
                continue
        raise as_laid_out from None


def _state_machine(code, instrs, ctx) -> StateMachine:
    """The state machine over ``instrs``, with the inlined comprehensions that make a
    cell written as comprehensions (``structuring/inlined.py``)."""
    regions = cell_regions(instrs, code.co_cellvars)
    instrs = hidden_locals_renamed(instrs, ctx)
    if not regions:
        return StateMachine(ctx, Graph(instrs))
    leaders = frozenset({*regions, *regions.values()})
    walked = Graph(instrs, unrotate=True, lines=SourceLines(code), leaders=leaders)
    inlined = InlinedComprehensions(regions, walked, region_value)
    return StateMachine(ctx, Graph(instrs, leaders=leaders), inlined)


def _forgetting_temporaries(body, ctx) -> list[ast.stmt]:
    """A module or class body that leaves none of its temporaries in its namespace: the
    ones evaluation order still needs (a value kept across a statement) and helper
    definitions are removed at its end, and a module's also when it raises."""
    names = set()
    todo = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if ctx.is_temp(node.name):
                names.add(node.name)
            todo.extend(node.decorator_list)  # its body is a scope of its own
            continue
        if isinstance(
            node, (ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp)
        ):
            continue  # (an inlined comprehension's names are its own too)
        if (
            isinstance(node, ast.Name)
            and not isinstance(node.ctx, ast.Load)
            and ctx.is_temp(node.id)
        ):
            names.add(node.id)
        todo.extend(ast.iter_child_nodes(node))
    if not names:
        return body
    if ctx.is_class:  # a class body that raises leaves no namespace behind
        return [*body, forget(ctx, names)]
    # a module that raises keeps its globals: they are removed on the way out too
    head = _leading(body)
    rest = ast.Try(body=body[head:], handlers=[], orelse=[], finalbody=[forget(ctx, names)])
    return [*body[:head], rest]


def _leading(body) -> int:
    """How many statements open ``body`` that must stay first in a module: its
    docstring and ``from __future__`` imports."""
    head = int(bool(body) and _is_docstring(body[0]))
    while head < len(body) and _is_future_import(body[head]):
        head += 1
    return head


def _is_future_import(stmt) -> bool:
    return isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__"


def _simplified(body, ctx, lines) -> list[ast.stmt]:
    """``tidy.dynamo.simplify``; a bug there keeps the body as it was, not the state machine."""
    try:
        return simplify(body, ctx, lines)
    except Exception:
        if os.environ.get("DEPYF_REPORT_DEBUG"):
            traceback.print_exc()
        return body


def _declared(ctx, body) -> list[ast.stmt]:
    """``body`` with its declarations first, after a module's or class's docstring."""
    docs = int(not ctx.is_function and bool(body) and _is_docstring(body[0]))
    return body[:docs] + _declarations(ctx, body) + body[docs:]


def _is_docstring(stmt) -> bool:
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    )


def _declarations(ctx, body) -> list[ast.stmt]:
    out = []
    if ctx.stored_globals:  # in a class or module body too: ``global`` decides the store
        out.append(ast.Global(names=sorted(ctx.stored_globals)))
    # A generic class body's hidden ``.type_params`` comes back through class_def.
    free = {n for n in ctx.stored_free | _unused_free(ctx.code, body) if n.isidentifier()}
    if free:
        out.append(ast.Nonlocal(names=sorted(free)))
    if ctx.is_function:  # locals assigned only in code the compiler dropped
        dead = function_locals(ctx.code) & read_unbound(body or ())
        out += kept_bindings({n for n in dead if n.isidentifier()})
    return out


def _unused_free(code, body) -> set[str]:
    """Free variables the body never names: only a ``nonlocal`` keeps them (and the
    closure cell they bring)."""
    free = set(code.co_freevars) - {"__class__", "__classdict__"}
    if not free:
        return set()
    named = {n.id for stmt in body or () for n in ast.walk(stmt) if isinstance(n, ast.Name)}
    return free - named


def _compiles(code, body, ctx) -> bool:
    """Whether ``body`` compiles in a scope like the one ``code`` ran in."""
    inner = _declarations(ctx, body) + [_shallow(s) for s in body or [ast.Pass()]]
    if ctx.is_function:
        args = signature(code, m.Function(code))
        inner = [_def_node(code, "_probe", args, inner)]
    elif ctx.is_class:
        # in a class statement, as it will be: a return left anywhere but at the end
        # (which class_def drops) is no class body's
        kept = [s for s in inner if not isinstance(s, ast.Return)] or [ast.Pass()]
        inner = [ast.ClassDef(name="_probe", bases=[], keywords=[], body=kept, decorator_list=[])]
    if code.co_freevars:
        binds = [
            ast.Assign(targets=[m.name(n, True)], value=m.const(None)) for n in code.co_freevars
        ]
        inner = [
            ast.FunctionDef(name="_outer", args=_no_args(), body=binds + inner, decorator_list=[])
        ]
    tree = ast.fix_missing_locations(ast.Module(body=inner, type_ignores=[]))
    try:
        # the text, as the whole module is checked: a tree made here may leave out
        # what unparsing never needs (an attribute's ctx, a def's type_params)
        compile(ast.unparse(tree), "<decompiled>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError, TypeError):
        return False
    return True


def _shallow(stmt):
    """A copy of ``stmt`` whose nested definitions have empty bodies: those bodies were
    checked when they were built, and compiling them again would cost time per level."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        # (a copy of every field: 3.12 refuses a def whose type_params is left None)
        shallow = copy.copy(stmt)
        shallow.body = [ast.Pass()]
        return shallow
    fields = {}
    changed = False
    for name in stmt._fields:
        value = getattr(stmt, name, None)
        if (
            isinstance(value, list)
            and value
            and isinstance(value[0], (ast.stmt, ast.excepthandler))
        ):
            new = [_shallow(v) for v in value]
            changed = changed or any(a is not b for a, b in zip(new, value))
            fields[name] = new
        else:
            fields[name] = value
    return type(stmt)(**fields) if changed else stmt


def _no_args() -> ast.arguments:
    return ast.arguments(
        posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]
    )


def signature(code, fn: m.Function) -> ast.arguments:
    """Parameters from the code object; defaults and annotations from MAKE_FUNCTION."""
    names = [m.safe(n) for n in code.co_varnames]
    npos, nkw = code.co_argcount, code.co_kwonlyargcount
    ann = fn.annotations

    def arg(n):
        return ast.arg(arg=n, annotation=_annotation(code, ann.get(n)))

    i = npos + nkw
    vararg = kwarg = None
    if code.co_flags & CO_VARARGS:
        vararg, i = arg(names[i]), i + 1
    if code.co_flags & CO_VARKEYWORDS:
        kwarg = arg(names[i])
    pos = [arg(n) for n in names[:npos]]
    kwonly = [arg(n) for n in names[npos : npos + nkw]]
    defaults = [d for d in fn.defaults if not isinstance(d, ast.Starred)]
    return ast.arguments(
        posonlyargs=pos[: code.co_posonlyargcount],
        args=pos[code.co_posonlyargcount :],
        vararg=vararg,
        kwonlyargs=kwonly,
        kw_defaults=[fn.kwdefaults.get(code.co_varnames[npos + k]) for k in range(nkw)],
        kwarg=kwarg,
        defaults=defaults[-npos:] if npos else [],
    )


def _annotation(code, value):
    if (
        isinstance(value, ast.Constant)
        and isinstance(value.value, str)
        and code.co_flags & 0x1000000
    ):
        try:
            return ast.parse(value.value, mode="eval").body
        except SyntaxError:
            return value
    return value


def _def_node(code, name, args, body, returns=None):
    is_async = code.co_flags & (CO_COROUTINE | CO_ASYNC_GENERATOR)
    kind = ast.AsyncFunctionDef if is_async else ast.FunctionDef
    return kind(name=name, args=args, body=body, decorator_list=[], returns=returns)


def function_def(code, defs, fn: m.Function, name: str):
    body = body_of(code, defs) or []
    body = _strip_docstring_confusion(code, body)
    if code.co_flags & (CO_GENERATOR | CO_ASYNC_GENERATOR) and not _has_yield_opcode(code):
        body.append(ast.If(test=m.const(False), body=[ast.Expr(value=ast.Yield())], orelse=[]))
    returns = fn.annotations.get("return")
    return _def_node(
        code, name, signature(code, fn), body or [ast.Pass()], _annotation(code, returns)
    )


def _strip_docstring_confusion(code, body):
    """A leading string constant would become a docstring; keep the real one only."""
    doc = code.co_consts[0] if code.co_consts and isinstance(code.co_consts[0], str) else None
    if doc is not None and inspect.cleandoc(doc) and (code.co_flags & 1):
        return [ast.Expr(value=m.const(doc)), *body]
    return body


def _has_yield_opcode(code) -> bool:
    return YIELD_VALUE in code.co_code[::2]


YIELD_VALUE = dis.opmap["YIELD_VALUE"]


def lambda_expr(fn: m.Function, defs):
    body = body_of(fn.code, defs, force_structured=True)
    if body == []:  # ``lambda: None``, whose return reads as the implicit one at the end
        body = [ast.Return(value=None)]
    value = _returned(body or [])
    if value is None:
        return None
    if fn.code.co_flags & CO_GENERATOR and not _has_yield_opcode(fn.code):
        return None  # its yield was dead code: only a def can say it is a generator
    return ast.Lambda(args=signature(fn.code, fn), body=value)


def _returned(body) -> ast.expr | None:
    """The one expression a body of returns under ifs returns, or None: 3.10 returns
    from each arm of ``lambda a: 1 if a else 2``, which reads back as if statements.
    A body that ends (its ``return None`` dropped as the implicit one) returns None."""
    if not body:
        return m.const(None)
    first = body[0]
    if isinstance(first, ast.Return) and len(body) == 1:
        return first.value or m.const(None)  # a generator's too: ``lambda: (yield)``
    if not isinstance(first, ast.If):
        return None
    rest = first.orelse if len(body) == 1 else body[1:] if not first.orelse else None
    then, otherwise = _returned(first.body), _returned(rest or [])
    if then is None or otherwise is None:
        return None
    return ast.IfExp(test=first.test, body=then, orelse=otherwise)


def class_def(cls: m.Class, defs, enclosing=None) -> ast.ClassDef:
    """The class statement; ``enclosing``: the context of the code that defines it."""
    outer = _function_names(enclosing, defs)
    defs.function_names.append(outer)
    try:
        body = body_of(cls.body.code, defs) or []
    finally:
        defs.function_names.pop()
    kept = [s for s in body if not _class_bookkeeping(s)]
    if kept and is_doc_store(kept[0]):
        kept[0] = ast.Expr(value=kept[0].value)
    docs = int(bool(kept) and _is_docstring(kept[0]))
    kept[docs:docs] = kept_bindings(_class_locals_dropped(cls.body.code, kept, outer))
    bases = [value_of(None, b) if isinstance(b, m.Marker) else b for b in cls.bases]
    return ast.ClassDef(
        name=cls.name,
        bases=bases,
        keywords=cls.keywords,
        body=kept or [ast.Pass()],
        decorator_list=[],
    )


def _function_names(enclosing, defs) -> set[str]:
    """The variables of the functions around a class that ``enclosing`` defines: the
    function's own, or those the class around sees."""
    if enclosing is None:
        return set()
    if enclosing.is_function:
        code = enclosing.code
        return {*code.co_varnames, *code.co_cellvars, *code.co_freevars}
    return defs.function_names[-1] if enclosing.is_class and defs.function_names else set()


def _class_locals_dropped(code, body, seen) -> set[str]:
    """Names a class body defined in a function reads from its own namespace (not
    free: the class assigns them) but assigns only in code the compiler dropped;
    ``seen``: the variables of the functions around."""
    if not seen:
        return set()
    # (a free name is the function's variable, unless the class body itself reads it
    # by LOAD_NAME: then only code nested in the class, a comprehension's inner
    # loop, reads the function's, and the class body the class's or the module's)
    own = {i.argval for i in dis.get_instructions(code) if i.opname == "LOAD_NAME"}
    free = set(code.co_freevars) - own
    return {n for n in read_unbound(body) & seen if n.isidentifier()} - free


def _class_bookkeeping(stmt) -> bool:
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target = stmt.targets[0]
        if isinstance(target, ast.Name):
            if target.id == "__type_params__":  # set from the generic class's [T, ...]
                return isinstance(stmt.value, ast.Name) and stmt.value.id == "__type_params__"
            return target.id in CLASS_BOOKKEEPING or target.id == "__classcell__"
    return bool(isinstance(stmt, ast.Return))
