"""A finally body holding a try statement, copied before a return: the compiler sends
the return after that try into each of its ways on, its else and its clauses (3.11+),
or into its clauses only, the else then read as code after the try (3.10). Where the
try is in an enclosing finally body, its copy comes between an inner finally body's
copy and the return. Each logs the order the bodies ran in and what they caught."""


class Flaky:
    """Raises KeyError on the calls whose answers say so."""

    def __init__(self, answers):
        self.answers = list(answers)

    def __call__(self, log, what):
        log.append(what)
        if self.answers and self.answers.pop():
            raise KeyError(what)


def _returns_through_a_try_with_an_else(log, flaky, x):
    """``try / except / else`` in the finally body, a return in the body (3.10)."""
    try:
        if x:
            return
        log.append("body")
    finally:
        try:
            flaky(log, "finally")
        except KeyError:
            log.append("caught")
        else:
            log.append("else")


def _returns_a_constant_through_a_try_with_an_else(log, flaky, x):
    try:
        if x:
            return 5
        log.append("body")
    finally:
        try:
            flaky(log, "finally")
        except KeyError:
            log.append("caught")
        else:
            log.append("else")
    return 6


def _returns_through_an_inner_finally_and_a_try(log, flaky, x):
    """A return in an inner try whose finally body runs before the outer finally
    body's try statement."""
    try:
        try:
            if x:
                return 5
        finally:
            log.append("inner")
        log.append("after")
    finally:
        try:
            flaky(log, "outer")
        except KeyError:
            log.append("caught")


def _returns_through_an_inner_finally_and_a_try_with_an_else(log, flaky, x):
    try:
        try:
            if x:
                return
        finally:
            log.append("inner")
        log.append("after")
    finally:
        try:
            flaky(log, "outer")
        except KeyError:
            log.append("caught")
        else:
            log.append("else")


def _breaks_through_a_try_with_an_else(log, flaky, items):
    """A break out of a loop through the same finally body."""
    for item in items:
        try:
            if item:
                break
            log.append(item)
        finally:
            try:
                flaky(log, item)
            except KeyError:
                log.append("caught")
            else:
                log.append("else")
    return log


def _run(function, answers, x):
    log = []
    try:
        return function(log, Flaky(answers), x), log
    except KeyError as error:
        return repr(error), log


def returns_through_a_try_with_an_else(answers, x):
    return _run(_returns_through_a_try_with_an_else, answers, x)


def returns_a_constant_through_a_try_with_an_else(answers, x):
    return _run(_returns_a_constant_through_a_try_with_an_else, answers, x)


def returns_through_an_inner_finally_and_a_try(answers, x):
    return _run(_returns_through_an_inner_finally_and_a_try, answers, x)


def returns_through_an_inner_finally_and_a_try_with_an_else(answers, x):
    return _run(_returns_through_an_inner_finally_and_a_try_with_an_else, answers, x)


def breaks_through_a_try_with_an_else(answers, items):
    return _run(_breaks_through_a_try_with_an_else, answers, items)


CASES = [
    (name, (answers, x))
    for name in (
        "returns_through_a_try_with_an_else",
        "returns_a_constant_through_a_try_with_an_else",
        "returns_through_an_inner_finally_and_a_try",
        "returns_through_an_inner_finally_and_a_try_with_an_else",
    )
    for answers in ([0], [1])
    for x in (0, 1)
] + [
    ("breaks_through_a_try_with_an_else", (answers, items))
    for answers in ([0, 0, 0], [0, 1, 0], [1, 1, 1])
    for items in ([0, 0, 1, 0], [0, 0])
]
