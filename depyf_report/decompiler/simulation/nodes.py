"""Nodes that carry a fact from the pass that makes them to a later one.

Each class here is a subclass of the ``ast`` class of the same name: ``ast.unparse``
dispatches on the class name and ``compile`` takes subclasses, so they print and compile
as the plain ones. The fact is a declared field, set through the constructor; its class
default is what a plain node of that class means, and the readers below take plain nodes
too, as other passes build those. ``copy.copy`` and ``copy.deepcopy`` keep the fact;
a pass that builds a new node from the fields of one drops it, to the default.

Facts about values on the stack, which are whatever nodes the stack holds, are kept
apart from them, by identity: see ``Noted``.
"""

from __future__ import annotations

import ast


class If(ast.If):
    # Whether the else branch is where the test falls through to, as laid out: then
    # ``if c: A / else: break`` at the end of a loop body was written ``if not c: break``
    # then ``A`` (cleanup._loop_tail).
    orelse_falls: bool = True
    # The source line of the test's jump, where known: a comprehension's if clause
    # written on a line below its for (tidy/comprehensions.py, ``comprehension``).
    test_line: int | None = None

    def __init__(self, *args, orelse_falls: bool = True, test_line=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.orelse_falls = orelse_falls
        self.test_line = test_line


class For(ast.For):
    # The source line of the loop's header (FOR_ITER), where known (as ``If.test_line``).
    header_line: int | None = None

    def __init__(self, *args, header_line=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.header_line = header_line


class comprehension(ast.comprehension):  # (named as ast names it)
    # Which if clauses were written on a line below the clause before them: 3.12 compile
    # such a test to a jump of the other sense, so the line break is part of the code.
    if_breaks: tuple[bool, ...] = ()

    def __init__(self, *args, if_breaks=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.if_breaks = tuple(if_breaks)


class Pass(ast.Pass):
    # Whether this stands for an if branch that had code of its own, a jump past the
    # other branch: ``if c: pass / else: A`` compiles to that jump, ``if not c: A`` not
    # (cleanup._if).
    written: bool = False

    def __init__(self, *args, written: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.written = written


class Continue(ast.Continue):
    # Whether this is the end of a loop body reaching the loop's rotated test, where no
    # ``continue`` was written (cleanup._loop_tail).
    falls_off: bool = False

    def __init__(self, *args, falls_off: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.falls_off = falls_off


class Try(ast.Try):
    # Whether the else runs on past where the walk of it stopped, into the statements
    # after the try, which the clauses never reach (cleanup.close_else).
    else_runs_on: bool = False

    def __init__(self, *args, else_runs_on: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.else_runs_on = else_runs_on


if hasattr(ast, "TryStar"):  # 3.11+

    class TryStar(ast.TryStar):
        else_runs_on: bool = False  # as for ``Try``

        def __init__(self, *args, else_runs_on: bool = False, **kwargs):
            super().__init__(*args, **kwargs)
            self.else_runs_on = else_runs_on

else:
    TryStar = None


class Return(ast.Return):
    # Whether this returns one arm of a conditional expression, as 3.12+ compile
    # ``return a if c else b`` (versions.FUSED_RETURN; cleanup._conditional_returns).
    conditional_arm: bool = False

    def __init__(self, *args, conditional_arm: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.conditional_arm = conditional_arm


class Expr(ast.Expr):
    # Whether this is the value of a return through a finally body that never goes on:
    # the compiler writes no RETURN_VALUE, and the value is left on the stack as that
    # body's copy raises (branches._returned_through, Walk._dropped_at_a_break;
    # finally_returns.never_going_on).
    dropped_return: bool = False

    def __init__(self, *args, dropped_return: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.dropped_return = dropped_return


class Raise(ast.Raise):
    # Whether this stands for a bare ``raise`` in the state machine, which raises the
    # exception it tracks by name: a bare raise again where ``handling`` wraps it.
    bare: bool = False

    def __init__(self, *args, bare: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.bare = bare


class Name(ast.Name):
    # Whether LOAD_ASSERTION_ERROR loaded this ``AssertionError``: ``if not c: raise
    # AssertionError`` is then an assert statement (cleanup._assertion).
    from_assert: bool = False

    def __init__(self, *args, from_assert: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.from_assert = from_assert


class Call(ast.Call):
    # Whether this ``set()`` is BUILD_SET's empty set, which SET_UPDATE fills: a display
    # then, ``{'a', 'b', 'c'}`` or ``{*x}`` (handlers/expressions.py).
    set_display: bool = False

    def __init__(self, *args, set_display: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.set_display = set_display


class Match(ast.Match):
    # How many tests of the subject its cases stand for: the subject, a temporary,
    # goes inline only when those are all its reads (tidy/matches.py).
    tests: int = 1

    def __init__(self, *args, tests: int = 1, **kwargs):
        super().__init__(*args, **kwargs)
        self.tests = tests


_TRIES = (Try, TryStar) if TryStar else (Try,)
# try statements as ast has them, whoever built them
TRY_STATEMENTS = (ast.Try, ast.TryStar) if TryStar else (ast.Try,)
_CLASSES = {If, For, comprehension, Pass, Continue, Return, Expr, Raise, Name, Call, Match, *_TRIES}


def ast_class(node) -> type:
    """The class ``node`` counts as when trees are compared: its ``ast`` class for the
    classes here (``ast.dump`` shows the same name), else its own."""
    cls = type(node)
    return cls.__base__ if cls in _CLASSES else cls


def orelse_falls(node: ast.If) -> bool:
    return node.orelse_falls if isinstance(node, If) else True


def test_line(node: ast.stmt) -> int | None:
    return node.test_line if isinstance(node, If) else None


def header_line(node: ast.stmt) -> int | None:
    return node.header_line if isinstance(node, For) else None


def if_breaks(node: ast.comprehension) -> tuple[bool, ...]:
    return node.if_breaks if isinstance(node, comprehension) else ()


def written_pass(node: ast.stmt) -> bool:
    return isinstance(node, Pass) and node.written


def falls_off(node: ast.stmt) -> bool:
    return isinstance(node, Continue) and node.falls_off


def else_runs_on(node: ast.stmt) -> bool:
    return isinstance(node, _TRIES) and node.else_runs_on


def conditional_arm(node: ast.stmt) -> bool:
    return isinstance(node, Return) and node.conditional_arm


def dropped_return(node: ast.stmt) -> bool:
    return isinstance(node, Expr) and node.dropped_return


def bare(node: ast.stmt) -> bool:
    return isinstance(node, Raise) and node.bare


def from_assert(node) -> bool:
    return isinstance(node, Name) and node.from_assert


def failed_assertion(stmt: ast.stmt) -> ast.Assert | None:
    """``raise AssertionError(msg)`` from LOAD_ASSERTION_ERROR as ``assert False, msg``,
    whose test the compiler drops; ``stmt`` itself if it is that assert; else None.
    Written as a raise, it would name ``AssertionError``, which a local or global may
    shadow: LOAD_ASSERTION_ERROR raises the builtin."""
    if isinstance(stmt, ast.Assert):
        test = stmt.test
        return stmt if isinstance(test, ast.Constant) and test.value is False else None
    if not isinstance(stmt, ast.Raise) or stmt.cause is not None:
        return None
    exc, msg = stmt.exc, None
    if isinstance(exc, ast.Call) and len(exc.args) == 1 and not exc.keywords:
        exc, msg = exc.func, exc.args[0]
    if not from_assert(exc):
        return None
    return ast.Assert(test=ast.Constant(value=False), msg=msg)


def set_display(node) -> bool:
    return isinstance(node, Call) and node.set_display


class Noted:
    """Values on the stack that a handler noted for a later one, by identity. The values
    are kept too, so that no id is reused for another node while they are noted."""

    def __init__(self):
        self._values: dict[int, object] = {}

    def add(self, value) -> None:
        self._values[id(value)] = value

    def __contains__(self, value) -> bool:
        return id(value) in self._values


class StatementLines:
    """The source lines each statement stands for, by identity: the lines of the
    instructions that simulation ran to produce it (the code object's line table).
    Kept only where a caller asks for line comments (``decompile(..., dynamo=True)``).
    The statements are kept too, so that no id is reused while they are noted."""

    def __init__(self):
        self._lines: dict[int, tuple[ast.stmt, frozenset[int]]] = {}

    def note(self, stmt: ast.stmt, lines) -> None:
        lines = frozenset(n for n in lines if n is not None)
        if lines:
            self._lines[id(stmt)] = (stmt, lines | self.of(stmt))

    def of(self, stmt: ast.stmt) -> frozenset[int]:
        entry = self._lines.get(id(stmt))
        return entry[1] if entry is not None and entry[0] is stmt else frozenset()

    def comment(self, stmt: ast.stmt) -> str | None:
        """``line 15`` or ``lines 13-14`` (the lowest and highest), or None."""
        lines = self.of(stmt)
        if not lines:
            return None
        low, high = min(lines), max(lines)
        return f"line {low}" if low == high else f"lines {low}-{high}"
