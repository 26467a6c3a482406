"""The first generator: random functions of nested control flow only, each decompiled
alone. Kept for the seeds it found wrong (``test_random_programs.py``), whose
programs are these exact functions.

Each function reads its choices from a tape: ``t.c()`` is the next condition, ``t.v()``
the next value, ``t.items()`` a short list; ``with Box(t, k)`` suppresses an exception
when the tape says so. Everything the function does goes into ``LOG``. A function and
its decompiled source mean the same when, on the same tapes, they log the same and
return or raise the same. The tape runs out after a bounded number of reads, by
raising ``Spent``, so a loop that a wrong decompile left without its way out ends too.

Stdlib only: it runs on every Python the decompiler supports.
"""

from __future__ import annotations

import random
import types
from dataclasses import dataclass, field

from .compare import TAPES, Verdict, exception_context

PRELUDE = '''
LOG = []


class Spent(BaseException):
    """The tape ran out: a loop went on longer than any tape allows."""


class E1(Exception):
    pass


class E2(Exception):
    pass


class Tape:
    def __init__(self, numbers):
        self.numbers = list(numbers)
        self.reads = 0

    def _next(self):
        self.reads += 1
        if self.reads > 60:
            raise Spent()
        return self.numbers[self.reads % len(self.numbers)]

    def c(self):
        return self._next() % 3 != 0

    def v(self):
        return self._next()

    def items(self):
        return list(range(self._next() % 4))


class Box:
    def __init__(self, tape, key):
        self.tape, self.key = tape, key

    def __enter__(self):
        LOG.append(("enter", self.key))
        return self.key

    def __exit__(self, kind, value, traceback):
        LOG.append(("exit", self.key, kind.__name__ if kind else None))
        return kind is not None and kind is not Spent and self.tape.c()
'''

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
]


@dataclass
class Scope:
    """Where a statement is written: inside which loops, clauses and finally bodies."""

    loop: bool = False
    finally_body: bool = False
    depth: int = 0
    names: list = field(default_factory=lambda: ["x"])


class Generator:
    def __init__(self, seed: int, size: int = 12):
        self.rng = random.Random(seed)
        self.budget = size
        self.key = 0

    def function(self, name: str = "f") -> str:
        body = ["x = t.v()", *self.block(Scope())]
        lines = "\n".join("    " + line for line in body)
        return f"def {name}(t):\n{lines}\n    return ('end', x)\n"

    def block(self, scope: Scope, least: int = 1) -> list[str]:
        out: list[str] = []
        count = self.rng.randint(least, 3)
        for _ in range(count):
            out += self.statement(scope)
            if out and _ends(out[-1]):
                break
        return out or ["pass"]

    def _k(self) -> int:
        self.key += 1
        return self.key

    def _condition(self) -> str:
        return self.rng.choice(CONDITIONS).format(k=self.rng.randint(0, 9))

    def statement(self, scope: Scope) -> list[str]:
        rng = self.rng
        simple = self.budget <= 0 or scope.depth >= 4
        choices = ["log", "assign", "log"]
        if scope.loop:
            choices += ["break", "continue"]
        if not scope.finally_body or rng.random() < 0.2:
            choices += ["return", "raise"]
        if not simple:
            choices += ["if", "if", "while", "for", "try", "try", "with", "with", "whiletrue"]
        kind = rng.choice(choices)
        k = self._k()
        if kind == "log":
            return [f"LOG.append({rng.choice([str(k), 'x'])})"]
        if kind == "assign":
            return [rng.choice([f"x = t.v() + {k}", "x += 1", f"x = x * 2 - {k}"])]
        if kind in ("break", "continue", "return", "raise"):
            leaf = {
                "break": "break",
                "continue": "continue",
                "return": rng.choice(["return", f"return {k}", "return x", f"return (x, {k})"]),
                "raise": rng.choice([f"raise E1({k})", f"raise E2({k})"]),
            }[kind]
            if rng.random() < 0.5:
                return [f"if {self._condition()}:", "    " + leaf]
            return [leaf]
        self.budget -= 1
        inner = Scope(scope.loop, scope.finally_body, scope.depth + 1)
        if kind == "if":
            out = [f"if {self._condition()}:", *_indent(self.block(inner))]
            if rng.random() < 0.3:
                out += [f"elif {self._condition()}:", *_indent(self.block(inner))]
            if rng.random() < 0.5:
                out += ["else:", *_indent(self.block(inner))]
            return out
        looped = Scope(True, False, scope.depth + 1)
        orelse = []
        if rng.random() < 0.25:
            orelse = ["else:", *_indent(self.block(inner))]
        if kind == "while":
            return [f"while {self._condition()}:", *_indent(self.block(looped)), *orelse]
        if kind == "whiletrue":
            guard = [f"if {self._condition()}:", "    break"]
            body = self.block(looped)
            if rng.random() < 0.5 or _ends(body[-1]):
                body = guard + body
            else:  # (a continue skips the guard: the round still reads the tape)
                body = ["t.v()", *body, *guard]
            return ["while True:", *_indent(body)]
        if kind == "for":
            target = rng.choice(["i", "x"])
            return [f"for {target} in t.items():", *_indent(self.block(looped)), *orelse]
        if kind == "with":
            head = f"with Box(t, {k})" + rng.choice(["", " as x"])
            return [head + ":", *_indent(self.block(inner))]
        return self._try(scope, inner)

    def _try(self, scope: Scope, inner: Scope) -> list[str]:
        rng = self.rng
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
            final = Scope(scope.loop, True, inner.depth)
            out += ["finally:", *_indent(self.block(final))]
        return out


def _indent(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]


def _ends(line: str) -> bool:
    """Whether a statement leaves the block unconditionally (code after it is dead)."""
    return line.split("(")[0].split(" ")[0] in ("return", "raise", "break", "continue")


def program(seed: int, size: int = 12) -> str:
    """A module: the prelude and one random function ``f``."""
    return PRELUDE + "\n\n" + Generator(seed, size).function()


def run(source: str) -> list:
    """What ``f`` does on each tape: (the log, the result or the exception)."""
    namespace: dict = {"__name__": "random_program"}
    exec(compile(source, "<random program>", "exec"), namespace)
    records = []
    for numbers in TAPES:
        namespace["LOG"].clear()
        try:
            outcome = ("returned", repr(namespace["f"](namespace["Tape"](numbers))))
        except BaseException as error:  # the outcome under comparison
            outcome = ("raised", type(error).__name__, str(error), exception_context(error))
        records.append((list(namespace["LOG"]), outcome))
    return records


def decompiled_program(source: str) -> str:
    """The module with ``f`` replaced by the decompiled source of its code object."""
    from depyf_report import decompile

    module = compile(source, "<random program>", "exec")
    code = next(c for c in module.co_consts if isinstance(c, types.CodeType) and c.co_name == "f")
    return PRELUDE + "\n\n" + decompile(code)


def check(seed: int, size: int = 12) -> Verdict:
    """Decompile ``f`` of the program for ``seed``, run both, and say how they compare."""
    from depyf_report.decompiler.structuring.fallback import STATE_MACHINE_NOTE

    source = program(seed, size)
    verdict = Verdict(seed, "same", source=source)
    try:
        verdict.decompiled = decompiled_program(source)
    except Exception as error:  # a decompile error is a finding, not a crash here
        verdict.kind, verdict.detail = "decompile raised", f"{type(error).__name__}: {error}"
        return verdict
    verdict.state_machine = STATE_MACHINE_NOTE in verdict.decompiled
    try:
        same = run(verdict.decompiled) == run(source)
    except SyntaxError as error:
        verdict.kind, verdict.detail = "does not recompile", str(error)
        return verdict
    if not same:
        verdict.kind, verdict.aspects = "differs", ["log or outcome"]
    return verdict
