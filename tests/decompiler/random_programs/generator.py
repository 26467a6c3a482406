"""The random module: a nest of control flow with every statement and expression form.

The core is the old generator's: nested if/while/for/try/with with breaks, continues,
returns and raises reading a tape, which stresses the structurer. Around and inside it
any statement may be one of the wider forms: unpacking and augmented assignments,
comprehensions (also discarded as statements, and shadowing outer names), constants of
every type, classes with private names and methods, nested functions, closures,
lambdas, generators, async functions and async generators, ``global``, ``nonlocal``,
``del``, ``assert``, ``match``, ``except*``, ``raise ... from``, walrus, conditional
expressions, chained comparisons and boolean operators as values.

The random choices never depend on the Python running the generator: only at the end
is ``except*`` written as ``except`` where Python has no ``except*`` (3.10), so a seed
is the same program everywhere else.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, replace

from . import constants

# Each reads the tape first, so that every loop test and break guard does.
CONDITIONS = [
    "t.c()",
    "not t.c()",
    "t.c() and t.c()",
    "t.c() or t.c()",
    "t.c() and x < {k}",
    "t.c() or x > {k}",
    "(t.c() or x) and t.c()",
    "not (t.c() and x)",
    "t.c() and 0 < x <= {k}",
    "(n := t.v()) > {k} and t.c()",
    "t.c() if x else not t.c()",
]

# (pattern, the names it binds); the irrefutable ones only come last.
PATTERNS = [
    ("0 | 1", ()),
    ("2", ()),
    ("-1", ()),
    ("None", ()),
    ("True", ()),
    ("'3'", ()),
    ("b''", ()),
    ("-0.0", ()),
    ("[]", ()),
    ("[a]", ("a",)),
    ("[a, *rest]", ("a", "rest")),
    ("[0, *_]", ()),
    ("(a, 1)", ("a",)),
    ("(a, b) if a > b", ("a", "b")),
    ("{'k': a}", ("a",)),
    ("{'k': 0, **rest}", ("rest",)),
    ("{'j': 1 | 2}", ()),
    ("P(a)", ("a",)),
    ("P(0, b)", ("b",)),
    ("P(a=1)", ()),
    ("P(b=c) if c", ("c",)),
    ("int(n) if n > 3", ("n",)),
    ("str() | bytes()", ()),
    ("list(a)", ("a",)),
    ("a if t.c()", ("a",)),
    ("[a, [b, *c]]", ("a", "b", "c")),
    ("(0 | 1) as a", ("a",)),
    ("[1, 2] | (3, 4)", ()),
]
LAST_PATTERNS = [("_", ()), ("a", ("a",)), ("other", ("other",))]

SUBJECTS = [
    "t.v() % 6",
    "y",
    "(x, t.v() % 3)",
    "{'k': x, 'j': t.v() % 3}",
    "P(x % 3, t.v() % 3)",
    "x",
    "[x, y]",
    "str(x % 5)",
]


@dataclass
class Scope:
    """Where a statement is written: which loops, clauses, functions and classes."""

    loop: bool = False
    finally_body: bool = False
    depth: int = 0
    function: bool = False  # return is allowed
    in_function: bool = False  # some enclosing function has x (nonlocal x is allowed)
    awaits: bool = False  # await, async for, async with are allowed
    generator: bool = False  # yield is allowed
    async_generator: bool = False  # return takes no value
    star: bool = False  # in an except* clause: no break, continue or return
    class_body: bool = False
    nesting: int = 0  # defs and classes around


class Generator:
    def __init__(self, seed: int, size: int = 12):
        self.rng = random.Random(seed)
        self.budget = size
        self.key = 0

    # -- the module ------------------------------------------------------------------

    def module(self, size: int) -> str:
        f_body = self._function_body(Scope(function=True, in_function=True))
        self.budget = size // 2
        h_body = self._function_body(Scope(function=True, in_function=True, awaits=True))
        self.budget = size // 2
        top = self.block(Scope())
        lines = [
            "t = Tape([2, 7, 1, 8, 2, 8])",
            "x, y, i = t.v(), t.items(), 0",
            "G = 0",
            "",
            "def f(t):",
            *_indent(f_body),
            "",
            "async def h(t):",
            *_indent(h_body),
            "",
            *top,
        ]
        text = "\n".join(lines) + "\n"
        if sys.version_info < (3, 11):
            text = text.replace("except* ", "except ")
        return text

    def _function_body(self, scope: Scope) -> list[str]:
        return ["x, y, i = t.v(), t.items(), 0", *self.block(scope), "return ('end', x)"]

    def block(self, scope: Scope, least: int = 1) -> list[str]:
        out: list[str] = []
        for _ in range(self.rng.randint(least, 3)):
            out += self.statement(scope)
            if out and _ends(out[-1]):
                break
        return out or ["pass"]

    # -- expressions -----------------------------------------------------------------

    def _k(self) -> int:
        self.key += 1
        return self.key

    def condition(self) -> str:
        return self.rng.choice(CONDITIONS).format(k=self.rng.randint(0, 9))

    def constant(self) -> str:
        return self.rng.choice(constants.ALL).replace("K", str(self.rng.randint(0, 9)))

    def comprehension(self, scope: Scope) -> str:
        forms = [
            "[i for i in y]",
            "[i * x for i in y if i]",
            "{i: x for i in y if not i}",
            "{i % 3 for i in y}",
            "(i for i in y if not i)",
            "list(i + 1 for i in y)",
            "[[j for j in range(i)] for i in y]",
            "[(i, j) for i in y for j in y if i < j]",
            "{i: [j for j in y if j != i] for i in y}",
            "[x for x in y]",
            "[g() for g in [lambda: i for i in y]]",
            "[i if i else -i for i in y if i or x]",
            "sum(i for i in y if not i)",
        ]
        if not scope.class_body:
            forms += ["[w for i in y if (w := i)]", "[(w := i) for i in y]"]
        if scope.awaits:
            forms += [
                "[i async for i in AIter(y)]",
                "[await A(i) for i in y]",
                "{i: i async for i in AIter(y) if i}",
                "[i async for i in AIter(y) async for j in AIter(y)]",
            ]
        return self.rng.choice(forms)

    def value(self, scope: Scope, depth: int = 0) -> str:
        """An expression; most read the tape or x."""
        rng = self.rng
        k = rng.randint(0, 9)
        forms = ["x", "t.v()", "k", "const", "x + t.v()", "-x", "x % 7", "len(y)", "y[1:]"]
        if depth < 2:
            forms += ["ifexp", "boolop", "compare", "lambda", "comp", "walrus", "fstring"]
            if scope.awaits:
                forms += ["await"]
        form = rng.choice(forms)
        if form == "k":
            return str(k)
        if form == "const":
            return self.constant()
        if form == "ifexp":
            return f"({self.value(scope, depth + 1)} if t.c() else {self.value(scope, depth + 1)})"
        if form == "boolop":
            return f"(t.c() and {self.value(scope, depth + 1)} or {self.value(scope, depth + 1)})"
        if form == "compare":
            return rng.choice(
                [f"0 < x <= t.v() < {k}", f"x == t.v() != {k}", "x is not None is not t.c()"]
            )
        if form == "lambda":
            return rng.choice(
                [
                    f"(lambda a, b={k}: a if a > b else (b, x))({self.value(scope, depth + 1)})",
                    f"(lambda *a, **kw: (a, kw))(x, k={k})",
                    "(lambda a: a or x)(t.v() % 2)",
                ]
            )
        if form == "comp":
            return self.comprehension(scope)
        if form == "walrus":
            return f"(z := {self.value(scope, depth + 1)})"
        if form == "fstring":
            return rng.choice(constants.FSTRINGS).replace("K", str(k))
        if form == "await":
            return f"await A({self.value(scope, depth + 1)})"
        return form

    # -- statements ------------------------------------------------------------------

    def statement(self, scope: Scope) -> list[str]:
        rng = self.rng
        simple = self.budget <= 0 or scope.depth >= 4
        kinds = ["log", "log", "assign", "assign", "augmented", "unpack", "comprehension"]
        kinds += ["constant", "assert", "del", "walrus"]
        if scope.loop and not scope.star:
            kinds += ["break", "continue"]
        if scope.function and not scope.star and (not scope.finally_body or rng.random() < 0.2):
            kinds += ["return"]
        if not scope.finally_body or rng.random() < 0.2:
            kinds += ["raise"]
        if scope.generator:
            kinds += ["yield", "yield"]
        if scope.awaits:
            kinds += ["await"]
        if not simple:
            kinds += ["if", "if", "while", "for", "try", "try", "with", "with", "whiletrue"]
            kinds += ["match", "trystar"]
            if scope.awaits:
                kinds += ["asyncfor", "asyncwith"]
            if scope.nesting < 2:
                kinds += ["def", "closure", "lambda", "class"]
        kind = rng.choice(kinds)
        k = self._k()
        simple_form = getattr(self, f"_{kind}", None)
        if simple_form is not None:
            return simple_form(scope, k)
        self.budget -= 1
        return getattr(self, f"compound_{kind}")(scope, k)

    def _log(self, scope: Scope, k: int) -> list[str]:
        return [f"LOG.append({self.rng.choice([str(k), 'x', 'i', self.value(scope)])})"]

    def _assign(self, scope: Scope, k: int) -> list[str]:
        return [
            self.rng.choice(
                [f"x = t.v() + {k}", "x += 1", f"x = x * 2 - {k}", f"x = {self.value(scope)}"]
            )
        ]

    def _augmented(self, scope: Scope, k: int) -> list[str]:
        target = self.rng.choice(["x", "y[0]", "t.last", "y[:1]"])
        value = "[x]" if target == "y[:1]" else str(k)
        op = (
            "+="
            if target == "y[:1]"
            else self.rng.choice(["+=", "-=", "*=", "//=", "%=", "^=", "|="])
        )
        return [f"{target} {op} {value}"]

    def _unpack(self, scope: Scope, k: int) -> list[str]:
        return [
            self.rng.choice(
                [
                    f"x, *y = [t.v(), {k}, *y]",
                    "*y, x = y + [x]",
                    f"(x, (i, j)), y = (t.v(), ({k}, 2)), t.items()",
                    "[] = y",
                    "() = y[:0]",
                    "x = [] = y",
                    f"x = [i, j] = [t.v(), {k}]",
                    "p = [q, r] = s = (1, 2)",
                    "t.a, t.b = x, y",
                    "y[0:1] = [x]",
                    f"y[:], x = [{k}], y",
                    "[x, *_], i = y or [0], 1",
                    "x, = y[:1] or [x]",
                    "i = j = x",
                ]
            )
        ]

    def _comprehension(self, scope: Scope, k: int) -> list[str]:
        form = self.comprehension(scope)
        if self.rng.random() < 0.5:
            return [form, "LOG.append((i, x))"]
        return [self.rng.choice([form, f"LOG.append({form})", f"y = list({form})"])]

    def _constant(self, scope: Scope, k: int) -> list[str]:
        return [f"LOG.append({self.constant()})"]

    def _assert(self, scope: Scope, k: int) -> list[str]:
        return [
            self.rng.choice([f"assert t.c(), (x, {k})", f"assert x != {k}", "assert y or t.c()"])
        ]

    def _del(self, scope: Scope, k: int) -> list[str]:
        return self.rng.choice(
            [["del y[:1]"], ["del x", f"x = {k}"], ["del t.a"], ["z = x", "del z"], ["del (i, j)"]]
        )

    def _walrus(self, scope: Scope, k: int) -> list[str]:
        return self.rng.choice(
            [
                [f"if (z := t.v()) > {k}:", "    LOG.append(z)"],
                [f"LOG.append([z := x + {k}, z])"],
                ["while (z := t.v()) % 3:", "    LOG.append(z)"],
            ]
        )

    def _leaf(self, scope: Scope, line: str) -> list[str]:
        if self.rng.random() < 0.5:
            return [f"if {self.condition()}:", "    " + line]
        return [line]

    def _break(self, scope: Scope, k: int) -> list[str]:
        return self._leaf(scope, "break")

    def _continue(self, scope: Scope, k: int) -> list[str]:
        return self._leaf(scope, "continue")

    def _return(self, scope: Scope, k: int) -> list[str]:
        forms = [
            "return",
            f"return {k}",
            "return x",
            f"return (x, {k})",
            f"return {self.value(scope)}",
        ]
        return self._leaf(scope, "return" if scope.async_generator else self.rng.choice(forms))

    def _raise(self, scope: Scope, k: int) -> list[str]:
        forms = [
            f"raise E1({k})",
            f"raise E2({k})",
            f"raise E2({k}) from E1(x)",
            f"raise E1({k}) from None",
            f"raise Group('g{k}', [E1({k}), E2(x)])",
            f"raise E1(f'{{x}}-{k}')",
        ]
        return self._leaf(scope, self.rng.choice(forms))

    def _yield(self, scope: Scope, k: int) -> list[str]:
        forms = ["yield x", f"yield {k}", f"x = yield {k}", "yield"]
        if not scope.async_generator:
            forms += ["yield from y", "x = yield from [x, x]"]
        line = self.rng.choice(forms)
        return [
            line.replace("x = yield", "x = (yield") + ")" if line.startswith("x = yield ") else line
        ]

    def _await(self, scope: Scope, k: int) -> list[str]:
        return [
            self.rng.choice(
                [f"x = await A(x + {k})", f"await A({k})", "LOG.append(await A(t.v()))"]
            )
        ]

    # -- compound statements ---------------------------------------------------------

    def _inner(self, scope: Scope, **changes) -> Scope:
        return replace(scope, depth=scope.depth + 1, **changes)

    def compound_if(self, scope: Scope, k: int) -> list[str]:
        inner = self._inner(scope)
        out = [f"if {self.condition()}:", *_indent(self.block(inner))]
        if self.rng.random() < 0.3:
            out += [f"elif {self.condition()}:", *_indent(self.block(inner))]
        if self.rng.random() < 0.5:
            out += ["else:", *_indent(self.block(inner))]
        return out

    def _orelse(self, scope: Scope) -> list[str]:
        if self.rng.random() < 0.25:
            return ["else:", *_indent(self.block(self._inner(scope)))]
        return []

    def _looped(self, scope: Scope) -> Scope:
        return self._inner(scope, loop=True, finally_body=False)

    def compound_while(self, scope: Scope, k: int) -> list[str]:
        body = self.block(self._looped(scope))
        return [f"while {self.condition()}:", *_indent(body), *self._orelse(scope)]

    def compound_whiletrue(self, scope: Scope, k: int) -> list[str]:
        guard = [f"if {self.condition()}:", "    break"]
        body = self.block(self._looped(scope))
        if self.rng.random() < 0.5 or _ends(body[-1]):
            body = guard + body
        else:  # (a continue skips the guard: the round still reads the tape)
            body = ["t.v()", *body, *guard]
        return ["while True:", *_indent(body)]

    def compound_for(self, scope: Scope, k: int) -> list[str]:
        target = self.rng.choice(["i", "x", "(i, j)", "i, *j", "t.a", "y[0]"])
        source = "enumerate(t.items())" if target in ("(i, j)", "i, *j") else "t.items()"
        body = self.block(self._looped(scope))
        return [f"for {target} in {source}:", *_indent(body), *self._orelse(scope)]

    def compound_asyncfor(self, scope: Scope, k: int) -> list[str]:
        target = self.rng.choice(["i", "x"])
        body = self.block(self._looped(scope))
        return [f"async for {target} in AIter(t.items()):", *_indent(body), *self._orelse(scope)]

    def compound_with(self, scope: Scope, k: int) -> list[str]:
        head = self.rng.choice(
            [f"Box(t, {k})", f"Box(t, {k}) as x", f"Box(t, {k}), Box(t, -{k}) as i"]
        )
        return [f"with {head}:", *_indent(self.block(self._inner(scope)))]

    def compound_asyncwith(self, scope: Scope, k: int) -> list[str]:
        head = self.rng.choice([f"ABox(t, {k})", f"ABox(t, {k}) as x"])
        return [f"async with {head}:", *_indent(self.block(self._inner(scope)))]

    def compound_try(self, scope: Scope, k: int) -> list[str]:
        rng = self.rng
        inner = self._inner(scope)
        out = ["try:", *_indent(self.block(inner))]
        clauses = rng.choice([1, 1, 2, 0])
        for _ in range(clauses):
            kind = rng.choice(["E1", "E2", "(E1, E2)", "Exception"])
            name = rng.choice(["", " as e"])
            body = self.block(inner)
            if name and rng.random() < 0.5:
                body = ["LOG.append(str(e))", *body]
            out += [f"except {kind}{name}:", *_indent(body)]
        if clauses and rng.random() < 0.3:
            out += ["else:", *_indent(self.block(inner))]
        if not clauses or rng.random() < 0.3:
            out += ["finally:", *_indent(self.block(replace(inner, finally_body=True)))]
        return out

    def compound_trystar(self, scope: Scope, k: int) -> list[str]:
        rng = self.rng
        inner = self._inner(scope)
        out = ["try:", *_indent(self.block(inner))]
        for _ in range(rng.choice([1, 2])):
            kind = rng.choice(["E1", "E2", "(E1, E2)", "Exception"])
            body = self.block(self._inner(scope, star=True))
            if rng.random() < 0.5:
                out += [f"except* {kind} as e:", "    LOG.append(repr(e))", *_indent(body)]
            else:
                out += [f"except* {kind}:", *_indent(body)]
        if rng.random() < 0.3:
            out += ["else:", *_indent(self.block(inner))]
        if rng.random() < 0.3:
            out += ["finally:", *_indent(self.block(replace(inner, finally_body=True)))]
        return out

    def compound_match(self, scope: Scope, k: int) -> list[str]:
        rng = self.rng
        inner = self._inner(scope)
        out = [f"match {rng.choice(SUBJECTS)}:"]
        cases = rng.sample(PATTERNS, rng.randint(1, 4))
        if rng.random() < 0.5:
            cases.append(rng.choice(LAST_PATTERNS))
        for pattern, names in cases:
            body = self.block(inner)
            if names and rng.random() < 0.6:
                body = [f"LOG.append(({', '.join(names)},))", *body]
            out += [f"    case {pattern}:", *_indent(_indent(body))]
        return out

    def _function_scope(self, scope: Scope, **changes) -> Scope:
        return Scope(
            function=True,
            in_function=True,
            depth=scope.depth + 1,
            nesting=scope.nesting + 1,
            **changes,
        )

    def compound_def(self, scope: Scope, k: int) -> list[str]:
        """A nested function with a body of its own, called where it is defined."""
        rng = self.rng
        name = f"g{k}"
        flavour = rng.choice(["plain", "plain", "generator", "coroutine", "async generator"])
        inner = self._function_scope(
            scope,
            generator=flavour in ("generator", "async generator"),
            awaits=flavour in ("coroutine", "async generator"),
            async_generator=flavour == "async generator",
        )
        body = ["x, y, i = t.v(), t.items(), a", *self.block(inner)]
        if inner.generator:  # (so that it is one, whatever the block holds)
            body.insert(1, "yield a")
        if flavour != "async generator":
            body.append("return x")
        head = "async def" if flavour in ("coroutine", "async generator") else "def"
        call = f"{name}(t)"
        if flavour == "generator":
            call = f"list({call})"
        elif flavour == "coroutine":
            call = f"await {call}" if scope.awaits else f"drive({call})"
        elif flavour == "async generator":
            call = f"[v async for v in {call}]" if scope.awaits else f"collect({call})"
        out = [f"{head} {name}(t, a={self.constant()}):", *_indent(body), f"LOG.append({call})"]
        if rng.random() < 0.3:
            out.append(f"LOG.append({name})")
        return out

    def compound_closure(self, scope: Scope, k: int) -> list[str]:
        """A function over the names around it: nonlocal, global, cells, defaults."""
        rng = self.rng
        name = f"g{k}"
        if scope.in_function and rng.random() < 0.5:
            body = ["nonlocal x", "x = x + a", "return lambda c=b: c if c else x"]
        else:
            body = ["global G", "G = [x, G][:2]", "return lambda c=b: (c, G) if c else x"]
        out = [f"def {name}(a, b={self.constant()}):", *_indent(body)]
        return [*out, f"LOG.append({name}(t.v() % 3)())", f"LOG.append({name})"]

    def compound_lambda(self, scope: Scope, k: int) -> list[str]:
        name = f"l{k}"
        form = self.rng.choice(
            [
                f"lambda a, b={k}: a if a > b else (b, x)",
                "lambda *a, c=x: [v for v in a if v] or c",
                "lambda: (yield x)",
                "lambda a: lambda: a if t.c() else x",
            ]
        )
        call = f"{name}(t.v())"
        if form.startswith("lambda:"):
            call = f"list({name}())"
        elif form.startswith("lambda *a"):
            call = f"{name}(x, 0, t.v())"
        elif form.startswith("lambda a: lambda"):
            call = f"{name}(t.v())()"
        return [f"{name} = {form}", f"LOG.append({call})", f"LOG.append({name})"]

    def compound_class(self, scope: Scope, k: int) -> list[str]:
        rng = self.rng
        name = f"C{k}"
        body_scope = Scope(
            in_function=scope.in_function,
            class_body=True,
            depth=scope.depth + 1,
            nesting=scope.nesting + 1,
        )
        method_scope = self._function_scope(scope)
        body = [
            f"__p = {self.value(body_scope)}",
            rng.choice(["q = [r, s] = u = (1, 2)", "v = x", "w = [j for j in range(3)]"]),
            *self.block(body_scope),
            "def m(self, a=__p):",
            *_indent(
                ["x, y, i = t.v(), t.items(), a", *self.block(method_scope), "return self.__p"]
            ),
            "def __h(self):",
            "    return self.__p, __class__",
            rng.choice(
                [
                    "k = lambda self: 1 if self else 2",
                    "z = [j for j in range(2) if j]",
                    "d = {j: j for j in range(3)}",
                    "e = (j for j in range(3) if not j)",
                ]
            ),
        ]
        base = rng.choice(["", "(E1)", "(P)"])
        return [
            f"class {name}{base}:",
            *_indent(body),
            f"LOG.append({name})",
            f"LOG.append({name}.__dict__.keys() - {{'__firstlineno__'}})",
            f"LOG.append({name}.m({name}))",
            f"LOG.append({name}._{name}__h({name}))",
        ]


def _indent(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]


def _ends(line: str) -> bool:
    """Whether a statement leaves the block unconditionally (code after it is dead)."""
    return line.split("(")[0].split(" ")[0] in ("return", "raise", "break", "continue")
