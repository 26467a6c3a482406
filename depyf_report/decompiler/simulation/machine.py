"""Symbolic execution of one basic block: stack values become ``ast`` expressions.

Handlers for each opcode family live in ``handlers/`` and are looked up in
``registry.HANDLERS``. Expressions stay on the stack until consumed; before
a statement is emitted, every stack entry whose value could change or whose evaluation has
side effects is spilled to a temporary, so evaluation order always matches the bytecode.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from ..bytecode.instructions import SourceLines
from . import markers as m
from .concrete import concrete
from .nodes import Noted, StatementLines
from .registry import HANDLERS
from .unsupported import Unsupported

# Statements that a local's load may stay on the stack over unnoted: stores and the
# unbinding of a name (``except E as e: return x``), and the marks of a with's exit.
_SAFE_OVER_A_LOAD = (ast.Assign, ast.Delete, m.ExitedWith)
# Markers that stay on the stack until the construct that pushed them consumes them.
STAYING = (m.WithExit, m.Entered, m.Saved, m.NextItem, m.Exception_, m.HandledBefore, m.WithDone)


@dataclass
class Branch:
    """How a block ends: ``kind`` is goto, cond, keep (JUMP_IF_X_OR_POP), for, return, raise."""

    kind: str
    test: ast.expr | None = None
    jump_when: bool = True


class CodeContext:
    """What every block of one code object shares: names, temporaries, nested decompiling."""

    def __init__(self, code, nested, structured: bool):
        self.code = code
        # The call's definitions builder (pipeline.definitions.Definitions): writes
        # nested functions and classes, and holds the call's own state.
        self.nested = nested
        self.objects: m.ObjectConstants = nested.objects  # this call's object constants
        # The call's table of the source lines each statement stands for, where asked.
        self.lines: StatementLines | None = nested.lines
        self.source_lines = SourceLines(code) if self.lines is not None else None
        self.structured = structured
        self.fast = {m.safe(n) for n in set(code.co_varnames) - set(code.co_cellvars)}
        self.cells = set(code.co_cellvars) | set(code.co_freevars)
        # Fast locals that are no argument: a load of one can raise (unbound).
        self.unbindable = self.fast - {m.safe(n) for n in code.co_varnames[: _arg_count(code)]}
        self.is_class = not code.co_flags & 1 and code.co_name != "<module>"
        # In a class body, invented names are private (mangled): an Enum ignores them.
        self.prefix = _temp_prefix(code, "__" if self.is_class else "_")
        self.counter = 0
        self.stored_globals: set[str] = set()
        self.stored_free: set[str] = set()
        self.is_function = bool(code.co_flags & 1)  # CO_OPTIMIZED
        self.helpers: set[str] = set()  # helper functions the emitted code calls
        self._bound: set[str] | None = None
        self._declared: set[str] | None = None
        self._cleared: set[str] | None = None
        # Values on the stack that POP_TOP drops without a statement (handlers/statements):
        # the copy of ``a`` that ``a or b`` tests, and a name read once for two entries.
        self.tested_copies = Noted()
        self.copied_names = Noted()
        # Loads of such locals that stayed on the stack while a statement ran: the
        # load came first (handlers/statements: pop_top).
        self.held_locals = Noted()
        # Async comprehensions written inline: their await is part of the syntax.
        self.awaited_by_caller = Noted()

    def builtin(self, ident: str) -> ast.expr:
        """A builtin the emitted code calls on its own account (``next`` in the state
        machine): through ``builtins`` when the code binds a name that would shadow it."""
        if self._bound is None:
            self._bound = _bound_names(self.code)
        if ident not in self._bound:
            return m.name(ident)
        module = m.call("__import__", [m.const("builtins")])
        return ast.Attribute(value=module, attr=ident, ctx=ast.Load())

    def declared_outside(self, instrs) -> set[str]:
        """The names ``instrs`` store or delete as globals or free variables: a class
        body declares them ``global`` or ``nonlocal``."""
        if self._declared is None:
            ops = ("STORE_DEREF", "DELETE_DEREF", "STORE_GLOBAL", "DELETE_GLOBAL")
            self._declared = {i.argval for i in instrs if i.op in ops}
        return self._declared

    def cleared_locals(self, instrs) -> set[str]:
        """The fast locals a 3.12+ inlined comprehension saves and clears around it."""
        if self._cleared is None:
            self._cleared = {i.argval for i in instrs if i.op == "LOAD_FAST_AND_CLEAR"}
        return self._cleared

    @property
    def unbound_mark(self) -> str:
        """The state machine's stand-in for a saved local that was unbound."""
        return f"{self.prefix}unbound"

    def temp(self, kind: str = "t") -> str:
        self.counter += 1
        return f"{self.prefix}{kind}{self.counter}"

    def hidden_local(self, ident: str) -> str:
        """The invented name a module or class body's fast local is stored under: a
        temporary's (numbered 0, which no temporary is)."""
        return f"{self.prefix}t0_{m.safe(ident)}"

    def shown_local(self, ident: str) -> str:
        """The name ``hidden_local`` hid as ``ident``."""
        return ident[len(f"{self.prefix}t0_") :]

    def is_hidden_local(self, ident: str) -> bool:
        """Whether ``ident`` is a name ``hidden_local`` invented."""
        return ident.startswith(f"{self.prefix}t0_")

    def namespace_key(self, ident: str) -> str:
        """The key ``ident`` has in this body's namespace: in a class body the compiler
        mangles private names."""
        owner = self.code.co_name.lstrip("_")
        if self.is_class and owner and ident.startswith("__") and not ident.endswith("__"):
            return f"_{owner}{ident}"
        return ident

    def is_temp(self, ident: str) -> bool:
        """A temporary (``_t3``) or a state machine's stack slot (``_s0``); not a name of
        the code's own that starts alike (``_sysrand``, ``_tally``)."""
        rest = ident[len(self.prefix) + 1 :]
        return (
            ident.startswith(self.prefix)
            and ident[len(self.prefix) : len(self.prefix) + 1] in ("t", "s")
            and rest.isdigit()
            and rest.isascii()
        )


def _bound_names(code) -> set[str]:
    """Names ``code`` or its nested code may bind: locals, cells, and in a module or
    class body, its own names."""
    names = set()
    stack = [code]
    while stack:
        c = stack.pop()
        names.update(c.co_varnames, c.co_cellvars, c.co_freevars)
        if not c.co_flags & 1:  # not CO_OPTIMIZED: names are stored by name
            names.update(c.co_names)
        stack.extend(k for k in c.co_consts if hasattr(k, "co_code"))
    return names


def _temp_prefix(code, prefix: str = "_") -> str:
    """A prefix for invented names that no name in ``code`` or its nested code starts with."""
    names = set()
    stack = [code]
    while stack:
        c = stack.pop()
        names.update(c.co_varnames, c.co_names, c.co_cellvars, c.co_freevars)
        stack.extend(k for k in c.co_consts if hasattr(k, "co_code"))
    while True:
        taken = re.compile(re.escape(prefix) + r"([ts]\d|state|handled|exc|match_class)")
        if not any(taken.match(n) for n in names):
            return prefix
        prefix += "_"


class Sim:
    """The value stack and statement list of one block being decompiled."""

    def __init__(self, ctx: CodeContext, instrs, stack: list):
        self.ctx = ctx
        self.instrs = instrs
        self.stack = stack
        self.out: list[ast.stmt] = []
        self.kwnames: tuple = ()
        self.branch: Branch | None = None
        self.pos = 0
        self.skip = 0
        self.chain = None  # a chained assignment whose targets are being stored
        self.parallel = None  # ``T1, T2 = v1, v2`` whose targets are being stored
        self.first = 0  # the first instruction of the statement being built
        self.end = len(instrs)  # where the block being run ends

    # -- stack ------------------------------------------------------------
    def push(self, value) -> None:
        self.stack.append(value)

    def pop(self):
        if not self.stack:
            raise Unsupported("stack underflow")
        return self.stack.pop()

    def popn(self, n: int) -> list:
        if n == 0:
            return []
        if len(self.stack) < n:
            raise Unsupported("stack underflow")
        values = self.stack[-n:]
        del self.stack[-n:]
        return values

    def peek(self, n: int = 1):
        if len(self.stack) < n:
            raise Unsupported("stack underflow")
        return self.stack[-n]

    def next_instr(self):
        nxt = self.pos + 1
        return self.instrs[nxt] if nxt < len(self.instrs) else None

    # -- running ----------------------------------------------------------
    def run(self, start: int, end: int) -> None:
        """Execute instructions [start, end); stops early at a block terminator."""
        self.pos = self.first = start
        self.end = end
        while self.pos < end and self.branch is None:
            ins = self.instrs[self.pos]
            handler = HANDLERS.get(ins.op)
            if handler is None:
                raise Unsupported(f"no handler for {ins.op}")
            handler(self, ins)
            self.pos += 1 + self.skip
            self.skip = 0
        return self.pos

    # -- statements -------------------------------------------------------
    def emit(self, stmt: ast.stmt, targets=()) -> None:
        self.spill(targets)
        if not isinstance(stmt, _SAFE_OVER_A_LOAD):
            for value in self.stack:
                if isinstance(value, ast.Name) and value.id in self.ctx.unbindable:
                    self.ctx.held_locals.add(value)
        self.out.append(stmt)
        self._note_lines(stmt)

    def spill(self, targets=(), strict=False) -> None:
        """Assign impure stack values to temporaries; ``strict`` also moves local names,
        whose loading can raise (unbound) and so must stay inside a try."""
        for i, value in enumerate(self.stack):
            loads = strict and isinstance(value, ast.Name) and not self.ctx.is_temp(value.id)
            if loads or not self.is_pure(value, targets):
                self.stack[i] = self.materialize(value)

    def assign_temp(self, value) -> ast.Name:
        ident = self.ctx.temp()
        stmt = ast.Assign(targets=[m.name(ident, True)], value=value)
        self.out.append(stmt)
        self._note_lines(stmt)
        return m.name(ident)

    def _note_lines(self, stmt: ast.stmt) -> None:
        """Note the lines of the instructions run since the last statement."""
        table, source = self.ctx.lines, self.ctx.source_lines
        if table is None:
            return
        last = min(self.pos, len(self.instrs) - 1)
        table.note(stmt, (source.at(i.offset) for i in self.instrs[self.first : last + 1]))
        self.first = last + 1

    def materialize(self, value):
        """Real Python for a stack value, assigned to a temporary when it is not trivial."""
        if isinstance(value, m.Null):
            return value
        value = concrete(self, value)
        if isinstance(value, ast.Constant) or (
            isinstance(value, ast.Name) and self.ctx.is_temp(value.id)
        ):
            return value
        return self.assign_temp(value)

    def materialize_value(self, value):
        return concrete(self, value)

    def is_pure(self, value, targets=()) -> bool:
        """Whether ``value`` can be evaluated later, or twice, with the same result."""
        if isinstance(value, (ast.Constant, m.Null, m.BuildClass, m.Cells)):
            return True
        if isinstance(value, ast.Name):
            if self.ctx.is_temp(value.id):
                return value.id not in targets
            return value.id in self.ctx.fast and value.id not in targets
        if isinstance(value, (m.Import, m.ImportFrom)):
            return True  # stays on the stack until its names are all stored
        if isinstance(value, m.Iter) and self.ctx.structured:
            return True  # consumed only by its loop, which evaluates it once
        if isinstance(value, m.Function):
            return all(self.is_pure(v, targets) for v in _function_parts(value))
        return isinstance(value, STAYING)


def _arg_count(code) -> int:
    """How many of ``code``'s first fast locals are its arguments."""
    star = bool(code.co_flags & 0x04) + bool(code.co_flags & 0x08)  # *args, **kwargs
    return code.co_argcount + code.co_kwonlyargcount + star


def _function_parts(fn: m.Function):
    yield from fn.defaults
    yield from fn.kwdefaults.values()
    yield from fn.annotations.values()
