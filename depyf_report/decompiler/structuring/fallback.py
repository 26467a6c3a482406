"""The state machine that never gives up: every block becomes one branch of
``while True: if state == N: ...``, with the stack between blocks held in slot variables
and exception handlers reached through ``try/except BaseException``."""

from __future__ import annotations

import ast
import dataclasses
from collections import deque

from ..graph.cfg import Graph
from ..simulation import markers as m
from ..simulation import nodes
from ..simulation.handlers.exceptions import HELPERS, helper_defs
from ..simulation.machine import CodeContext, Sim
from .handling import ENTER, LEAVE, handling_depths, wrap
from .inlined import InlinedComprehensions

MARK = "__depyf_region__"

# The comment that marks each body written as a state machine.
STATE_MACHINE_NOTE = "control flow not structured: a state machine over basic blocks"


# The instructions on a frame's fast locals.
_FAST = ("LOAD_FAST", "LOAD_FAST_CHECK", "STORE_FAST", "DELETE_FAST", "LOAD_FAST_AND_CLEAR")


# The instructions on a function's globals.
_GLOBAL = ("LOAD_GLOBAL", "STORE_GLOBAL", "DELETE_GLOBAL")


def hidden_locals_renamed(instrs, ctx: CodeContext) -> list:
    """``instrs`` with a module or class body's fast locals under invented names.

    A comprehension inlined in such a body (3.12+) keeps its variables in the frame's
    fast locals, never in the namespace; the machine can only store them by name, so it
    stores them under invented names, which it removes from the namespace at the end.
    The same goes for a function's fast local that is also the name of a global the
    function declares (a comprehension's own variable, or a walrus target the compiler
    saves around it): by that name the machine would store the global."""
    cleared = {i.argval for i in instrs if i.op == "LOAD_FAST_AND_CLEAR"}
    if ctx.is_function:
        cleared &= {i.argval for i in instrs if i.op in _GLOBAL}
    return [
        dataclasses.replace(i, argval=ctx.hidden_local(i.argval))
        if i.op in _FAST and i.argval in cleared
        else i
        for i in instrs
    ]


def comment(text: str) -> ast.stmt:
    """A statement that ``api`` turns into a ``# text`` comment after unparsing."""
    return ast.Expr(value=m.const(f"{MARK}{text}"))


class StateMachine:
    def __init__(
        self, ctx: CodeContext, graph: Graph, inlined: InlinedComprehensions | None = None
    ):
        self.ctx, self.graph = ctx, graph
        self.inlined = inlined  # regions written as comprehensions (their own scope)
        self.state = ctx.prefix + "state"
        self.exc = ctx.prefix + "exc"
        self.shapes: dict[int, list[bool]] = {0: []}  # per block: which slots hold NULL
        self.bodies: dict[int, list[ast.stmt]] = {}
        self.handling = handling_depths(graph)
        self.kept_levels = self._levels_returned_to()

    def slot(self, i: int) -> str:
        return f"{self.ctx.prefix}s{i}"

    def build(self) -> list[ast.stmt]:
        queue = deque([0])
        while queue:
            block = self.graph.blocks[queue.popleft()]
            if block.id in self.bodies:
                continue
            self.bodies[block.id] = self._block(block, queue)
        # Flat ``if state == N: ...; continue`` tests: no nesting however many blocks.
        cases = [self._case(bid, body) for bid, body in sorted(self.bodies.items())]
        start = [ast.Assign(targets=[m.name(self.state, True)], value=m.const(0))]
        if self._tracks_handled():
            handled = m.name(self.ctx.prefix + "handled", True)
            start.append(ast.Assign(targets=[handled], value=m.const(None)))
        if self.ctx.is_function and self.ctx.cleared_locals(self.graph.instrs):
            mark = m.name(self.ctx.unbound_mark, True)
            start.append(ast.Assign(targets=[mark], value=m.call(self.ctx.builtin("object"))))
        start += helper_defs(self.ctx)
        loop = ast.While(test=m.const(True), body=cases, orelse=[])
        note = comment(STATE_MACHINE_NOTE)
        if self.ctx.is_function:
            return [note, *_future_imports(cases), *start, loop]
        # the machine's names go from a module or class namespace however it ends
        forget = self._forget([*start, loop])
        ending = ast.Try(body=[*start, loop], handlers=[], orelse=[], finalbody=[forget])
        return [note, *_future_imports(cases), ending]

    def _forget(self, body) -> ast.stmt:
        """Remove the machine's own names from a module or class namespace afterwards."""
        names = {
            n.id
            for stmt in body
            for n in ast.walk(stmt)
            if isinstance(n, ast.Name) and self._invented(n.id)
        }
        return forget(self.ctx, names)

    def _invented(self, ident: str) -> bool:
        prefix = self.ctx.prefix
        own = ("state", "exc", "handled", *HELPERS, *map(self._handled_at, self.kept_levels))
        invented = self.ctx.is_temp(ident) or self.ctx.is_hidden_local(ident)
        return invented or ident in {prefix + name for name in own}

    def _levels_returned_to(self) -> set[int]:
        """How many exceptions are being handled at each handler that 3.10 reaches by
        leaving except clauses without a cleanup (``Handler.pops``): the exception
        handled there is kept when a clause starts, to be handled again there."""
        if not self.handling:
            return set()
        return {
            self.handling[self.graph.handler_block(b)]
            for b in self.graph.blocks
            if b.handler is not None and b.handler.pops and b.id in self.handling
        }

    def _handled_at(self, level: int) -> str:
        """The name keeping the exception handled at ``level`` while a clause runs."""
        return f"handled{level}"

    def _set_handled(self, target: str, source: str) -> ast.stmt:
        prefix = self.ctx.prefix
        return ast.Assign(targets=[m.name(prefix + target, True)], value=m.name(prefix + source))

    def _tracks_handled(self) -> bool:
        """Whether the code needs the handled exception (bare raise, except blocks)."""
        return any(
            i.op == "PUSH_EXC_INFO" or (i.op == "RAISE_VARARGS" and not i.arg)
            for i in self.graph.instrs
        )

    def _case(self, bid: int, body) -> ast.If:
        test = ast.Compare(left=m.name(self.state), ops=[ast.Eq()], comparators=[m.const(bid)])
        ends = body and isinstance(body[-1], (ast.Return, ast.Raise, ast.Break))
        return ast.If(test=test, body=body + ([] if ends else [ast.Continue()]), orelse=[])

    def _entry_stack(self, block) -> list:
        shape = self.shapes[block.id]
        return [m.Null() if null else m.name(self.slot(i)) for i, null in enumerate(shape)]

    def _block(self, block, queue) -> list[ast.stmt]:
        if self.inlined is not None and block.start in self.inlined.regions:
            return self._comprehension(block, queue)
        sim = Sim(self.ctx, self.graph.instrs, self._entry_stack(block))
        depth = block.handler.depth if block.handler else 0
        handling = self.handling.get(block.id, 0) if self.handling else 0
        marks = [(handling, 0)]  # (exceptions being handled, from this statement on)
        pos = block.start
        while pos < block.end and sim.branch is None:
            op = self.graph.instrs[pos].op
            if op == ENTER and handling in self.kept_levels:
                sim.out.append(self._set_handled(self._handled_at(handling), "handled"))
            pos = sim.run(pos, pos + 1)
            if depth and not self._slots_intact(sim.stack, depth):
                sim.out.append(self._store_slots(sim, sim.stack))
                sim.stack = self._slot_stack(sim.stack)
            if self.handling and op in (ENTER, LEAVE):
                handling += 1 if op == ENTER else -1
                marks.append((handling, len(sim.out)))
        leave = self._exit(block, sim, queue)  # (which may rewrite the last statement)
        # (tidy, which writes asserts back, does not run on a state machine)
        body = [nodes.failed_assertion(s) or s for s in sim.out] + leave
        ends = [start for _, start in marks[1:]] + [len(body)]
        body = wrap([(d, body[start:end]) for (d, start), end in zip(marks, ends)], self.ctx)
        if block.handler is None:
            return body
        return [self._protect(block, body, queue)]

    def _comprehension(self, block, queue) -> list[ast.stmt]:
        """An inlined comprehension whose variable is a cell, written as one (its own
        scope gives it a fresh cell each run, as the original's MAKE_CELL does)."""
        stack = self._entry_stack(block)
        stmts, after = self.inlined.value(self.ctx, block.start, stack)
        store = self._store_slots(Sim(self.ctx, self.graph.instrs, []), after)
        end = self.graph.at(self.inlined.regions[block.start])
        body = [*stmts, *([store] if store else []), self._goto(end, after, queue)]
        handling = self.handling.get(block.id, 0) if self.handling else 0
        body = wrap([(handling, body)], self.ctx)
        return body if block.handler is None else [self._protect(block, body, queue)]

    def _slots_intact(self, stack, depth: int) -> bool:
        for i in range(min(depth, len(stack))):
            v = stack[i]
            if not isinstance(v, m.Null) and not (isinstance(v, ast.Name) and v.id == self.slot(i)):
                return False
        return True

    def _slot_stack(self, stack) -> list:
        return [v if isinstance(v, m.Null) else m.name(self.slot(i)) for i, v in enumerate(stack)]

    def _store_slots(self, sim, stack, extra=()) -> ast.stmt | None:
        """One parallel assignment moving the stack (and ``extra`` pairs) into slots."""
        pairs = []
        for i, v in enumerate(stack):
            if isinstance(v, m.Null) or (isinstance(v, ast.Name) and v.id == self.slot(i)):
                continue
            pairs.append((self.slot(i), sim.materialize_value(v)))
        pairs.extend(extra)
        if not pairs:
            return None
        if len(pairs) == 1:
            return ast.Assign(targets=[m.name(pairs[0][0], True)], value=pairs[0][1])
        targets = ast.Tuple(elts=[m.name(n, True) for n, _ in pairs], ctx=ast.Store())
        values = ast.Tuple(elts=[v for _, v in pairs], ctx=ast.Load())
        return ast.Assign(targets=[targets], value=values)

    def _goto(self, target: int, stack, queue) -> ast.stmt:
        return self._goto_shaped(target, [isinstance(v, m.Null) for v in stack], queue)

    def _goto_shaped(self, target: int, shape: list[bool], queue) -> ast.stmt:
        """The jump to ``target``, whose stack has NULL in the slots ``shape`` marks."""
        self._reach(target, shape, queue)
        return ast.Assign(targets=[m.name(self.state, True)], value=m.const(target))

    def _reach(self, target: int, shape, queue) -> None:
        if target not in self.shapes:
            self.shapes[target] = shape
            queue.append(target)

    def _exit(self, block, sim, queue) -> list[ast.stmt]:
        """Statements that move the stack into slots and pick the next state."""
        branch, succs, stack = sim.branch, block.succs, sim.stack
        kind = branch.kind if branch else "goto"
        if kind in ("return", "raise"):
            if kind == "return" and not self.ctx.is_function:
                sim.out[-1] = ast.Break()
            return []
        if kind == "cond":
            return self._two_way(sim, stack, stack, branch.test, branch.jump_when, succs, queue)
        if kind == "keep":
            test = m.name(self.slot(len(stack) - 1))
            return self._two_way(sim, stack, stack[:-1], test, branch.jump_when, succs, queue, True)
        if kind == "for":
            return self._for_iter(sim, stack, succs, queue)
        store = self._store_slots(sim, stack)
        return [s for s in (store, self._goto(succs[-1], stack, queue)) if s is not None]

    def _two_way(self, sim, jump_stack, fall_stack, test, jump_when, succs, queue, keep=False):
        store = self._store_slots(sim, jump_stack)
        flag = test
        if store is not None and not keep:
            flag = m.name(self.ctx.temp())
            store = self._store_slots(sim, jump_stack, [(flag.id, test)])
        jump = self._goto(succs[-1], jump_stack, queue)
        fall = self._goto(succs[0], fall_stack, queue) if len(succs) > 1 else jump
        if not jump_when:
            jump, fall = fall, jump
        choice = ast.IfExp(test=flag, body=jump.value, orelse=fall.value)
        pick = ast.Assign(targets=[m.name(self.state, True)], value=choice)
        return [s for s in (store, pick) if s is not None]

    def _for_iter(self, sim, stack, succs, queue):
        store = self._store_slots(sim, stack)
        item = self.slot(len(stack))
        source = m.name(self.slot(len(stack) - 1))
        step = ast.Assign(
            targets=[m.name(item, True)], value=m.call(self.ctx.builtin("next"), [source])
        )
        done = self._goto(succs[-1], stack[:-1], queue)
        more = self._goto(succs[0], [*self._slot_stack(stack), m.name(item)], queue)
        stop = ast.ExceptHandler(type=self.ctx.builtin("StopIteration"), name=None, body=[done])
        trial = ast.Try(body=[step], handlers=[stop], orelse=[more], finalbody=[])
        return [s for s in (store, trial) if s is not None]

    def _protect(self, block, body, queue) -> ast.stmt:
        handler = block.handler
        target = self.graph.handler_block(block)
        shape = self.shapes[block.id][: handler.depth]
        exc = m.name(self.exc)
        pushed = [m.const(-1)] if handler.lasti else []
        pushed.append(exc)
        catch = []
        if handler.pops and self.handling:  # 3.10 leaves clauses on the way: the outer one
            catch.append(self._set_handled("handled", self._handled_at(self.handling[target])))
        for n, value in enumerate(pushed):
            slot = self.slot(handler.depth + n)
            catch.append(ast.Assign(targets=[m.name(slot, True)], value=value))
        catch.append(self._goto_shaped(target, shape + [False] * len(pushed), queue))
        clause = ast.ExceptHandler(
            type=self.ctx.builtin("BaseException"), name=self.exc, body=catch
        )
        return ast.Try(body=body, handlers=[clause], orelse=[], finalbody=[])


def _future_imports(cases) -> list[ast.stmt]:
    """``from __future__`` imports must come first: lift them out of the first block."""
    if not cases:
        return []
    body = cases[0].body
    lifted = [s for s in body if isinstance(s, ast.ImportFrom) and s.module == "__future__"]
    cases[0].body = [s for s in body if s not in lifted] or [ast.Pass()]
    return lifted


def forget(ctx, names) -> ast.stmt:
    """A statement that removes invented ``names`` from a module or class namespace:
    ``list(map(locals().pop, names, [None] * n))`` leaves no name behind itself, and
    passes over a name a path left unbound."""
    names = sorted(ctx.namespace_key(n) for n in names)
    pop = ast.Attribute(value=m.call(ctx.builtin("locals")), attr="pop", ctx=ast.Load())
    keys = ast.Tuple(elts=[m.const(n) for n in names], ctx=ast.Load())
    nones = ast.BinOp(
        left=ast.List(elts=[m.const(None)], ctx=ast.Load()),
        op=ast.Mult(),
        right=m.const(len(names)),
    )
    return ast.Expr(
        value=m.call(ctx.builtin("list"), [m.call(ctx.builtin("map"), [pop, keys, nones])])
    )
