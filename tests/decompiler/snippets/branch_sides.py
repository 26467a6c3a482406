"""Branches whose sides the walk could not bring together: values made of ``c and V1
or V2`` (``(c or V1) and V2``) whose first side branches itself, which 3.10 and 3.11
end in value-keeping jumps (``JUMP_IF_TRUE_OR_POP``), and branches that each ran on
through the code before a loop, making an iterator of their own, or that 3.13 left a
jump of out of the try body around, or whose ways out of a with at the end of a loop
body are two copies of its exit: one function each, named after the shape (the
andor group)."""


class Probe:
    """Answers ``c()`` from a list of truth values, logging each question."""

    def __init__(self, answers):
        self.answers, self.log = list(answers), []

    def c(self):
        self.log.append("c")
        return self.answers.pop(0) if self.answers else False

    def v(self):
        self.log.append("v")
        return len(self.answers)


def and_or_with_a_conditional_first(t, x, y):
    """``c and (A if d else B) or V2``: the first side's two values meet at the block
    that keeps one, after which ``c``'s failure goes on too (seed 10140)."""
    value = t.c() and (len(y) if t.c() else x % 7) or (y[1:] if t.c() else y[2:])
    return value, t.log


def or_and_with_a_conditional_first(t, x, y):
    """``(c or (A if d else B)) and V2``, the same with the jumps turned round."""
    value = (t.c() or (len(y) if t.c() else x % 7)) and (y[1:] if t.c() else y[2:])
    return value, t.log


def and_or_with_an_and_or_first(t, x, y):
    """``c and (d and x or y) or V2``: the inner jumps that keep a value go straight
    where the outer one goes (a jump to a jump, threaded), so no block keeps the first
    side: its tests and keeping jumps are one condition (seeds 10346, 10836)."""
    value = t.c() and (t.c() and x or y[1:]) or 0 < x <= t.v() < 8
    return value, t.log


def or_and_with_an_or_and_first(t, x, y):
    """``(c or (d or x and y)) and V2``, the same with the jumps turned round."""
    value = (t.c() or (t.c() or x and y[1:])) and (y[2:] if t.c() else x)
    return value, t.log


def and_or_first_sides_in_a_loop(t, items):
    """Both shapes as the value of a statement inside a loop."""
    out = []
    for x in items:
        out.append(t.c() and (x if t.c() else -x) or (t.c() and x * 2 or x * 3))
    return out, t.log


class Gate:
    """An async context manager that logs its entry and exit."""

    def __init__(self, log):
        self.log = log

    async def __aenter__(self):
        self.log.append("enter")
        return self

    async def __aexit__(self, kind, value, traceback):
        self.log.append(("exit", kind.__name__ if kind else None))


class Ticks:
    """An async iterator over ``items``."""

    def __init__(self, items):
        self.items = list(items)

    def __aiter__(self):
        return self

    async def __anext__(self):
        if not self.items:
            raise StopAsyncIteration
        return self.items.pop(0)


async def async_for_after_an_if_that_returns_in_an_async_with(log, x, items):
    """In an async with, an if (a match) one of whose branches returns, then an async
    for: both other branches ran on through the block making its iterator, each making
    its own, up to the loop's header; they meet at that block (seed 11523)."""
    async with Gate(log):
        match x % 3:
            case 1:
                for i in items:
                    log.append(i)
            case 2:
                return 18
        async for x in Ticks(items):
            log.append(-x)
    return log


async def async_for_after_an_elif_that_returns_in_an_async_with(log, x, items):
    """The same with an if/elif."""
    async with Gate(log):
        if x > 5:
            for i in items:
                log.append(i)
        elif x == 2:
            return 18
        async for x in Ticks(items):
            log.append(-x)
    return log


def returns_a_constant_from_an_if_in_a_case_in_a_try(log, x, y):
    """In a try body, an if in a match case whose body returns a constant: 3.13 leave
    the if's jump out of the exception table, as they do the ``RETURN_CONST`` after it
    (neither can raise), so the jump read as outside the try: it is in the body, which
    goes on after the return (seed 10849). (Read back, the if may be the case's guard.)"""
    try:
        if log is not None:
            match y:
                case [0, *rest]:
                    if x > 1:
                        return 9
        log.append(10 // x)
    except ZeroDivisionError as e:
        log.append(type(e).__name__)
    return log


class Box:
    """A context manager that logs its entry and exit."""

    def __init__(self, log):
        self.log = log

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, kind, value, traceback):
        self.log.append(("exit", kind.__name__ if kind else None))


def continues_from_a_clause_in_a_with_ending_a_loop_body(log, items):
    """In a loop body that ends with a with, an except clause's ``if c: continue``:
    3.12+ lay the continue's copy of the with's exit apart from the exit the clause's
    end goes to, and both go on to the loop's header: either way is the other's, so
    the branches meet there (seed 10876's shape, without the async)."""
    for x in items:
        with Box(log):
            try:
                log.append(10 // x)
            except ZeroDivisionError:
                if log.pop():
                    continue
    return log


async def continues_from_a_clause_in_an_async_with_ending_a_loop_body(log, items):
    """The same in an async for and an async with, whose exit's await splits the
    with's own exit into two blocks, and not the continue's copy (seed 10876)."""
    async for x in Ticks(items):
        async with Gate(log):
            try:
                log.append(10 // x)
            except ZeroDivisionError:
                if log.pop():
                    continue
    return log


CASES = [
    (name, (Probe(answers), x, y))
    for name in (
        "and_or_with_a_conditional_first",
        "or_and_with_a_conditional_first",
        "and_or_with_an_and_or_first",
        "or_and_with_an_or_and_first",
    )
    for answers in ([], [True], [True, True], [True, False], [False, True], [True] * 4,
                    [False, False, True], [True, False, False], [True, True, False])
    for x, y in ((0, ""), (3, "abc"), (9, "z"))
] + [
    ("and_or_first_sides_in_a_loop", (Probe(answers), [0, 1, 2]))
    for answers in ([], [True] * 9, [True, False] * 5, [False, True, True] * 3,
                    [True, True, False, False] * 3)
]
CASES += [
    (name, ([], x, items))
    for name in (
        "async_for_after_an_if_that_returns_in_an_async_with",
        "async_for_after_an_elif_that_returns_in_an_async_with",
    )
    for x in (0, 1, 2, 8)
    for items in ([], [1, 2])
]
CASES += [
    ("returns_a_constant_from_an_if_in_a_case_in_a_try", ([], x, y))
    for x in (0, 1, 2)
    for y in ([0], [0, 1], [1], ())
]
CASES += [
    ("continues_from_a_clause_in_a_with_ending_a_loop_body", (log, items))
    for log in ([], [0], [1, 0, 1])
    for items in ([], [1, 0], [0, 0, 2])
]
CASES += [
    ("continues_from_a_clause_in_an_async_with_ending_a_loop_body", (log, items))
    for log in ([], [0], [1, 0, 1])
    for items in ([], [1, 0], [0, 0, 2])
]
