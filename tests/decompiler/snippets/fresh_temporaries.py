"""Stack values the walk once kept in a temporary (``_t1``) that ``locals()`` or a
debugger would show, found on fresh seeds:
- ``return a or (b if c else f'{d!r}')`` in an except clause (3.12+): the compiler
  copies the clause's return into the arm laid out first, the other arm, an f-string,
  falling into the original where the ``or`` jumps too; an f-string's field was not
  taken for code that only computes a value, so that copy was not sent back to its
  original and the ``or``'s value was kept in a temporary;
  the same for an arm that is a call with keywords or with starred arguments, or a
  display with starred items or constant keys;
- a case whose body ends in a with statement that continues the loop, after a with
  whose body raises, before a literal case (3.12+ lay that case's test out after the
  raise): ``__exit__`` suppressing an exception goes straight on to the next round,
  which was read as running on into that test, after the match, on the kept subject.
Each reads back as written; one function each, named after the shape, with the seed
it was found on, and variants of the shape (in a loop, a method, an async def, a
module's own code)."""


class E1(Exception):
    pass


class Box:
    """A context manager that logs its exits and suppresses an exception when its key
    is odd; entering it with a key over 8 raises KeyError."""

    def __init__(self, log, key):
        self.log, self.key = log, key

    def __enter__(self):
        if self.key > 8:
            raise KeyError(self.key)
        return self.key

    def __exit__(self, kind, value, traceback):
        self.log.append(("exit", self.key, kind and kind.__name__))
        return kind is not None and self.key % 2 == 1


def returns_an_or_ending_in_an_fstring_arm_in_a_clause(x, a, c, y):
    """``return a or (c if c else f'{y!r}')`` in an except clause, in a case of a
    match (seed 50694 on 3.12, 3.13)."""
    try:
        return 1 / x
    except ZeroDivisionError:
        match (x, a):
            case (b, 1):
                return a and y[1:] or (c * 2 if c else f"{y[0:1]!r}")


def returns_an_or_ending_in_a_formatted_arm_in_a_clause(x, a, c, y):
    """The same with a format spec, ``f'{y:>4}'``, straight in the clause."""
    try:
        return 1 / x
    except ZeroDivisionError:
        return a or (c if c else f"{y:>4}")


def returns_an_or_ending_in_an_fstring_arm_in_a_loop(xs, c):
    """The same in a for loop's except clause, the arm an f-string of two fields."""
    for x in xs:
        try:
            log = 1 / x
        except ZeroDivisionError:
            return log or (c if c else f"{x}-{c!a}")
    return xs


def returns_an_or_ending_in_a_keyword_call_arm_in_a_clause(x, a, c, y):
    """The same, the arm a call with keywords, ``dict(k=y)`` (3.12 names them first)."""
    try:
        return 1 / x
    except ZeroDivisionError:
        return a or (c if c else dict(k=y))


def returns_an_or_ending_in_a_starred_arm_in_a_clause(x, a, c, y):
    """The same, the arm with starred items, ``(c, *y)``, ``max(*y, **k)``, ``{**k}``."""
    try:
        return 1 / x
    except ZeroDivisionError:
        if a is None:
            return c or (max(*y, **{"default": 0}) if y else (c, *y))
        return a or ({**{"a": a}} if c else {"k": y, "c": c})


class Formats:
    def returns_an_or_ending_in_an_fstring_arm(self, x, a):
        """The same in a method, the arm ``f'{self!s}'``."""
        try:
            return 1 / x
        except ZeroDivisionError:
            return a or (x if a is None else f"{type(self).__name__!s}")


async def returns_an_or_ending_in_an_fstring_arm_async(x, a, c):
    """The same in an async def."""
    try:
        return 1 / x
    except ZeroDivisionError:
        return a or (c if c else f"{x!r}")


try:
    MODULE_VALUE = 1 / 0
except ZeroDivisionError:
    MODULE_VALUE = "" or (0 if len(__name__) > 99 else f"{__name__!r}")


def module_value():
    """The module's own code: the same value stored, ``x = a or (b if c else f'')``."""
    return MODULE_VALUE


def continues_after_a_suppressing_with_before_a_literal_case(xs, log):
    """A case whose body raises in a with, then continues in a with (``__exit__``
    suppressing goes on to the next round), before a literal case (seed 49673 on
    3.12, 3.13)."""
    for x in xs:
        match x % 6:
            case 2:
                with Box(log, x + 1):
                    raise E1(16)
                with Box(log, x + 5), Box(log, x + 7) as i:
                    log.append(i)
                    continue
            case 0 | 1:
                raise E1(f"{x}-20")
    return log


class Cases:
    def continues_after_a_suppressing_with(self, xs, log):
        """The same in a method, on a kept subject ``x % 5``."""
        for x in xs:
            match x % 5:
                case 3:
                    with Box(log, x):
                        raise E1(x)
                    with Box(log, x + 2), Box(log, 1):
                        log.append(x)
                        continue
                case 1:
                    raise E1("one")
        return log


class ABox(Box):
    async def __aenter__(self):
        return self.__enter__()

    async def __aexit__(self, kind, value, traceback):
        return self.__exit__(kind, value, traceback)


async def continues_after_a_suppressing_async_with(xs, log):
    """The same in an async for, the last with an async with."""
    async for x in AIter(xs):
        match x % 5:
            case 3:
                with Box(log, x):
                    raise E1(x)
                async with ABox(log, x + 2), ABox(log, 1):
                    continue
            case 1:
                raise E1("one")
    return log


class AIter:
    def __init__(self, items):
        self.items = list(items)

    def __aiter__(self):
        return self

    async def __anext__(self):
        if not self.items:
            raise StopAsyncIteration
        return self.items.pop(0)


MODULE_LOG = []
for x in [3, 2, 4, 5]:
    match x % 5:
        case 3:
            with Box(MODULE_LOG, x):
                raise E1(x)
            with Box(MODULE_LOG, x % 7), Box(MODULE_LOG, 1):
                continue
        case 1:
            raise E1("one")


def module_log():
    """The module's own code: the same loop, its log."""
    return MODULE_LOG


def _run(coroutine):
    try:
        coroutine.send(None)
    except StopIteration as stop:
        return stop.value
    raise AssertionError("awaited")


def run_async(x, a, c):
    return _run(returns_an_or_ending_in_an_fstring_arm_async(x, a, c))


def run_method(x, a):
    return Formats().returns_an_or_ending_in_an_fstring_arm(x, a)


def run_cases(xs, log):
    return Cases().continues_after_a_suppressing_with(xs, log)


def run_async_with(xs, log):
    try:
        return _run(continues_after_a_suppressing_async_with(xs, log))
    except Exception as e:
        return type(e).__name__, log


CASES = [
    ("returns_an_or_ending_in_an_fstring_arm_in_a_clause", (0, 1, 3, "abc")),
    ("returns_an_or_ending_in_an_fstring_arm_in_a_clause", (0, 1, 3, "")),
    ("returns_an_or_ending_in_an_fstring_arm_in_a_clause", (0, 1, 0, "")),
    ("returns_an_or_ending_in_an_fstring_arm_in_a_clause", (0, 0, 0, "xy")),
    ("returns_an_or_ending_in_an_fstring_arm_in_a_clause", (0, 2, 0, "xy")),
    ("returns_an_or_ending_in_an_fstring_arm_in_a_clause", (2, 1, 0, "xy")),
    ("returns_an_or_ending_in_a_formatted_arm_in_a_clause", (0, 0, 0, "ab")),
    ("returns_an_or_ending_in_a_formatted_arm_in_a_clause", (0, 0, 5, "ab")),
    ("returns_an_or_ending_in_a_formatted_arm_in_a_clause", (0, 7, 5, "ab")),
    ("returns_an_or_ending_in_a_formatted_arm_in_a_clause", (4, 7, 5, "ab")),
    ("returns_an_or_ending_in_a_keyword_call_arm_in_a_clause", (0, 0, 0, "ab")),
    ("returns_an_or_ending_in_a_keyword_call_arm_in_a_clause", (0, 0, 4, "ab")),
    ("returns_an_or_ending_in_a_keyword_call_arm_in_a_clause", (0, 3, 4, "ab")),
    ("returns_an_or_ending_in_a_keyword_call_arm_in_a_clause", (2, 3, 4, "ab")),
    ("returns_an_or_ending_in_a_starred_arm_in_a_clause", (0, None, 0, [1, 5])),
    ("returns_an_or_ending_in_a_starred_arm_in_a_clause", (0, None, 0, [])),
    ("returns_an_or_ending_in_a_starred_arm_in_a_clause", (0, None, 7, [])),
    ("returns_an_or_ending_in_a_starred_arm_in_a_clause", (0, 0, 1, [3])),
    ("returns_an_or_ending_in_a_starred_arm_in_a_clause", (0, 0, 0, [3])),
    ("returns_an_or_ending_in_a_starred_arm_in_a_clause", (0, 2, 0, [3])),
    ("returns_an_or_ending_in_a_starred_arm_in_a_clause", (1, 2, 0, [3])),
    ("returns_an_or_ending_in_an_fstring_arm_in_a_loop", ([1, 2, 0], 0)),
    ("returns_an_or_ending_in_an_fstring_arm_in_a_loop", ([1, 0], "c")),
    ("returns_an_or_ending_in_an_fstring_arm_in_a_loop", ([0], 0)),
    ("returns_an_or_ending_in_an_fstring_arm_in_a_loop", ([4], 0)),
    ("run_method", (0, 0)),
    ("run_method", (0, None)),
    ("run_method", (0, 3)),
    ("run_method", (5, 3)),
    ("run_async", (0, 0, 0)),
    ("run_async", (0, 0, 2)),
    ("run_async", (0, 4, 2)),
    ("run_async", (8, 4, 2)),
    ("module_value", ()),
    ("continues_after_a_suppressing_with_before_a_literal_case", ([3, 4, 5], [])),
    ("continues_after_a_suppressing_with_before_a_literal_case", ([2, 3], [])),
    ("continues_after_a_suppressing_with_before_a_literal_case", ([-4, 2, 1], [])),
    ("continues_after_a_suppressing_with_before_a_literal_case", ([8], [])),
    ("continues_after_a_suppressing_with_before_a_literal_case", ([0], [])),
    ("run_cases", ([3, 8, 2], [])),
    ("run_cases", ([13, 6], [])),
    ("run_cases", ([9], [])),
    ("run_cases", ([3, 6], [])),
    ("run_async_with", ([3, 8, 2], [])),
    ("run_async_with", ([13, 1], [])),
    ("run_async_with", ([8], [])),
    ("run_async_with", ([3, 6], [])),
    ("module_log", ()),
]
