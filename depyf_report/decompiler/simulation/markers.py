"""Stack values that are not plain expressions yet: a NULL, a function being built, an
unfinished unpacking, a pending import. ``concrete`` turns each into real Python when it
has to be spilled to a variable or survives to the output."""

from __future__ import annotations

import ast
import re

from ..bytecode.constants import value_key
from .nodes import ast_class


class Marker(ast.expr):
    """Base of every non-printable stack value; ``ast.unparse`` rejects them."""

    _fields = ()


class Null(Marker):
    """The NULL that CPython pushes beside a callable."""


class Iter(Marker):
    """``iter(value)`` from GET_ITER; a for loop or comprehension takes ``value`` back."""

    def __init__(self, value, kind="iter"):
        super().__init__()
        self.value = value
        self.kind = kind  # "iter", "yield_from", "await", "aiter", "anext"


class Function(Marker):
    """A function object under construction by MAKE_FUNCTION."""

    def __init__(self, code, closure=None):
        super().__init__()
        self.code = code
        self.defaults: list = []
        self.kwdefaults: dict = {}
        self.annotations: dict = {}
        self.closure = closure
        self.type_params: list = []  # a generic function's [T, ...] (3.12+)


class BuildClass(Marker):
    """``__build_class__`` from LOAD_BUILD_CLASS."""


class Class(Marker):
    """A class built by ``__build_class__(body, name, *bases, **keywords)``."""

    def __init__(self, body: Function, name: str, bases, keywords):
        super().__init__()
        self.body, self.name, self.bases, self.keywords = body, name, bases, keywords
        self.type_params: list = []  # a generic class's [T, ...] (3.12+)


class Decorated(Marker):
    """A decorator applied to a function or class being defined."""

    def __init__(self, decorator, target):
        super().__init__()
        self.decorators = [decorator]
        self.target = target  # Function, Class or Decorated
        if isinstance(target, Decorated):
            self.decorators += target.decorators
            self.target = target.target


class UnpackGroup:
    """Targets collected from the stores that follow an UNPACK_SEQUENCE / UNPACK_EX."""

    def __init__(self, value, count: int, star: int | None, parent=None):
        self.value, self.count, self.star, self.parent = value, count, star, parent
        self.targets: list = [None] * count
        self.filled = 0


class UnpackItem(Marker):
    def __init__(self, group: UnpackGroup, position: int):
        super().__init__()
        self.group, self.position = group, position


class Import(Marker):
    """The module pushed by IMPORT_NAME; ``from`` imports add names to it."""

    def __init__(self, module: str, fromlist, level: int):
        super().__init__()
        self.module, self.fromlist, self.level = module, fromlist, level
        self.aliases: list[ast.alias] = []
        self.used = False  # whether IMPORT_FROM took a name from it: popped, no statement


class ImportFrom(Marker):
    """An attribute pushed by IMPORT_FROM."""

    def __init__(self, source: Import | ast.expr, name: str):
        super().__init__()
        self.source, self.name = source, name


class Matches(Marker):
    """Whether ``subject`` matches a ``case`` pattern, binding its names: the test of an
    ``if`` that ``match_stmt`` turns back into a ``match`` statement."""

    _fields = ("subject",)  # read-counting passes see the subject's names

    def __init__(self, subject, pattern: ast.pattern):
        super().__init__()
        self.subject, self.pattern = subject, pattern


class StarMatch(Marker):
    """Whether an ``except*`` clause takes part of the exception group: the test of an
    ``if`` that ``clauses.clauses`` turns back into the clause (``star.py``)."""

    _fields = ("kinds",)  # read-counting passes see the names in the type

    def __init__(self, kinds):
        super().__init__()
        self.kinds = kinds


class Converted(Marker):
    """A value with an f-string conversion (3.13 CONVERT_VALUE)."""

    def __init__(self, value, conversion: str):
        super().__init__()
        self.value, self.conversion = value, conversion


class InPlace(Marker):
    """The result of an in-place operator, before we know what it is stored into."""

    def __init__(self, target, op, value):
        super().__init__()
        self.target, self.op, self.value = target, op, value


class WithExit(Marker):
    """The ``__exit__`` that BEFORE_WITH leaves below the ``__enter__`` result."""

    def __init__(self, manager, is_async=False):
        super().__init__()
        self.manager, self.is_async = manager, is_async


class Entered(Marker):
    """The value of ``manager.__enter__()`` in a structured with statement."""

    def __init__(self, exit: WithExit):
        super().__init__()
        self.exit = exit


class WithDone(Marker):
    """The result of the ``__exit__`` call that ends a structured with statement."""


class ExitedWith(ast.stmt):
    """Where a structured with statement's ``__exit__`` ran; only a final return, break or
    continue may follow it inside the with body."""

    _fields = ()

    def __init__(self, exit=None):
        super().__init__()
        self.exit = exit
        self.carried: list = []  # the stack below, once the exit has run
        # code followed the exit when its with statement was built (a copy of an
        # enclosing finally body, which that try drops): checked once the walk is done
        self.pending = False


class LeftForElse(ast.stmt):
    """Where a while loop's test leaves for its else clause; the walk that built the loop
    turns the test into ``while`` and this never reaches the output."""

    _fields = ()


class Saved(Marker):
    """A local saved by LOAD_FAST_AND_CLEAR around a 3.12 inlined comprehension."""

    def __init__(self, name: str):
        super().__init__()
        self.name = name


class Cells(Marker):
    """A tuple of cells (LOAD_CLOSURE ...; BUILD_TUPLE): a closure for MAKE_FUNCTION,
    or, in Dynamo's code, cells handed to a resume function as values."""

    def __init__(self, names: list[str], is_tuple: bool):
        super().__init__()
        self.names = names
        self.is_tuple = is_tuple  # False: one cell pushed by LOAD_CLOSURE


class Locals(Marker):
    """``locals()`` of a class body (LOAD_LOCALS)."""


class NextItem(Marker):
    """The item FOR_ITER pushes; the store that takes it becomes the loop target."""


class Exception_(Marker):
    """The exception a structured handler receives."""


class HandledBefore(Marker):
    """The exception handled before a structured handler's, which POP_EXCEPT restores."""


# Contexts carry no data, so every name can share one (as CPython's own parser does).
LOAD, STORE = ast.Load(), ast.Store()


def name(ident: str, store: bool = False) -> ast.Name:
    if not ident.isidentifier():
        ident = safe(ident)
    return ast.Name(id=ident, ctx=STORE if store else LOAD)


def safe(ident: str) -> str:
    """A valid identifier for a name that is not one (``.0``, a comprehension's argument)."""
    if ident.isidentifier():
        return ident
    return "_" + "".join(c if c.isalnum() or c == "_" else "_" for c in ident)


def const(value) -> ast.Constant:
    return ast.Constant(value=value)


def call(func, args=(), keywords=()) -> ast.Call:
    if isinstance(func, str):
        func = name(func)
    return ast.Call(func=func, args=list(args), keywords=list(keywords))


def calls_builtin(node, ident: str) -> bool:
    """Whether ``node`` calls the builtin ``ident``, by name or through ``builtins``."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr == ident and calls_builtin(func.value, "__import__")
    return isinstance(func, ast.Name) and func.id == ident


def is_temporary(node) -> bool:
    """Whether ``node`` names a temporary the decompiler made (``_t3``, ``__t1``), for
    a value the compiler kept on the stack."""
    return isinstance(node, ast.Name) and re.fullmatch(r"_+t\d+", node.id) is not None


def reads(ident: str, *trees) -> bool:
    """Whether any of ``trees`` (nodes, or lists of them) names ``ident``."""
    todo = list(trees)
    while todo:
        tree = todo.pop()
        if isinstance(tree, list):
            todo.extend(tree)
        elif any(isinstance(n, ast.Name) and n.id == ident for n in ast.walk(tree)):
            return True
    return False


def with_ctx(node, ctx):
    """``node`` as a load or a store."""
    if isinstance(node, ast.Name):
        return ast.Name(id=node.id, ctx=ctx)
    if isinstance(node, ast.Attribute):
        return ast.Attribute(value=node.value, attr=node.attr, ctx=ctx)
    if isinstance(node, ast.Subscript):
        return ast.Subscript(value=node.value, slice=node.slice, ctx=ctx)
    return node


def same(a, b) -> bool:
    """Whether two trees (or lists of them) are alike, as ``ast.dump`` would compare them,
    without building the two dumps."""
    if ast_class(a) is not ast_class(b):
        return False
    if isinstance(a, ast.AST):
        return all(same(getattr(a, f, None), getattr(b, f, None)) for f in a._fields)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(same, a, b))
    return value_key(a) == value_key(b)  # 0.0 and -0.0 differ, as their dumps do


def same_up_to_temporaries(a, b) -> bool:
    """``same``, where each temporary of ``a`` may be another one in ``b``, the same one
    everywhere: two copies of one code (a finally body's), each walked with temporaries
    of its own (3.12+ inline a comprehension's list into one)."""
    there: dict = {}
    if not _alike(a, b, there, {}):
        return False
    # (only temporaries each copy assigns itself: one read from outside the copy is
    # a value kept across it, the same one in each)
    renamed = {x for x, y in there.items() if x != y}
    return renamed <= _stored_temporaries(a) and {there[x] for x in renamed} <= (
        _stored_temporaries(b)
    )


def _stored_temporaries(tree) -> set[str]:
    nodes = tree if isinstance(tree, list) else [tree]
    return {
        n.id
        for node in nodes
        for n in ast.walk(node)
        if is_temporary(n) and not isinstance(n.ctx, ast.Load)
    }


def _alike(a, b, there: dict, back: dict) -> bool:
    if ast_class(a) is not ast_class(b):
        return False
    if is_temporary(a) and is_temporary(b):
        if there.setdefault(a.id, b.id) != b.id or back.setdefault(b.id, a.id) != a.id:
            return False
        return _alike(a.ctx, b.ctx, there, back)
    if isinstance(a, ast.AST):
        return all(_alike(getattr(a, f, None), getattr(b, f, None), there, back) for f in a._fields)
    if isinstance(a, list):
        return len(a) == len(b) and all(_alike(x, y, there, back) for x, y in zip(a, b))
    return value_key(a) == value_key(b)


# Statements after which the next one in the same block does not run.
TERMINAL = (ast.Return, ast.Raise, ast.Break, ast.Continue)

LITERALS = (type(None), bool, int, float, complex, str, bytes, type(Ellipsis))


def is_literal(value) -> bool:
    """Whether ``value`` can be written as a Python literal."""
    if type(value) in (tuple, frozenset):  # not a subclass: torch.Size prints as a tuple
        return all(is_literal(v) for v in value)
    return type(value) in LITERALS


class ObjectConstants:
    """Constants that are not literals (Dynamo stores dicts, functions, modules in
    co_consts); each gets a name the output binds in an enclosing function. One per
    ``decompile`` call, reached through ``CodeContext.objects``."""

    def __init__(self):
        self.values: dict[str, object] = {}

    def name_for(self, value) -> str:
        for name, known in self.values.items():
            if known is value:
                return name
        name = f"_const_{len(self.values)}"
        self.values[name] = value
        return name
