"""Lists and tuples Dynamo builds on the stack, evaluated away.

Dynamo hands a resume function the frame's values as lists it builds, slices,
extends and reorders on the stack; simulated, that is a run of statements on
temporaries (``_t5 = _t4[0:1]; _t5.extend([b]); ...; return _t11(_t10, _t7, *_t12)``).
This pass runs those statements on a small model of the heap instead: each display
held by a temporary is an ``Obj`` whose items are known, several temporaries may name
one ``Obj`` (aliasing), and the statements that only build or change such objects are
dropped. What is left is the final call, with each object written out as a display
of its items there (``return __resume_at_102_2([], [], b, x)``).

It is meaning-preserving by construction:
- an item is an inert expression (``facts``), or the value of an expression that was
  bound, where the display evaluated it, to a new temporary: items read later read
  the same values;
- only index and slice reads with constant indexes, ``extend``/``append``, slice
  assignment with constant bounds and ``del x[i]`` change or read an object, with
  Python's own list semantics (an index out of range gives up);
- an object leaves the model only as an argument (or a starred argument) of a call,
  once; it is never read after, and no object is written out twice;
- any other statement that names an object's temporary, or a branch that changes
  objects and falls through next to another that does too, gives up: the function
  keeps its statements exactly as they were.
"""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass, field

from .facts import Names


class GiveUp(Exception):
    """Something the model does not cover: leave the function as it was."""


@dataclass(eq=False)
class Obj:
    """A list or tuple only temporaries reach; ``items`` are inert expressions or objects."""

    kind: type  # ast.List or ast.Tuple
    items: list = field(default_factory=list)
    written_out: bool = False


class Heap:
    """Temporaries' values: an ``Obj`` or an inert expression (the value it holds)."""

    def __init__(self) -> None:
        self.values: dict[str, object] = {}
        self.changed = 0  # statements that built, changed or wrote out objects

    def fork(self) -> Heap:
        other = Heap()
        other.values = copy.deepcopy(self.values)
        other.changed = self.changed
        return other


def evaluate_lists(body: list[ast.stmt], ctx, lines) -> list[ast.stmt]:
    """``body`` with the objects of temporaries evaluated away, or ``body`` itself."""
    names = Names(body, ctx)
    try:
        out, _heap = _ListRun(names, ctx, lines).block(body, Heap())
    except GiveUp:
        return body
    return out


class _ListRun:
    def __init__(self, names: Names, ctx, lines) -> None:
        self.names = names
        self.ctx = ctx
        self.lines = lines

    # -- statements ----------------------------------------------------------
    def block(self, stmts: list[ast.stmt], heap: Heap) -> tuple[list[ast.stmt], Heap]:
        out: list[ast.stmt] = []
        pending: set[int] = set()  # lines of dropped statements, for the next one kept
        for stmt in stmts:
            made = self.statement(stmt, heap)
            lines = self.lines.of(stmt) if self.lines is not None else frozenset()
            for new in made:
                if self.lines is not None and not isinstance(new, ast.If):
                    self.lines.note(new, lines | pending)
                    pending = set()
            if not made:
                pending |= lines
            out += made
        return out, heap

    def statement(self, stmt: ast.stmt, heap: Heap) -> list[ast.stmt]:
        if isinstance(stmt, ast.If):
            return self.branch(stmt, heap)
        stmt = self.substituted(stmt, heap)
        before = len(heap.values), heap.changed
        made = self.known(stmt, heap)
        if made is not None:
            if (len(heap.values), heap.changed) == before and made == [stmt]:
                return made
            heap.changed += 1
            return made
        if self.names_object(stmt, heap):
            raise GiveUp("an object escapes")
        return [stmt]

    def known(self, stmt: ast.stmt, heap: Heap) -> list[ast.stmt] | None:
        """The statements to keep for a statement the model covers, else None."""
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            if isinstance(target, ast.Name) and self.names.single(target.id):
                made = self.assign(target.id, stmt.value, heap)
                if made is not None:
                    return made
            if isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Slice):
                return self.slice_assign(target, stmt.value, heap)
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            method = self.method_call(stmt.value, heap)
            if method is not None:
                return method
        if isinstance(stmt, ast.Delete) and len(stmt.targets) == 1:
            return self.delete(stmt.targets[0], heap)
        return self.final_call(stmt, heap)

    def assign(self, ident: str, value: ast.expr, heap: Heap) -> list[ast.stmt] | None:
        bound: list[ast.stmt] = []
        if isinstance(value, (ast.List, ast.Tuple)) and isinstance(value.ctx, ast.Load):
            items = self.items(value.elts, heap, bound)
            if items is None:
                return None
            heap.values[ident] = Obj(type(value), items)
            return bound
        if isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Slice):
            obj, bounds = self.ref(value.value, heap), _bounds(value.slice)
            if obj is None or bounds is None:
                return None
            heap.values[ident] = Obj(obj.kind, obj.items[slice(*bounds)])
            return []
        known = self.value(value, heap)
        if known is None:
            return None
        heap.values[ident] = known
        return []

    def slice_assign(self, target: ast.Subscript, value, heap: Heap) -> list[ast.stmt] | None:
        obj, bounds = self.ref(target.value, heap), _bounds(target.slice)
        if obj is None or bounds is None or bounds[2] is not None or obj.kind is not ast.List:
            return None
        bound: list[ast.stmt] = []
        items = self.sequence(value, heap, bound)
        if items is None:
            return None
        obj.items[slice(*bounds)] = items
        return bound

    def method_call(self, call: ast.Call, heap: Heap) -> list[ast.stmt] | None:
        func = call.func
        if not isinstance(func, ast.Attribute) or func.attr not in ("extend", "append"):
            return None
        obj = self.ref(func.value, heap)
        if obj is None or obj.kind is not ast.List or len(call.args) != 1 or call.keywords:
            return None
        bound: list[ast.stmt] = []
        if func.attr == "append":
            items = self.items(call.args, heap, bound)
        else:
            items = self.sequence(call.args[0], heap, bound)
        if items is None:
            return None
        obj.items.extend(items)
        return bound

    def delete(self, target, heap: Heap) -> list[ast.stmt] | None:
        if not isinstance(target, ast.Subscript):
            return None
        obj = self.ref(target.value, heap)
        if obj is None or obj.kind is not ast.List:
            return None
        if isinstance(target.slice, ast.Slice):
            bounds = _bounds(target.slice)
            if bounds is None:
                return None
            del obj.items[slice(*bounds)]
            return []
        index = _index(target.slice)
        if index is None:
            return None
        try:
            del obj.items[index]
        except IndexError:
            raise GiveUp("index out of range") from None
        return []

    def final_call(self, stmt: ast.stmt, heap: Heap) -> list[ast.stmt] | None:
        """A call that takes objects as arguments: each written out as a display; or a
        return of an object, written out there."""
        if isinstance(stmt, ast.Return) and stmt.value is not None:
            obj = self.ref(stmt.value, heap)
            if obj is not None:
                return [ast.Return(value=self.written(obj, heap, set()))]
        if isinstance(stmt, (ast.Return, ast.Expr)):
            call = stmt.value
        elif isinstance(stmt, ast.Assign):
            call = stmt.value
            if any(self.names_object(t, heap) for t in stmt.targets):
                return None
        else:
            return None
        new_call = self.call_taking_objects(call, heap)
        if new_call is None:
            return None
        new = copy.copy(stmt)
        new.value = new_call
        return [new]

    def call_taking_objects(self, call, heap: Heap) -> ast.Call | None:
        """``call`` with the objects it takes written out as displays, or None."""
        if not isinstance(call, ast.Call):
            return None
        if self.names_object(call.func, heap) or any(
            self.names_object(k, heap) for k in call.keywords
        ):
            return None
        seen: set[int] = set()
        args: list[ast.expr] = []
        for arg in call.args:
            inner = arg.value if isinstance(arg, ast.Starred) else arg
            obj = self.ref(inner, heap)
            if obj is None and not isinstance(inner, (ast.List, ast.Tuple)):
                if self.names_object(arg, heap):
                    return None
                args.append(arg)
            elif obj is None:  # a display written in the call: ``f(*[a, b])``
                if not isinstance(arg, ast.Starred) or any(
                    isinstance(e, ast.Starred) for e in inner.elts
                ):
                    if self.names_object(arg, heap):
                        return None
                    args.append(arg)
                else:
                    args.extend(self.written(e, heap, seen) for e in inner.elts)
            elif isinstance(arg, ast.Starred):
                if id(obj) in seen:
                    raise GiveUp("one object written out twice")
                seen.add(id(obj))
                args.extend(self.written(item, heap, seen) for item in obj.items)
                obj.written_out = True
            else:
                args.append(self.written(obj, heap, seen))
        if len(args) == len(call.args) and all(a is b for a, b in zip(args, call.args)):
            return None
        return ast.Call(func=call.func, args=args, keywords=call.keywords)

    def branch(self, stmt: ast.If, heap: Heap) -> list[ast.stmt]:
        test = self.substituted(stmt.test, heap)
        if self.names_object(test, heap):
            raise GiveUp("an object is tested")
        body, after_body = self.block(stmt.body, heap.fork())
        orelse, after_else = self.block(stmt.orelse, heap.fork())
        if _ends(stmt.body):
            after = after_else
        elif _ends(stmt.orelse):
            after = after_body
        elif after_body.changed == after_else.changed == heap.changed:
            after = heap
        else:  # both go on, one having changed objects: no one state to go on with
            after = heap.fork()
            for value in after.values.values():
                if isinstance(value, Obj):
                    value.written_out = True
        heap.values, heap.changed = after.values, after.changed
        new = copy.copy(stmt)
        new.test, new.body, new.orelse = test, body or [ast.Pass()], orelse
        return [new]

    # -- values ----------------------------------------------------------------
    def ref(self, node, heap: Heap) -> Obj | None:
        """The object ``node`` names: a temporary, or a constant index into an object."""
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            value = heap.values.get(node.id)
            found = value if isinstance(value, Obj) else None
        elif isinstance(node, ast.Subscript) and _index(node.slice) is not None:
            outer = self.ref(node.value, heap)
            found = _item(outer, node.slice) if outer is not None else None
            found = found if isinstance(found, Obj) else None
        else:
            return None
        if found is not None and found.written_out:
            raise GiveUp("an object is used after a call took it")
        return found

    def value(self, node, heap: Heap):
        """An object or an inert expression ``node`` evaluates to, else None."""
        obj = self.ref(node, heap)
        if obj is not None:
            return obj
        if isinstance(node, ast.Subscript) and _index(node.slice) is not None:
            outer = self.ref(node.value, heap)
            return copy.deepcopy(_item(outer, node.slice)) if outer is not None else None
        return copy.deepcopy(node) if self.names.inert(node) else None

    def items(self, elts, heap: Heap, bound: list[ast.stmt]) -> list | None:
        """The items of a display, its values bound to new temporaries where needed."""
        items: list = []
        for elt in elts:
            if isinstance(elt, ast.Starred):
                obj = self.ref(elt.value, heap)
                if obj is None:
                    return None
                items.extend(obj.items)
                continue
            known = self.value(elt, heap)
            if known is None:
                if self.names_object(elt, heap):
                    elt = self.call_taking_objects(elt, heap)
                    if elt is None:
                        return None
                ident = self.ctx.temp()
                bound.append(ast.Assign(targets=[ast.Name(ident, ast.Store())], value=elt))
                self.names.stores[ident] = 1  # a fixed name now
                known = ast.Name(ident, ast.Load())
            items.append(known)
        return items

    def sequence(self, node, heap: Heap, bound: list[ast.stmt]) -> list | None:
        """The items ``node`` holds: a display's, or a copy of an object's."""
        if isinstance(node, (ast.List, ast.Tuple)) and isinstance(node.ctx, ast.Load):
            return self.items(node.elts, heap, bound)
        obj = self.ref(node, heap)
        return list(obj.items) if obj is not None else None

    def written(self, item, heap: Heap, seen: set[int]) -> ast.expr:
        """An item as the expression that stands for it in the final call."""
        if not isinstance(item, Obj):
            return copy.deepcopy(item)
        if id(item) in seen or item.written_out:
            raise GiveUp("one object written out twice")
        seen.add(id(item))
        elts = [self.written(i, heap, seen) for i in item.items]
        item.written_out = True
        return item.kind(elts=elts, ctx=ast.Load())

    def substituted(self, node, heap: Heap):
        """``node`` with each temporary that holds an inert value replaced by it."""
        held = {k: v for k, v in heap.values.items() if not isinstance(v, Obj)}
        if not held or not any(
            isinstance(n, ast.Name) and n.id in held and isinstance(n.ctx, ast.Load)
            for n in ast.walk(node)
        ):
            return node
        return _Substitute(held).visit(copy.deepcopy(node))

    def names_object(self, node, heap: Heap) -> bool:
        return any(
            isinstance(n, ast.Name) and isinstance(heap.values.get(n.id), Obj)
            for n in ast.walk(node)
        )


class _Substitute(ast.NodeTransformer):
    def __init__(self, held: dict) -> None:
        self.held = held

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load) and node.id in self.held:
            return copy.deepcopy(self.held[node.id])
        return node


def _index(node) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Constant)
        and type(node.operand.value) is int
    ):
        return -node.operand.value
    return None


def _item(obj: Obj, index_node):
    try:
        return obj.items[_index(index_node)]
    except IndexError:
        raise GiveUp("index out of range") from None


def _bounds(node: ast.Slice) -> tuple | None:
    parts = []
    for part in (node.lower, node.upper, node.step):
        if part is None:
            parts.append(None)
        elif _index(part) is None:
            return None
        else:
            parts.append(_index(part))
    if parts[2] is not None:
        return None
    return tuple(parts)


def _ends(stmts: list[ast.stmt]) -> bool:
    return bool(stmts) and isinstance(stmts[-1], (ast.Return, ast.Raise))
