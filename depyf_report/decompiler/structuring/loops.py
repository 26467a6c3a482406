"""Loops: what one is, which statements and blocks belong to it, and where its
``break`` and ``continue`` go. The walk builds them in ``whiles.py`` and ``fors.py``."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from ..graph.analysis import dominators
from ..simulation.unsupported import Unsupported

# A break or continue inside these belongs to them, not to the loop around.
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def loop_nodes(node):
    """Nodes of ``node`` that belong to the same loop (not nested loops or scopes): the
    ones a ``break`` or ``continue`` among them would leave or repeat."""
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        for child in ast.iter_child_nodes(n):
            if not isinstance(child, (ast.For, ast.While, ast.AsyncFor, *_SCOPES)):
                todo.append(child)


@dataclass(frozen=True)
class Loop:
    header: int
    follow: int | None
    body: frozenset
    outer: Loop | None
    breaks: frozenset = frozenset()  # blocks other than ``follow`` that a break goes to
    else_start: int | None = None  # a while loop's else clause, where its test leaves for
    inside: frozenset = frozenset()  # ends of the with and try bodies the loop is inside


def starts_above(w, x, h) -> bool:
    """Whether block ``x`` starts with more on the stack than the loop's header ``h``
    (as the compiler counted): a value the body pushed is still there (a match
    subject, an inlined comprehension's list), so ``x`` is the body's own code, and
    a pop first is of that value, not of the loop's iterator."""
    depth, header = w.depth_at(w.blocks[x].start), w.depth_at(w.blocks[h].start)
    return depth is not None and header is not None and depth > header


def inside_entered(w, h, body, x) -> bool:
    """Whether block ``x`` is inside a with or try body that the loop at ``h`` (of the
    blocks ``body``) entered, which the loop cannot end inside."""
    around = w.regions.chain(h)
    return any(
        a not in around and not body.isdisjoint(w.regions.region(a)) for a in w.regions.chain(x)
    )


def check_body_ends(stack) -> None:
    """Every path through a loop body goes back, leaves or returns: one that stopped at
    the end of an enclosing with/try body instead would lose the rest of the loop."""
    if stack is not None:
        raise Unsupported("loop body stops at the end of an enclosing region")


def else_clause(w, start, follow, stack, outer, active) -> list:
    """A loop's else clause, from ``start`` to the loop's ``follow``. One that stops
    at the end of an enclosing with or try body instead (the loop ran out, and goes on
    after that statement) cannot be written when code after the loop would run then,
    in the else clause's place."""
    orelse, after = w.seq(start, follow, stack, outer, active=active)
    ended = w.ended_at
    if after is None or ended == follow or follow in w.fences:
        return orelse  # (a follow that is a fence, or its copy: the body ends there too)
    if not goes_on_unwritten(w, follow, ended):
        raise Unsupported("a loop's else clause leaves the with or try body around it")
    return orelse


# What the code after a loop may do and still write nothing: the iterator's pop, an
# except clause's exit and the clearing of its name (``e = None; del e``).
_UNWRITTEN = {"POP_TOP", "POP_EXCEPT", "NOP", "JUMP"}
_CLEARS = {("STORE_FAST", "DELETE_FAST"), ("STORE_NAME", "DELETE_NAME")}
_CLEARS |= {("STORE_DEREF", "DELETE_DEREF"), ("STORE_GLOBAL", "DELETE_GLOBAL")}


def goes_on_unwritten(w, b, end) -> bool:
    """Whether block ``b`` goes straight on to ``end`` doing nothing that is written."""
    block = w.blocks[b]
    if block.succs != [end]:
        return False
    ops = w.graph.instrs[block.start : block.end]
    at = 0
    while at < len(ops):
        ins = ops[at]
        if ins.op in _UNWRITTEN:
            at += 1
            continue
        if not clears_a_name(ops, at):
            return False
        at += 3
    return True


def clears_a_name(ops, at) -> bool:
    """Whether instructions ``ops[at:]`` start with the clearing of an except
    clause's name: ``e = None; del e``."""
    clear = ops[at : at + 3]
    return (
        len(clear) == 3
        and clear[0].op == "LOAD_CONST"
        and clear[0].argval is None
        and (clear[1].op, clear[2].op) in _CLEARS
        and clear[1].argval == clear[2].argval
    )


def dead_ends_dropped(w, exits, h, body) -> set[int]:
    """Exits that only end by raising (3.12+ lay such blocks out after the loop; a
    round's rest that never goes round again is left out of the natural loop) are
    reached from inside it, not where it goes on to: unless the loop's own exit
    leads there too. Written where they are, they raise as they do there."""
    raising = {
        e
        for e in exits
        if _raises_at_once(w, e) and not _after_break(w, e, h) and not breaks_out(w, e, h)
    }
    if not raising:  # the walk below covers the rest of the code: only when needed
        return exits
    reached, todo = set(), [s for s in w.blocks[h].succs if s not in body]
    while todo and not raising <= reached:
        x = todo.pop()
        if x not in reached and x not in body:
            reached.add(x)
            todo += w.blocks[x].succs
    kept = {e for e in exits if e in reached or e not in raising}
    # (where every way out raises, one that only loops inside reach is theirs: a raise
    # in an inner loop's body or after it, never a break out of this one, seed 1009)
    return kept or {e for e in exits if not _only_from_inner_loops(w, e, h, body)}


def _only_from_inner_loops(w, b, h, body) -> bool:
    """Whether every way to block ``b`` comes from loops inside the loop at ``h``."""
    inner = [w.an.loops[f] for f in w.an.loops if f != h and f in body]
    preds = w.blocks[b].preds
    return bool(preds) and all(any(p in loop for loop in inner) for p in preds)


def _after_break(w, b, h) -> bool:
    """Whether only breaks out of the for loop at ``h`` reach block ``b``: blocks
    that pop the iterator and jump (a raise written in the loop pops nothing)."""
    instrs = w.graph.instrs
    if not w.graph.is_for_header(h):
        return False
    preds = [w.blocks[p] for p in w.blocks[b].preds]
    return bool(preds) and all(
        instrs[p.start].op == "POP_TOP"
        and {i.op for i in instrs[p.start : p.end]} <= {"POP_TOP", "JUMP"}
        for p in preds
    )


def breaks_out(w, b, h) -> bool:
    """Whether block ``b`` pops the iterator of the for loop at ``h`` first: a break,
    on its way to code after the loop that raises."""
    return w.graph.is_for_header(h) and w.graph.instrs[w.blocks[b].start].op == "POP_TOP"


def _raises_at_once(w, b, size=8) -> bool:
    """Whether block ``b`` raises, or goes on only through blocks of its own (nothing
    else leads there) that end by raising: ``assert c, v; raise E``, a try's else
    clause inside the loop, or ``while c: pass; raise E``, the rest of a round that
    never goes round again."""
    todo, seen = [b], {b}
    while todo:
        block = w.blocks[todo.pop()]
        if not block.succs and w.graph.instrs[block.last].op not in ("RAISE_VARARGS", "RERAISE"):
            return False
        todo += [s for s in block.succs if s not in seen]
        seen.update(block.succs)
        if len(seen) > size:
            return False
    return all(set(w.blocks[x].preds) <= seen for x in seen - {b})


def is_loop_edge(x, loop) -> bool:
    """Whether block ``x`` is where ``loop`` or a loop around it starts or goes on."""
    while loop is not None:
        if x in (loop.header, loop.follow) or x in loop.breaks:
            return True
        loop = loop.outer
    return False


def loop_edges(loop) -> set:
    """Where continue and break go in ``loop`` and the loops around it."""
    out = set()
    while loop is not None:
        out |= {loop.header, loop.follow}
        loop = loop.outer
    return out


def loop_postdominators(an, header, body) -> dict[int, int | None]:
    """Immediate post-dominators within the loop at ``header``, where going back to the
    header, leaving the loop or returning all end a path."""
    nodes = sorted(body)
    end = len(an.succs)  # one virtual exit past every block
    preds: dict[int, list[int]] = {x: [] for x in [*nodes, end]}
    for x in nodes:
        # Normal edges only: an if's branches inside a try body meet where they do,
        # not where raising would take them.
        for s in an.graph.blocks[x].succs:
            inside = s in body and s != header
            preds[s if inside else end].append(x)
        if (
            not an.graph.blocks[x].succs
            and an.graph.instrs[an.graph.blocks[x].last].op == "RETURN_VALUE"
        ):
            preds[end].append(x)
    idom = dominators([end], _Reversed(preds))
    return {x: (None if d in (end, None) else d) for x, d in idom.items() if x != end}


class _Reversed:
    """Successors in the reversed graph: a block's predecessors, by index."""

    def __init__(self, preds):
        self.preds = preds

    def __getitem__(self, x):
        return self.preds.get(x, ())
