"""Return values the compiler keeps on the stack while other code runs before the
return, which the walk kept in a ``_tN`` local that ``locals()`` or a debugger would
show, in functions it structures:
- an inlined comprehension (3.12+) returned from a try body, through a finally body,
  past an except clause's end, or through a with's ``__exit__``: the walk left its
  accumulator and loop at the end of the try (or if, or with) body and the return of
  the accumulator after the statement; the same with a conditional expression of
  comprehensions, each arm an assignment to the one temporary in an if;
- a value returned through a finally body that branches to its end (a loop left by
  breaks, an if or a case that returns on one way): each of the finally body's two
  copies, read as a bare except clause and an else, holds the way out (the re-raise,
  the return of the kept value) where the body ends, and the walks read the two
  copies' loops and ifs each their own way; a loop with an else, whose break is
  the way out and whose else the walk writes after the loop.
Each reads back as written; one function each, named after the shape, with the seed
it was found on (elsewhere, the Pythons that inline no comprehension read the same
source, with nothing held)."""

LOG = []


class Tick:
    def __init__(self, label):
        self.label = label

    def __await__(self):
        yield self.label
        return self.label


class Count:
    """An async iterable over ``range(n)``, awaiting before each item."""

    def __init__(self, n):
        self.n, self.i = n, 0

    def __aiter__(self):
        return self

    async def __anext__(self):
        if self.i >= self.n:
            raise StopAsyncIteration
        self.i += 1
        await Tick(self.i)
        return self.i - 1


class Box:
    def __init__(self, suppress=False):
        self.suppress = suppress

    def __enter__(self):
        LOG.append("enter")
        return self

    def __exit__(self, kind, value, traceback):
        LOG.append(("exit", kind.__name__ if kind else None))
        return self.suppress

    async def __aenter__(self):
        await Tick("aenter")
        return self.__enter__()

    async def __aexit__(self, kind, value, traceback):
        await Tick("aexit")
        return self.__exit__(kind, value, traceback)


def returns_a_list_comprehension_through_a_finally(y, x):
    """``try: return [i for i in y] / finally: LOG.append(x)`` (seeds 6414, 6487, 6620,
    9613 on 3.12, 3.13)."""
    try:
        return [i * 2 for i in y]
    finally:
        LOG.append(x)


def returns_a_set_comprehension_through_a_finally(y, x):
    """The same with a set comprehension and a filter."""
    try:
        return {i % 3 for i in y if i != x}
    finally:
        LOG.append(x)


def returns_a_dict_comprehension_through_a_finally(y, x):
    """The same with a dict comprehension whose value is a comprehension too."""
    try:
        return {i: [j for j in y if j < i] for i in y}
    finally:
        LOG.append(x)


async def returns_an_async_comprehension_through_a_finally(n, x):
    """The same with an async comprehension."""
    try:
        return [i async for i in Count(n)]
    finally:
        LOG.append(x)


async def returns_an_async_comprehension_from_an_if_in_a_try(n, t):
    """``if t: return [i async for i in ...]`` in a try with an except clause: the value
    waits through the try's end (seed 10592 on 3.12, 3.13)."""
    try:
        if t:
            return [i async for i in Count(n)]
        LOG.append(n)
    except ZeroDivisionError:
        LOG.append(1 / t)


def returns_comprehensions_from_both_branches_in_a_try(y, t):
    """A comprehension returned from each branch of an if in a try with a clause and a
    finally body, one of them over another comprehension."""
    try:
        if t > 1:
            return [g for g in [i for i in y] if g]
        else:
            return {i: t for i in y}
    except TypeError:
        LOG.append(2)
    finally:
        LOG.append(t)


def returns_a_comprehension_from_a_loop_through_a_finally(y, t):
    """A comprehension returned from a for loop in a try with a finally body."""
    try:
        for a in t:
            if a:
                return [i + a for i in y]
        LOG.append(t)
    finally:
        LOG.append(len(t))


def returns_a_comprehension_from_a_with(y, suppress):
    """``with m: return [...]``: the value waits through ``__exit__``."""
    with Box(suppress):
        return [1 // i for i in y]


async def returns_a_comprehension_from_an_async_with(y, suppress):
    """``async with m: return {...}``: the value waits through ``__aexit__``."""
    async with Box(suppress):
        return {1 // i for i in y}


def returns_a_comprehension_through_a_finally_in_a_with(y, suppress):
    """A comprehension over another returned through a finally body inside a with."""
    with Box(suppress):
        try:
            return [g for g in [1 // i for i in y]]
        finally:
            LOG.append(len(y))


class Tape:
    """Answers to ``c()`` and ``v()``, in turn, round and round."""

    def __init__(self, *values):
        self.values, self.reads = list(values), 0

    def v(self):
        self.reads += 1
        return self.values[self.reads % len(self.values)]

    def c(self):
        return self.v() % 3 != 0


def returns_through_a_finally_loop_left_by_breaks(t, x):
    """``while True:`` left by breaks on tests ending a finally body: the else's copy
    reads as ``while True: if a or b and c: pass / else: ...``, the clause's as ``while
    not a and (not b or not c):`` (seed 10685 on 3.10-3.13)."""
    try:
        return (x, 51)
    finally:
        while True:
            if t.c() if x else not t.c():
                break
            if (n := t.v()) > 3 and t.c():
                break
            if t.c():
                continue
        LOG.append(x)


def returns_through_a_finally_loop_after_a_clause_that_raises(t, x):
    """The same around a try whose clause raises: the value is kept at the end of an
    inner try's body (seed 10685 on 3.12)."""
    try:
        return (x, 51)
    except KeyError:
        raise ValueError(52) from None
    finally:
        while True:
            if t.c() if x else not t.c():
                break
            if (n := t.v()) > 3 and t.c():
                break
            if t.c():
                continue
        LOG.append(x)


def returns_through_a_guarded_case_that_returns(t, x):
    """A case whose body returns on one way, going on to the end on the other, ending
    a finally body (seed 20167 on 3.10, 3.11)."""
    try:
        return [i for i in range(x)]
    finally:
        match t.v() % 6:
            case a if t.c():
                if t.c() if x else not t.c():
                    return a


def returns_through_a_finally_loop_that_returns(t, x):
    """``while True: if a: break / if b: return f()`` in an if ending a finally body:
    the walk reads the return after the loop and the break as the way out (seed 20167
    on 3.12, 3.13)."""
    try:
        return [i for i in range(x)]
    finally:
        if x:
            while True:
                if t.c():
                    break
                if t.c() if x else not t.c():
                    return len(LOG)


class Steps:
    def __init__(self, n):
        self.n, self.i = n, 0

    def __aiter__(self):
        return self

    async def __anext__(self):
        if self.i >= self.n:
            raise StopAsyncIteration
        self.i += 1
        await Tick(self.i)
        return self.i


async def returns_through_an_async_for_that_breaks(t, x):
    """An async for loop left by a break ending a finally body: the else's copy reads
    the break as the return, the loop's end as ``continue`` (seed 8814 on 3.11-3.13)."""
    try:
        return (x, 58)
    finally:
        async for i in Steps(t.v()):
            if t.c() or x > 1:
                break


def returns_through_a_for_that_breaks(t, x):
    """The same with a for loop."""
    try:
        return (x, 58)
    finally:
        for i in range(t.v()):
            if t.c() or x > 1:
                break
            LOG.append(i)


CASES = [
    ("returns_a_list_comprehension_through_a_finally", ([1, 2], 3)),
    ("returns_a_list_comprehension_through_a_finally", (None, 3)),
    ("returns_a_set_comprehension_through_a_finally", ([1, 2, 4, 5], 2)),
    ("returns_a_dict_comprehension_through_a_finally", ([1, 2, 3], 0)),
    ("returns_an_async_comprehension_through_a_finally", (3, 1)),
    ("returns_an_async_comprehension_through_a_finally", (0, 2)),
    ("returns_an_async_comprehension_from_an_if_in_a_try", (2, 1)),
    ("returns_an_async_comprehension_from_an_if_in_a_try", (2, 0)),
    ("returns_an_async_comprehension_from_an_if_in_a_try", (2, False)),
    ("returns_comprehensions_from_both_branches_in_a_try", ([0, 1, 2], 2)),
    ("returns_comprehensions_from_both_branches_in_a_try", ([0, 1, 2], 1)),
    ("returns_comprehensions_from_both_branches_in_a_try", (3, 2)),
    ("returns_a_comprehension_from_a_loop_through_a_finally", ([1, 2], [0, 3])),
    ("returns_a_comprehension_from_a_loop_through_a_finally", ([1, 2], [0])),
    ("returns_a_comprehension_from_a_loop_through_a_finally", ([1, 2], 5)),
    ("returns_a_comprehension_from_a_with", ([1, 2], False)),
    ("returns_a_comprehension_from_a_with", ([1, 0], False)),
    ("returns_a_comprehension_from_a_with", ([1, 0], True)),
    ("returns_a_comprehension_from_an_async_with", ([1, 2], False)),
    ("returns_a_comprehension_from_an_async_with", ([0], True)),
    ("returns_a_comprehension_through_a_finally_in_a_with", ([1, 2], False)),
    ("returns_a_comprehension_through_a_finally_in_a_with", ([1, 0], True)),
]


def returns_through_a_finally_loop_with_an_else(x, y):
    """A for loop with an else ending a finally body, left by a break: each copy has
    the way out at the break and the else after the loop."""
    try:
        return [i for i in y]
    finally:
        for i in range(x):
            if i:
                LOG.append(i)
                break
        else:
            LOG.append("else")


def returns_through_a_clause_and_a_finally_loop_with_an_else(x):
    """The same around a try whose clause raises."""
    try:
        return 1 // x
    except ZeroDivisionError:
        raise ValueError from None
    finally:
        for i in range(x + 2):
            if i > 1:
                break
            LOG.append(i)
        else:
            LOG.append("else")


def returns_a_conditional_comprehension_through_a_finally(x, y):
    """``return [...] if c else [...]`` through a finally body: each arm keeps its
    comprehension's value in the one temporary, in an if (3.12+)."""
    try:
        return [i for i in y] if x else {j: x for j in y}
    finally:
        LOG.append(x)


def _tape_cases():
    cases = []
    for values in ((1, 2, 3, 4, 5, 6), (3, 6, 9, 1), (2, 4, 3, 5, 7, 9, 8)):
        for x in (0, 2, 5):
            for name in (
                "returns_through_a_finally_loop_left_by_breaks",
                "returns_through_a_finally_loop_after_a_clause_that_raises",
                "returns_through_a_guarded_case_that_returns",
                "returns_through_a_finally_loop_that_returns",
                "returns_through_an_async_for_that_breaks",
                "returns_through_a_for_that_breaks",
            ):
                cases.append((name, (Tape(*values), x)))
    return cases


CASES += _tape_cases()
CASES += [
    ("returns_through_a_finally_loop_with_an_else", (0, [1])),
    ("returns_through_a_finally_loop_with_an_else", (1, [1])),
    ("returns_through_a_finally_loop_with_an_else", (3, None)),
    ("returns_through_a_clause_and_a_finally_loop_with_an_else", (0,)),
    ("returns_through_a_clause_and_a_finally_loop_with_an_else", (-1,)),
    ("returns_through_a_clause_and_a_finally_loop_with_an_else", (1,)),
    ("returns_through_a_clause_and_a_finally_loop_with_an_else", (4,)),
    ("returns_a_conditional_comprehension_through_a_finally", (0, [1, 2])),
    ("returns_a_conditional_comprehension_through_a_finally", (1, [1, 2])),
    ("returns_a_conditional_comprehension_through_a_finally", (1, None)),
]
