"""Except-clause code in the state machine runs while its exception is being handled.

The machine catches every exception with ``except BaseException`` and runs the clause
in a later state, outside that ``except``: ``sys.exc_info()`` would see nothing, and an
exception raised there would not chain to the one being handled. So the statements
between ``PUSH_EXC_INFO`` and ``POP_EXCEPT`` run inside ``try: raise h except: ...``,
which makes the saved exception ``h`` the handled one again; its traceback and context,
which raising it changes, are put back first.

3.10 has no cleanup handler where a clause starts with no room for one (``finally:
pass``): an exception raised there goes straight to the handler outside, leaving the
clause (``Handler.pops``), and is handled one level out. The machine keeps the exception
handled at that level when the clause starts, and handles it again there.
"""

from __future__ import annotations

import ast

from ..simulation import markers as m
from ..simulation import nodes

ENTER, LEAVE = "PUSH_EXC_INFO", "POP_EXCEPT"
RAISES = {"RERAISE", "RAISE_VARARGS"}


def handling_depths(graph) -> dict[int, int] | None:
    """How many exceptions are being handled when each block starts, or None when a
    block is reached at different depths (then nothing is wrapped)."""
    instrs = graph.instrs
    depths = {0: 0}
    todo = [0]
    while todo:
        block = graph.blocks[todo.pop()]
        depth = depths[block.id]
        ops = [i.op for i in instrs[block.start : block.end]]
        after = depth + ops.count(ENTER) - ops.count(LEAVE)
        # Where it raises: after its first instruction, or at its end for a re-raise.
        raising = after if ops[-1] in RAISES else depth + (ops[0] == ENTER) - (ops[0] == LEAVE)
        handler = graph.handler_block(block)
        edges = [(s, after) for s in block.succs]
        if handler is not None:
            edges.append((handler, raising - block.handler.pops))
        for s, d in edges:
            if s not in depths:
                depths[s] = d
                todo.append(s)
            elif d < 0 or depths[s] != d:
                return None
    return depths


def wrap(segments, ctx) -> list[ast.stmt]:
    """Statements of one block from ``segments`` of (handling depth, statements)."""
    out: list[ast.stmt] = []
    for depth, stmts in segments:
        if depth > 0 and stmts:
            out += _while_handling(stmts, ctx)
        else:
            out += stmts
    return out


def _while_handling(stmts, ctx) -> list[ast.stmt]:
    handled = m.name(ctx.prefix + "handled")
    saved = m.name(ctx.temp())
    parts = [ast.Attribute(value=handled, attr=a, ctx=ast.Load()) for a in _KEPT]
    save = ast.Assign(targets=[m.name(saved.id, True)], value=ast.Tuple(elts=parts, ctx=ast.Load()))
    restored = [ast.Attribute(value=handled, attr=a, ctx=ast.Store()) for a in _KEPT]
    restore = ast.Assign(targets=[ast.Tuple(elts=restored, ctx=ast.Store())], value=saved)
    # The exception being handled here is the one a bare raise re-raises, and raising
    # it by name, as the machine does elsewhere, would add to its traceback.
    stmts = [ast.Raise() if nodes.bare(s) else s for s in stmts]
    clause = ast.ExceptHandler(type=ctx.builtin("BaseException"), name=None, body=[restore, *stmts])
    again = ast.Raise(exc=handled, cause=None)
    return [save, ast.Try(body=[again], handlers=[clause], orelse=[], finalbody=[])]


_KEPT = ("__traceback__", "__context__")
