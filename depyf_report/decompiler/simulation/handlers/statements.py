"""Handlers for opcodes that produce statements: stores, deletes, imports, unpacking,
stack shuffles, and the terminators that end a block."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from ...bytecode.effects import value_effect
from ...bytecode.versions import CONSTANT_RETURNS_FUSED, FUSED_RETURN, derefs_free_variable
from .. import markers as m
from .. import nodes
from ..concrete import import_call
from ..machine import Branch
from ..registry import HANDLERS, handles
from ..unsupported import Unsupported
from .expressions import make_slice, value_of

# -- stores -----------------------------------------------------------------
NAME_STORES = ("STORE_FAST", "STORE_NAME", "STORE_DEREF", "STORE_GLOBAL")


@handles(*NAME_STORES)
def store_name(sim, ins):
    run = _parallel_stores(sim, ins)
    if run:
        _parallel_assign(sim, run)
        sim.skip = len(run) - 1
    else:
        declare(sim, ins)
        value = sim.pop()
        store(sim, m.name(ins.argval, True), value)
        if isinstance(value, (ast.Constant, ast.BinOp, ast.List, ast.Tuple)):
            return  # (a value computed here: no saved one restored)
    for stored in run or [ins]:
        _unbound_restored(sim, stored)


def _unbound_restored(sim, ins) -> None:
    """In a state machine, a store to a local that an inlined comprehension saves may
    be its restoring: where the saved value was the mark of an unbound local, the local
    is unbound again (``expressions.load_and_clear``)."""
    ctx = sim.ctx
    if ctx.structured or not ctx.is_function or ins.op != "STORE_FAST":
        return
    if ins.argval not in ctx.cleared_locals(sim.instrs):
        return
    name = m.safe(ins.argval)
    mark = ast.Compare(left=m.name(name), ops=[ast.Is()], comparators=[m.name(ctx.unbound_mark)])
    gone = ast.Delete(targets=[m.name(name, True)])
    sim.emit(ast.If(test=mark, body=[gone], orelse=[]), [name])


def declare(sim, ins) -> None:
    if ins.op == "STORE_GLOBAL":
        sim.ctx.stored_globals.add(ins.argval)
    elif ins.op == "STORE_DEREF" and _free(sim.ctx.code, ins):
        sim.ctx.stored_free.add(ins.argval)


def _free(code, ins) -> bool:
    """Whether ``ins`` stores or deletes a free variable (``nonlocal``), not a cell of
    the code's own by the same name (``derefs_free_variable``)."""
    return ins.argval in code.co_freevars and derefs_free_variable(code, ins.arg)


def _parallel_stores(sim, ins) -> list:
    """``a, b = x, y`` compiles to x, y then the stores in reverse order, its swap
    left out (3.11+): the run of name stores taking values computed side by side."""
    return _side_by_side(sim, _name_stores(sim, ins, sim.pos))


def _name_stores(sim, ins, start: int, most: int | None = None) -> list:
    """The name stores from instruction ``start`` on, under ``ins``'s handler, in the
    block being run: a store that starts another block (``a or [...]`` stores its value
    where both arms meet) takes its value from whichever arm jumped there."""
    run = []
    while most is None or len(run) < most:
        nxt = start + len(run)
        after = sim.instrs[nxt] if nxt < sim.end else None
        if after is None or after.op not in NAME_STORES or after.handler != ins.handler:
            break
        run.append(after)
    return run


def _side_by_side(sim, run) -> list:
    """``run`` if its stores take as many distinct values off the stack, else []."""
    if len(run) < 2 or len(sim.stack) < len(run):
        return []
    values = sim.stack[-len(run) :]
    if len({id(v) for v in values}) < len(values) or len({i.argval for i in run}) < len(run):
        return []  # ``a = b = v`` stores one value twice
    if any(isinstance(v, (m.Marker, ast.NamedExpr)) for v in values):
        return []  # unpacking, loop targets, definitions: stores of their own
    return run


def _parallel_assign(sim, run, swapped=False) -> None:
    """One ``a, b = x, y`` for the stores in ``run``; ``swapped``: the compiler kept
    the swap that puts the values in store order, as it does for module and class
    names and globals (3.10 too: ROT_TWO), rather than reversing the stores."""
    values = [value_of(sim, v) for v in sim.popn(len(run))]
    names = [i.argval for i in (run if swapped else reversed(run))]
    for ins in run:
        declare(sim, ins)
    target = ast.Tuple(elts=[m.name(n, True) for n in names], ctx=ast.Store())
    sim.emit(ast.Assign(targets=[target], value=ast.Tuple(elts=values, ctx=ast.Load())), names)


@handles("STORE_ATTR")
def store_attr(sim, ins):
    obj = value_of(sim, sim.pop())
    store(sim, ast.Attribute(value=obj, attr=ins.argval, ctx=ast.Store()), sim.pop())


@handles("STORE_SUBSCR")
def store_subscr(sim, ins):
    key, container = sim.pop(), value_of(sim, sim.pop())
    store(sim, ast.Subscript(value=container, slice=key, ctx=ast.Store()), sim.pop())


@handles("STORE_SLICE")
def store_slice(sim, ins):
    stop, start, container = sim.pop(), sim.pop(), value_of(sim, sim.pop())
    target = ast.Subscript(value=container, slice=make_slice(start, stop), ctx=ast.Store())
    store(sim, target, sim.pop())


def store(sim, target, value) -> None:
    """Emit ``target = value``, recognizing defs, classes, imports and unpacking."""
    if sim.chain is not None and value is sim.chain.value:
        return _store_chained(sim, target, value)
    if _in_parallel(sim, value):
        return _store_parallel(sim, target)
    if isinstance(value, m.UnpackItem):
        return _fill_unpack(sim, value, target)
    if _structural(value):  # the target of a for, with or except: kept for the structurer
        names = [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]
        return sim.emit(ast.Assign(targets=[target], value=value), names)
    ident = target.id if isinstance(target, ast.Name) else None
    if isinstance(value, m.Saved) and ident == value.name:
        return  # 3.12 inlined comprehension restoring its hidden variable
    if isinstance(value, m.InPlace) and m.same(value.target, _load(target)):
        return sim.emit(ast.AugAssign(target=target, op=value.op, value=value.value), [ident])
    if ident and sim.ctx.nested.defines(value, ident):
        return sim.emit(sim.ctx.nested.definition(value, ident, sim), [ident])
    if isinstance(value, m.Import) and ident:
        return sim.emit(_import_statement(value, ident), [ident])
    dotted = _dotted_import(value)
    if dotted is not None and ident:
        alias = ast.alias(name=dotted, asname=ident)
        return sim.emit(ast.Import(names=[alias]), [ident])
    if isinstance(value, m.ImportFrom) and isinstance(value.source, m.Import) and ident:
        asname = None if ident == value.name else ident
        value.source.aliases.append(ast.alias(name=value.name, asname=asname))
        return sim.spill([ident])
    if isinstance(target, ast.Subscript) and _is_annotation_store(target):
        key = target.slice.value
        ann = ast.AnnAssign(target=m.name(key, True), annotation=value_of(sim, value), simple=1)
        return sim.emit(ann)
    sim.emit(ast.Assign(targets=[target], value=value_of(sim, value)), [ident] if ident else [])


def _store_chained(sim, target, value) -> None:
    """One target of ``T1 = T2 = v``; the statement is whole at the last one."""
    chain = sim.chain
    chain.targets.append(target)
    if any(v is value for v in sim.stack):
        return  # the copy for the next targets is still there
    sim.chain = None
    names = [t.id for t in chain.targets if isinstance(t, ast.Name)]
    sim.emit(ast.Assign(targets=chain.targets, value=value_of(sim, value)), names)


def _in_parallel(sim, value) -> bool:
    return sim.parallel is not None and any(value is v for v in sim.parallel.values)


def _store_parallel(sim, target) -> None:
    """One target of ``T1, T2 = v1, v2``; the statement is whole at the last one."""
    parallel = sim.parallel
    parallel.targets.append(target)
    if len(parallel.targets) < len(parallel.values):
        return
    sim.parallel = None
    names = [n.id for t in parallel.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    values = ast.Tuple(elts=[value_of(sim, v) for v in parallel.values], ctx=ast.Load())
    sim.emit(
        ast.Assign(targets=[ast.Tuple(elts=parallel.targets, ctx=ast.Store())], value=values), names
    )


def _dotted_import(value) -> str | None:
    """``import a.b.c as d`` loads a.b.c then walks its attributes with IMPORT_FROM."""
    parts = []
    while isinstance(value, m.ImportFrom):
        parts.append(value.name)
        value = value.source
    if not parts or not isinstance(value, m.Import) or value.fromlist is not None:
        return None
    if value.level or value.module.split(".")[1:] != parts[::-1]:
        return None
    return value.module


def _is_annotation_store(target) -> bool:
    return (
        isinstance(target.value, ast.Name)
        and target.value.id == "__annotations__"
        and isinstance(target.slice, ast.Constant)
        and isinstance(target.slice.value, str)
        and target.slice.value.isidentifier()
    )


def _load(target):
    return m.with_ctx(target, ast.Load())


def _import_statement(value: m.Import, ident: str) -> ast.stmt:
    top = value.module.split(".")[0]
    if value.level == 0 and value.fromlist is None and ident == top:
        return ast.Import(names=[ast.alias(name=value.module, asname=None)])
    if value.level == 0 and value.fromlist is None and "." not in value.module:
        return ast.Import(names=[ast.alias(name=value.module, asname=ident)])
    return ast.Assign(targets=[m.name(ident, True)], value=import_call(value))


# -- unpacking ----------------------------------------------------------------
@handles("UNPACK_SEQUENCE", "UNPACK_EX")
def unpack(sim, ins):
    value = sim.pop()
    if ins.op == "UNPACK_SEQUENCE":
        count, star = ins.arg, None
    else:
        before, after = ins.arg & 0xFF, ins.arg >> 8
        count, star = before + 1 + after, before
    parent = value if isinstance(value, m.UnpackItem) else None
    # one target of a chain, or of ``T1, T2 = v1, v2``
    chained = (sim.chain is not None and value is sim.chain.value) or _in_parallel(sim, value)
    if not sim.ctx.structured and parent is None and not chained:
        return _unpack_now(sim, value_of(sim, value), count, star)
    group = m.UnpackGroup(value, count, star, parent)
    if count == 0:  # ``[] = v``: no store follows, the unpacking is the whole target
        return _unpacked(sim, group)
    for position in reversed(range(count)):
        sim.push(m.UnpackItem(group, position))
    return None


def _unpack_now(sim, value, count: int, star) -> None:
    names = [sim.ctx.temp() for _ in range(count)]
    elts = [m.name(n, True) for n in names]
    if star is not None:
        elts[star] = ast.Starred(value=elts[star], ctx=ast.Store())
    sim.emit(ast.Assign(targets=[ast.Tuple(elts=elts, ctx=ast.Store())], value=value))
    for n in reversed(names):
        sim.push(m.name(n))


def _fill_unpack(sim, item: m.UnpackItem, target) -> None:
    group = item.group
    if group.star == item.position:
        target = ast.Starred(value=target, ctx=ast.Store())
    group.targets[item.position] = target
    group.filled += 1
    if group.filled == group.count:
        _unpacked(sim, group)


def _unpacked(sim, group: m.UnpackGroup) -> None:
    """Every target of ``group`` is stored: the whole unpacking is one target."""
    tup = ast.Tuple(elts=group.targets, ctx=ast.Store())
    if group.parent is not None:
        return _fill_unpack(sim, group.parent, tup)
    if sim.chain is not None and group.value is sim.chain.value:
        return _store_chained(sim, tup, group.value)
    if _in_parallel(sim, group.value):
        return _store_parallel(sim, tup)
    names = [t.id for t in ast.walk(tup) if isinstance(t, ast.Name)]
    value = group.value if _structural(group.value) else value_of(sim, group.value)
    return sim.emit(ast.Assign(targets=[tup], value=value), names)


def _structural(value) -> bool:
    if isinstance(value, ast.Await):
        value = value.value
    return isinstance(value, (m.NextItem, m.Exception_, m.Entered))


# -- deletes ------------------------------------------------------------------
@handles("DELETE_FAST", "DELETE_NAME", "DELETE_GLOBAL", "DELETE_DEREF")
def delete_name(sim, ins):
    if ins.op == "DELETE_FAST" and _stored_before_deletes(sim):
        return
    if ins.op == "DELETE_GLOBAL":
        sim.ctx.stored_globals.add(ins.argval)
    elif ins.op == "DELETE_DEREF" and _free(sim.ctx.code, ins):
        sim.ctx.stored_free.add(ins.argval)
    sim.emit(ast.Delete(targets=[m.name(ins.argval, True)]), [ins.argval])
    sim.out[-1].targets[0].ctx = ast.Del()


def _stored_before_deletes(sim) -> bool:
    """``del a; del b`` between a value and the store that takes it, as Dynamo writes:
    the store goes first, so the value needs no temporary, where nothing can tell the
    orders apart. Each deleted name was surely bound earlier in this block (so its
    delete cannot raise), the store is to another local, and the value is the only
    one on the stack that is not pure. Then the store and the deletes are emitted."""
    instrs, at = sim.instrs, sim.pos
    names = []
    while at < len(instrs) and instrs[at].op == "DELETE_FAST":
        names.append(instrs[at].argval)
        at += 1
    store = instrs[at] if at < len(instrs) else None
    if store is None or store.op != "STORE_FAST" or store.argval in names:
        return False
    if not sim.stack or sim.is_pure(sim.stack[-1], names):
        return False  # (a pure value needs no temporary anyway)
    if any(not sim.is_pure(v, names) for v in sim.stack[:-1]):
        return False
    if not set(names) <= _surely_bound(sim.out):
        return False
    HANDLERS[store.op](sim, store)
    for name in names:
        sim.emit(ast.Delete(targets=[ast.Name(id=name, ctx=ast.Del())]))
    sim.skip = at - sim.pos
    return True


def _surely_bound(stmts) -> set[str]:
    """Local names that simple statements ``stmts`` leave bound whatever their values:
    targets of assignments and of walruses not inside a branch of an expression."""
    bound: set[str] = set()

    def visit(node):
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp)):
            return
        if isinstance(node, ast.GeneratorExp):
            return
        if isinstance(node, ast.IfExp):
            return visit(node.test)
        if isinstance(node, ast.BoolOp):
            return visit(node.values[0])
        if isinstance(node, ast.NamedExpr):
            bound.add(node.target.id)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
        for child in ast.iter_child_nodes(node):
            visit(child)

    for stmt in stmts:
        if isinstance(stmt, ast.Delete):
            bound -= {t.id for t in stmt.targets if isinstance(t, ast.Name)}
        elif isinstance(stmt, (ast.Assign, ast.AugAssign, ast.Expr)):
            visit(stmt)
        else:
            return set()  # (a block's statements are simple; anything else: trust none)
    return bound


@handles("DELETE_ATTR")
def delete_attr(sim, ins):
    obj = value_of(sim, sim.pop())
    sim.emit(ast.Delete(targets=[ast.Attribute(value=obj, attr=ins.argval, ctx=ast.Del())]))


@handles("DELETE_SUBSCR")
def delete_subscr(sim, ins):
    key, container = sim.pop(), value_of(sim, sim.pop())
    sim.emit(ast.Delete(targets=[ast.Subscript(value=container, slice=key, ctx=ast.Del())]))


# -- imports ------------------------------------------------------------------
@handles("IMPORT_NAME")
def import_name(sim, ins):
    fromlist, level = sim.pop(), sim.pop()
    sim.push(m.Import(ins.argval, fromlist.value, level.value))


@handles("IMPORT_FROM")
def import_from(sim, ins):
    source = sim.peek()
    if isinstance(source, m.Import):
        source.used = True
    sim.push(m.ImportFrom(source, ins.argval))


@handles("IMPORT_STAR")
def import_star(sim, ins):
    source = sim.pop()
    if not isinstance(source, m.Import):
        raise Unsupported("import * from a computed module")
    alias = [ast.alias(name="*", asname=None)]
    sim.emit(ast.ImportFrom(module=source.module, names=alias, level=source.level))


# -- stack shuffles and plain statements ------------------------------------------
@handles("POP_TOP")
def pop_top(sim, ins):
    value = sim.pop()
    if isinstance(value, m.Import):
        if value.aliases:
            node = ast.ImportFrom(module=value.module, names=value.aliases, level=value.level)
            sim.emit(node)
        elif not value.used:
            sim.emit(ast.Expr(value=import_call(value)))
        return
    if isinstance(value, (m.Null, ast.Constant, m.Saved, m.Locals, m.BuildClass)):
        return
    if isinstance(value, (m.Exception_, m.HandledBefore, m.Entered, m.WithDone, m.ImportFrom)):
        return
    if isinstance(value, m.Iter) and sim.ctx.structured:
        return  # ``break`` dropping the loop's iterator
    if isinstance(value, ast.Await) and isinstance(value.value, (m.WithDone, m.Entered)):
        return
    if isinstance(value, ast.Name) and sim.ctx.is_temp(value.id):
        return
    if sim.ctx.structured and value in sim.ctx.tested_copies:
        return
    if sim.ctx.structured and value in sim.ctx.held_locals:
        # (a return's value dropped by a finally body's own return, after copies of
        # finally bodies left in place: written here, the local would be read after
        # them, and unbound it would raise only then; seed 3135)
        raise Unsupported("a local read before statements and dropped after them")
    if sim.ctx.structured and isinstance(value, ast.Name) and value in sim.ctx.copied_names:
        return  # a match subject's copy: the case's test read the local, once, as here
    if isinstance(value, m.UnpackItem):
        store(sim, m.name("_", True), value)  # compiler never does this; stay correct
        return
    sim.emit(ast.Expr(value=value_of(sim, value)))


@handles("PRINT_EXPR")
def print_expr(sim, ins):
    sim.emit(ast.Expr(value=value_of(sim, sim.pop())))


@handles("COPY")
def copy(sim, ins):
    value = sim.peek(ins.arg)
    nxt = sim.next_instr()
    if ins.arg == 1 and nxt is not None and sim.ctx.structured and nxt.op in CONDITIONAL:
        sim.ctx.tested_copies.add(value)  # dropped silently where ``a or b`` goes on to ``b``
        return sim.push(value)  # ``a or b``: the tested value is also the result
    if sim.chain is not None and value is sim.chain.value:
        return sim.push(value)  # one more target of ``T1 = T2 = v``
    if _walrus(sim, ins, nxt, value):  # ``a = b = v`` or ``(x := v)``
        declare(sim, nxt)
        sim.stack[-1] = ast.NamedExpr(target=m.name(nxt.argval, True), value=value)
        sim.skip = 1
        return None
    if ins.arg == 1 and _chain_follows(sim):
        sim.chain = Chain(value)
        return sim.push(value)
    if sim.is_pure(value) or _augmented(sim, ins):
        if isinstance(value, ast.Name):
            sim.ctx.copied_names.add(value)  # both entries are one read of the local: see pop_top
        return sim.push(value)
    sim.spill()
    sim.push(sim.peek(ins.arg))


@dataclass
class Chain:
    """``T1 = T2 = v`` being stored: ``v`` and the targets stored so far."""

    value: object
    targets: list = field(default_factory=list)


def _chain_follows(sim) -> bool:
    """Whether the ``COPY 1`` being run starts a chained assignment: its targets, split
    by further copies, each a name, attribute or subscript of plain expressions."""
    pos = sim.pos + 1
    handler = sim.instrs[sim.pos].handler
    while True:
        pos = _target_end(sim.instrs, pos, handler, sim.end)
        if pos is None:
            return False
        after = sim.instrs[pos] if pos < len(sim.instrs) else None
        if after is None or after.op != "COPY" or after.arg != 1:
            return _target_end(sim.instrs, pos, handler, sim.end) is not None
        pos += 1


def _target_end(instrs, pos: int, handler, end: int) -> int | None:
    """The index after the store of the target that starts at ``pos``, before ``end``
    (the end of the block), or None. An unpacking target ends after the targets of its
    items."""
    first = instrs[pos] if pos < end else None
    if first is not None and first.op in UNPACKS and first.handler == handler:
        count = (
            first.arg
            if first.op == "UNPACK_SEQUENCE"
            else (first.arg & 0xFF) + 1 + (first.arg >> 8)
        )
        pos += 1
        for _ in range(count):
            pos = _target_end(instrs, pos, handler, end)
            if pos is None:
                return None
        return pos
    depth = 0
    for ins in instrs[pos : min(pos + TARGET_LENGTH, end)]:
        if ins.handler != handler:
            return None
        if (ins.op, depth) in TARGET_STORES:
            return ins.index + 1
        effect = value_effect(ins)
        if effect is None or depth + effect < 0:
            return None
        depth += effect
    return None


UNPACKS = ("UNPACK_SEQUENCE", "UNPACK_EX")
# A store with the values its target needs on the stack above the stored value.
TARGET_STORES = {
    *((op, 0) for op in NAME_STORES),
    ("STORE_ATTR", 1),
    ("STORE_SUBSCR", 2),
    ("STORE_SLICE", 3),
}
TARGET_LENGTH = 32


def _augmented(sim, ins) -> bool:
    """A copy of an augmented assignment's target part, which the in-place value and
    its store share (``a.x += v``: ``COPY 1; LOAD_ATTR x; v; BINARY_OP +=; SWAP 2;
    STORE_ATTR x``; ``a[k] += v``: ``COPY 2; COPY 2; BINARY_SUBSCR; v; BINARY_OP +=;
    SWAP 3; SWAP 2; STORE_SUBSCR``; 3.12+'s ``a[i:j] += v``: three ``COPY 3``, then
    BINARY_SLICE, and three swaps before STORE_SLICE). Kept whole, the statement reads
    it once, in order."""
    start = sim.pos
    for _ in range(ins.arg - 1):  # the later copies of a subscript's or slice's parts
        earlier = sim.instrs[start - 1] if start else None
        if earlier is None or (earlier.op, earlier.arg) != ("COPY", ins.arg):
            break
        start -= 1
    shapes = {
        1: (["COPY", "LOAD_ATTR"], ["SWAP", "STORE_ATTR"]),
        2: (["COPY", "COPY", "BINARY_SUBSCR"], ["SWAP", "SWAP", "STORE_SUBSCR"]),
        3: (["COPY", "COPY", "COPY", "BINARY_SLICE"], ["SWAP", "SWAP", "SWAP", "STORE_SLICE"]),
    }
    if ins.arg not in shapes:
        return False
    opening, closing = shapes[ins.arg]
    instrs = sim.instrs[start : start + len(opening) + TARGET_LENGTH + len(closing)]
    if [i.op for i in instrs[: len(opening)]] != opening:
        return False
    depth, rest = 1, instrs[len(opening) :]
    for at, i in enumerate(rest[:TARGET_LENGTH]):
        if i.handler != ins.handler:
            return False
        if depth == 2 and i.op == "BINARY_OP" and i.argval.endswith("=") and i.argval != "==":
            return [j.op for j in rest[at + 1 : at + 1 + len(closing)]] == closing
        effect = value_effect(i)
        if effect is None or depth + effect < 1:
            return False
        depth += effect
    return False


def _walrus(sim, ins, nxt, value) -> bool:
    stores = ("STORE_FAST", "STORE_DEREF", "STORE_NAME", "STORE_GLOBAL")
    return (
        ins.arg == 1
        and nxt is not None
        and nxt.op in stores
        and not isinstance(value, m.Marker)
        and nxt.handler == sim.instrs[sim.pos].handler
    )


CONDITIONAL = ("POP_JUMP_IF_TRUE", "POP_JUMP_IF_FALSE", "POP_JUMP_IF_NONE", "POP_JUMP_IF_NOT_NONE")


@handles("SWAP")
def swap(sim, ins):
    stack = sim.stack
    if len(stack) < ins.arg:
        raise Unsupported("stack underflow")
    if ins.arg in (2, 3):  # ``a, b = x, y``: the swap, then a store for each value
        start = sim.pos + 1
        if ins.arg == 3 and [(i.op, i.arg) for i in sim.instrs[start : start + 2]] == [
            ("SWAP", 2),
            ("SWAP", 2),
        ]:
            start += 2  # 3.10's ROT_THREE, ROT_TWO: the two SWAP 2 undo each other
        run = _side_by_side(sim, _name_stores(sim, ins, start, ins.arg))
        if len(run) == ins.arg:
            _parallel_assign(sim, run, swapped=True)
            sim.skip = start - sim.pos - 1 + len(run)
            return
        if _targets_follow(sim, ins, start):  # ``d[k], a.b = x, y``: any targets
            values = stack[-ins.arg :]
            sim.parallel = Parallel(values=list(values))
            stack[-ins.arg :] = values[::-1]  # the swap, and 3.10's two that undo each other
            sim.skip = start - sim.pos - 1
            return
    moved = stack[-ins.arg :]
    if sum(not sim.is_pure(v) for v in moved) > 1 and not _inplace_store(sim, moved):
        sim.spill()  # computed in stack order: reordered, they would be computed otherwise
        stack = sim.stack
    stack[-1], stack[-ins.arg] = stack[-ins.arg], stack[-1]


@dataclass
class Parallel:
    """``T1, T2 = v1, v2`` being stored: the values in target order, the targets so far."""

    values: list
    targets: list = field(default_factory=list)


def _targets_follow(sim, ins, start: int) -> bool:
    """Whether the swap before ``start`` puts side-by-side values in store order for as
    many targets, each of them a name, attribute, subscript or unpacking."""
    values = sim.stack[-ins.arg :]
    if len({id(v) for v in values}) < len(values) or sim.chain is not None:
        return False
    if any(isinstance(v, (m.Marker, ast.NamedExpr)) for v in values):
        return False
    pos = start
    for _ in range(ins.arg):
        pos = _target_end(sim.instrs, pos, ins.handler, sim.end)
        if pos is None:
            return False
    return True


def _inplace_store(sim, moved) -> bool:
    """An in-place value and the target parts it was computed from, brought in order for
    its store: the parts were read once, before it, and the store reads them as they are."""
    parts = set()
    for v in sim.stack:
        if isinstance(v, m.InPlace):
            parts |= {id(getattr(v.target, "value", None)), id(getattr(v.target, "slice", None))}
    impure = [v for v in moved if not sim.is_pure(v)]
    return all(isinstance(v, m.InPlace) or id(v) in parts for v in impure)


@handles("SETUP_ANNOTATIONS")
def setup_annotations(sim, ins):
    pass  # an annotated name in the output makes the compiler emit it again


@handles("RETURN_VALUE")
def return_value(sim, ins):
    value = value_of(sim, sim.pop())
    # 3.12+: see versions.FUSED_RETURN; cleanup joins such arms back into one return.
    arm = CONSTANT_RETURNS_FUSED and isinstance(value, ast.Constant) and ins.argval != FUSED_RETURN
    if isinstance(value, ast.Constant) and value.value is None:
        value = None  # also the only form allowed in an async generator
    stmt = nodes.Return(value=value, conditional_arm=arm)
    sim.emit(stmt)
    sim.branch = Branch("return")


@handles("RAISE_VARARGS")
def raise_varargs(sim, ins):
    args = [value_of(sim, v) for v in sim.popn(ins.arg)]
    exc, cause = ([*args, None, None])[:2]
    if exc is None and not sim.ctx.structured:  # the state machine tracks the handled one
        handled = m.name(sim.ctx.prefix + "handled")
        missing = m.call(
            sim.ctx.builtin("RuntimeError"), [m.const("No active exception to reraise")]
        )
        none = ast.Compare(left=handled, ops=[ast.IsNot()], comparators=[m.const(None)])
        exc = ast.IfExp(test=none, body=handled, orelse=missing)
        reraise = nodes.Raise(exc=exc, cause=None, bare=True)
        sim.emit(reraise)
    else:
        sim.emit(ast.Raise(exc=exc, cause=cause))
    sim.branch = Branch("raise")


@handles("RERAISE")
def reraise(sim, ins):
    exc = sim.pop()
    if ins.arg:
        sim.pop()  # the offset CPython restores as f_lasti
    exc = exc if isinstance(exc, m.Exception_) else value_of(sim, exc)
    if sim.ctx.structured:
        sim.emit(ast.Raise(exc=exc, cause=None))
    else:
        sim.out.extend(_reraise_as_is(sim, sim.materialize(exc)))
    sim.branch = Branch("raise")


def _reraise_as_is(sim, exc: ast.Name) -> list[ast.stmt]:
    """RERAISE raises ``exc`` as it is; ``raise exc`` would add this frame to its
    traceback and chain it to the exception being handled. So it is raised by name,
    caught, its traceback and context put back, and re-raised bare, which adds nothing."""
    kept = ("__traceback__", "__context__")
    saved = sim.ctx.temp()
    parts = ast.Tuple(elts=[_attr(exc, a, ast.Load()) for a in kept], ctx=ast.Load())
    restored = ast.Tuple(elts=[_attr(exc, a, ast.Store()) for a in kept], ctx=ast.Store())
    clause = ast.ExceptHandler(
        type=sim.ctx.builtin("BaseException"),
        name=None,
        body=[ast.Assign(targets=[restored], value=m.name(saved)), ast.Raise()],
    )
    again = ast.Try(
        body=[ast.Raise(exc=exc, cause=None)], handlers=[clause], orelse=[], finalbody=[]
    )
    return [ast.Assign(targets=[m.name(saved, True)], value=parts), again]


def _attr(value, name: str, ctx) -> ast.Attribute:
    return ast.Attribute(value=value, attr=name, ctx=ctx)


# -- terminators ----------------------------------------------------------------
@handles("JUMP")
def jump(sim, ins):
    sim.branch = Branch("goto")


@handles("POP_JUMP_IF_TRUE", "POP_JUMP_IF_FALSE")
def pop_jump_if(sim, ins):
    test = sim.pop()
    if not isinstance(test, (m.Matches, m.StarMatch)):  # read back into match, except*
        test = value_of(sim, test)
    sim.branch = Branch("cond", test, ins.op == "POP_JUMP_IF_TRUE")


@handles("POP_JUMP_IF_NONE", "POP_JUMP_IF_NOT_NONE")
def pop_jump_if_none(sim, ins):
    value = value_of(sim, sim.pop())
    test = ast.Compare(left=value, ops=[ast.Is()], comparators=[m.const(None)])
    sim.branch = Branch("cond", test, ins.op == "POP_JUMP_IF_NONE")


@handles("JUMP_IF_TRUE_OR_POP", "JUMP_IF_FALSE_OR_POP")
def jump_if_or_pop(sim, ins):
    sim.branch = Branch("keep", sim.peek(), ins.op == "JUMP_IF_TRUE_OR_POP")


@handles("FOR_ITER")
def for_iter(sim, ins):
    sim.branch = Branch("for", sim.peek())
