"""Match subjects the walk once kept in a temporary, which a debugger or ``locals()``
would show, or a module's namespace:
- a case that leaves by a way read as going on (a return through a finally body, a
  break, a return into a return shared after the match), before later cases and code
  after the match: those cases read as a ``case _:`` holding a match on the kept
  subject, then that code; each later case that goes on runs it, written into each
  and into a last ``case _:`` (the code no longer follows the whole match);
- a literal case after cases that leave by ``continue`` or ``raise`` (3.12+ lay its
  test out after them, on the kept subject): it reads as an ``if`` after the match;
- a guarded capture first, then a last literal case whose body is an assert: the
  case's test and the assert's fold into one ``assert _t1 is not True or ...``; or a
  guarded capture whose body defines a function (one that falls back to the state
  machine names its own temporaries alike).
Subjects that are expressions, in loops, in functions, in try/finally and at module
level; one function each, named after the shape, with the seed it was found on."""

LOG = []


def returns_through_a_finally_before_a_later_case(x, log):
    """1a (seed 9403 on 3.10-3.13): ``case 2: return`` through a finally body ending
    the function reads as ``pass``; the later case and the code after the match read
    as a ``case _:`` holding a match on the kept subject, then that code."""
    try:
        match x * 1:
            case 2:
                return
            case (a, b):
                log.append(a)
        log.append(1)
    finally:
        log.append(2)


def breaks_before_a_later_case(xs, log):
    """1a (seed 15672): ``case -0.0: break`` in a for loop before a later case and
    code after the match, in the loop."""
    for x in xs:
        match x * 1:
            case -0.0:
                break
            case True:
                log.append(1)
        log.append(x)
    else:
        return log
    return "broken"


def breaks_before_later_cases_in_a_while(xs, log):
    """1a (seed 15672): a while loop, cases after the break that end and go on."""
    i = 0
    while i < len(xs):
        match xs[i]:
            case 0:
                break
            case [a, b]:
                log.append(a)
            case {"k": 1}:
                return "k"
            case str(s):
                log.append(s)
        i += 1
        log.append(i)
    return log


def returns_a_shared_value_before_a_later_case(x, y, log):
    """1a (seed 5816 on 3.10): a guarded case that returns on one way, before a later
    case, in an elif; the code after the if, a return, is shared with the case's other
    way (3.10 copies it after the later case)."""
    if y > 5:
        while True:
            if y > 6 or not log:
                break
    elif not (y > 3 and x):
        match x % 6:
            case 1 if y:
                if y > 1:
                    return
            case 3:
                log.append(3)
    return x


def breaks_in_a_clause_before_an_asserting_case(xs, y, log):
    """1a (seed 15672 on 3.10-3.12): ``case -0.0: break`` in an except clause in a for
    loop, before ``case True:`` holding an assert; the loop's else returns through a
    finally body."""
    for x in xs:
        try:
            x = x + 4
        except TypeError:
            try:
                log.append("")
            except (KeyError, ValueError):
                log.append(1)
            match y * 1:
                case -0.0:
                    break
                case True:
                    assert y or log
    else:
        try:
            return x
        finally:
            log.append(2)
    assert y or log


async def returns_through_a_finally_in_an_async_def(x, log):
    """1a (seed 9403): as ``returns_through_a_finally_before_a_later_case`` in an
    async function, in an if, the subject a dict."""
    if x != 9:
        try:
            match {"k": x, "j": x % 3}:
                case 2:
                    return
                case {"k": 1}:
                    log.append(1)
                case [a, b]:
                    log.append(a)
            log.append(3)
        finally:
            log.append(4)


async def continues_before_a_literal_case(xs, log):
    """1b (seed 20308 on 3.12, 3.13): a first case whose body, an async for, goes on
    to the next round of an async for, before a literal case."""
    async for x in AIter(xs):
        match [x, len(log)]:
            case [0, *_]:
                async for y in AIter(xs):
                    log.append(y)
            case -1:
                return 20
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


def raises_before_a_literal_case(xs, log):
    """1b (seed 5492 on 3.12, 3.13): a first case that raises in a for loop, before a
    literal case."""
    for x in xs:
        match x * 1:
            case 0 | 1:
                raise ValueError(x)
            case "3":
                log.append(x)
    return log


def raises_before_literal_cases_in_a_finally(xs, log):
    """1b: cases that raise and continue, before two literal cases, in a try/finally
    in a while loop."""
    i = 0
    while i < len(xs):
        i += 1
        try:
            match xs[i - 1]:
                case [a]:
                    raise ValueError(a)
                case None:
                    continue
                case 3:
                    log.append(3)
                case "s":
                    log.append("s")
        finally:
            log.append(i)
    return log


def guarded_capture_before_an_asserting_case(x, y, log):
    """1c (seed 5962 on 3.10-3.12): a guarded capture whose body raises, then ``case
    True:`` whose body is an assert, in an except clause."""
    try:
        log.append(x[0])
    except TypeError:
        match {"k": x, "j": y}:
            case a if y > 1:
                raise ValueError(a) from None
            case True:
                assert y or x, "no"
    log.append("")
    return log


def guarded_capture_before_an_asserting_literal_case(x, log):
    """1c (seed 5962): as ``guarded_capture_before_an_asserting_case`` on a number,
    the assert's test an or, in a loop."""
    for y in [x, x + 1]:
        match y * 1:
            case a if a > 5:
                return a
            case 3:
                assert log or y < 0 or x == 4, y
        log.append(y)
    return log


def guarded_capture_defining_a_function(x, log):
    """1c (seed 6140 on 3.11-3.13): a guarded capture whose body defines a function
    and returns, before other cases; the code after the match goes on."""
    match x * 1:
        case str() | bytes():
            log.append("s")
        case a if a > 3:
            def g(b=a):
                return b + 1
            log.append(g())
            return log
        case list(a):
            raise ValueError(a)
        case 0 | 1:
            log.append(x)
    log.append(x)
    return log


# at module level: a break and a continue before later cases, a guarded capture
# before an asserting case
for _x in [2, (5, 6), 3, 0.0, 7]:
    try:
        _x = _x + 4
    except TypeError:
        match _x * 1:
            case -0.0:
                break
            case (_a, _b):
                LOG.append(_a)
        LOG.append(_x)
for _x in [0, 1, 2]:
    match [_x, len(LOG)]:
        case [0, *_]:
            for _z in [1, 2]:
                LOG.append(_z)
        case -1:
            LOG.append(20)
try:
    LOG.append(LOG[0][0])
except TypeError:
    match {"k": LOG, "j": 0}:
        case _a if len(LOG) > 10:
            raise ValueError(_a) from None
        case True:
            assert LOG, "no"


def logged():
    return LOG


def breaks_from_a_sequence_case_in_a_loop(items, log):
    """Seeds 66096, 73870, 76684 (3.12+): ``case [0, *_]: break`` in a for loop pops
    the subject the sequence pattern left on its way out, read as the statement
    ``_t1`` alone: the subject stayed in a temporary."""
    for item in items:
        match (item, len(log)):
            case [0, *_]:
                break
            case Marked(a=1):
                log.append("marked")
            case _:
                log.append(item)
        if len(log) > 2:
            break
    return log


class Marked:
    a = 1


CASES = [
    ("returns_through_a_finally_before_a_later_case", (2, [])),
    ("returns_through_a_finally_before_a_later_case", ((5, 6), [])),
    ("returns_through_a_finally_before_a_later_case", (7, [])),
    ("breaks_before_a_later_case", ([1, 2, 0.0, 3], [])),
    ("breaks_before_a_later_case", ([True, 2], [])),
    ("breaks_before_a_later_case", ([], [])),
    ("breaks_before_later_cases_in_a_while", ([1, (2, 3), "s", 0, 5], [])),
    ("breaks_before_later_cases_in_a_while", ([{"k": 1}], [])),
    ("breaks_before_later_cases_in_a_while", ([4, [5, 6]], [])),
    ("breaks_in_a_clause_before_an_asserting_case", ([1, "a", 2], -0.0, [])),
    ("breaks_in_a_clause_before_an_asserting_case", ([1, "a", 2], True, [])),
    ("breaks_in_a_clause_before_an_asserting_case", (["a"], True, [])),
    ("breaks_in_a_clause_before_an_asserting_case", ([1, 2], 0, [])),
    ("breaks_in_a_clause_before_an_asserting_case", ([], 0, [])),
    ("returns_a_shared_value_before_a_later_case", (1, 3, [])),
    ("returns_a_shared_value_before_a_later_case", (7, 2, [])),
    ("returns_a_shared_value_before_a_later_case", (3, 1, [])),
    ("returns_a_shared_value_before_a_later_case", (4, 1, [])),
    ("returns_a_shared_value_before_a_later_case", (0, 0, [])),
    ("returns_a_shared_value_before_a_later_case", (4, 0, [])),
    ("returns_a_shared_value_before_a_later_case", (1, 7, [])),
    ("returns_a_shared_value_before_a_later_case", (3, 6, [])),
    ("returns_through_a_finally_in_an_async_def", (2, [])),
    ("returns_through_a_finally_in_an_async_def", (1, [])),
    ("returns_through_a_finally_in_an_async_def", (9, [])),
    ("returns_through_a_finally_in_an_async_def", (5, [])),
    ("continues_before_a_literal_case", ([0, 1, 2], [])),
    ("continues_before_a_literal_case", ([3, -1], [])),
    ("continues_before_a_literal_case", ([], [])),
    ("raises_before_a_literal_case", (["3", 2, "3"], [])),
    ("raises_before_a_literal_case", ([2, 1], [])),
    ("raises_before_literal_cases_in_a_finally", ([3, "s", None, 4], [])),
    ("raises_before_literal_cases_in_a_finally", ([3, [1]], [])),
    ("guarded_capture_before_an_asserting_case", (5, 2, [])),
    ("guarded_capture_before_an_asserting_case", (5, 0, [])),
    ("guarded_capture_before_an_asserting_case", ([1], 0, [])),
    ("guarded_capture_before_an_asserting_literal_case", (9, [])),
    ("guarded_capture_before_an_asserting_literal_case", (3, [])),
    ("guarded_capture_before_an_asserting_literal_case", (2, [])),
    ("guarded_capture_before_an_asserting_literal_case", (4, [])),
    ("guarded_capture_defining_a_function", (5, [])),
    ("guarded_capture_defining_a_function", ("s", [])),
    ("guarded_capture_defining_a_function", (0, [])),
    ("guarded_capture_defining_a_function", (2, [])),
    ("guarded_capture_defining_a_function", ([1], [])),
    ("logged", ()),
    ("breaks_from_a_sequence_case_in_a_loop", ([3, 2, 0, 5], [])),
    ("breaks_from_a_sequence_case_in_a_loop", ([4, 0], [])),
]
