"""Code after a try whose body never goes on to it (the body returns, continues or
breaks), so that only an except clause reaches it, after its POP_EXCEPT: that code
is the continuation of the try statement, written after it, where the handled
exception is over. What each raises, returns or logs says what ``sys.exc_info()``
(``handled``) or an exception's ``__context__`` holds there."""

import contextlib
import sys

LOG = []


def handled():
    """The exception being handled where this is called, by type name."""
    return type(sys.exc_info()[1]).__name__


class Seen(Exception):
    """An error that says what was being handled where it was made."""

    def __init__(self, x):
        super().__init__(x, handled())


def seen(x):
    return (x, handled())


def picky(x):
    if x == 0:
        raise KeyError(x)
    if x == 1:
        raise ValueError(x)
    return x > 5


@contextlib.contextmanager
def managed():
    yield


def raise_only_a_clause_reaches(xs):
    """The issue's shape: the body continues or returns, so only the clause goes on
    to the raise after the try."""
    for x in xs:
        try:
            if picky(x):
                continue
            return 1
        except KeyError:
            pass
        raise Seen(x)


def return_only_a_clause_reaches(xs):
    """A return of a call after the try, which only the clause reaches."""
    for x in xs:
        try:
            if picky(x):
                continue
            return 1
        except KeyError:
            pass
        return seen(x)


def call_then_return_only_a_clause_reaches(xs):
    """A call, then a return, after the try."""
    for x in xs:
        try:
            if picky(x):
                continue
            return 1
        except KeyError:
            pass
        LOG.append(seen(x))
        return 2


def named_clause_then_raise(xs):
    """A named clause: its ``e = None; del e`` cleanup comes before the raise."""
    for x in xs:
        try:
            if picky(x):
                continue
            return 1
        except KeyError as e:
            LOG.append(str(e))
        raise Seen(x)


def several_clauses_then_raise(xs):
    """Two clauses, both going on to the raise."""
    for x in xs:
        try:
            if picky(x):
                continue
            return 1
        except KeyError:
            LOG.append("key")
        except ValueError:
            LOG.append("value")
        raise Seen(x)


def clause_continues_other_raises(xs):
    """One clause continues, the other goes on to the raise."""
    for x in xs:
        try:
            if picky(x):
                continue
            return 1
        except KeyError:
            continue
        except ValueError:
            LOG.append("value")
        raise Seen(x)


def while_loop_then_raise(xs):
    """The same in a while loop."""
    i = 0
    while i < len(xs):
        x = xs[i]
        i += 1
        try:
            if picky(x):
                continue
            return 1
        except KeyError:
            pass
        raise Seen(x)
    return 3


def function_level_then_raise(x):
    """At function level: the body returns, the clause goes on to the raise (read
    right before too, as the next two: they guard the way the join is found)."""
    try:
        return picky(x)
    except KeyError:
        pass
    raise Seen(x)


def function_level_then_return(x):
    """At function level: a return of a call after the try (a guard)."""
    try:
        return picky(x)
    except KeyError:
        pass
    return seen(x)


def finally_around_then_raise(xs):
    """A finally around the loop."""
    try:
        for x in xs:
            try:
                if picky(x):
                    continue
                return 1
            except KeyError:
                pass
            raise Seen(x)
    finally:
        LOG.append(handled())


def finally_around_the_try(xs):
    """A finally around the try inside the loop."""
    for x in xs:
        try:
            try:
                if picky(x):
                    continue
                return 1
            except KeyError:
                pass
            raise Seen(x)
        finally:
            LOG.append(handled())


def body_breaks_then_raise(xs):
    """The body breaks or returns; the clause goes on to the raise (a guard)."""
    for x in xs:
        try:
            if picky(x):
                break
            return 1
        except KeyError:
            pass
        raise Seen(x)
    return 4


def body_falls_through_too(xs):
    """The body also goes on to the raise (this already read right)."""
    for x in xs:
        try:
            if picky(x):
                continue
        except KeyError:
            pass
        raise Seen(x)


def with_in_a_clause_then_raise(xs):
    """A with ends the clause: the raise after the try is past its exit too."""
    for x in xs:
        try:
            if picky(x):
                continue
            return 1
        except KeyError:
            with managed():
                LOG.append(handled())
        raise Seen(x)


def try_in_a_clause_then_raise(xs):
    """A try ends the clause (its own clause handling another error)."""
    for x in xs:
        try:
            if picky(x):
                continue
            return 1
        except KeyError:
            try:
                picky(1)
            except ValueError:
                pass
        raise Seen(x)


def if_in_a_clause_then_raise(xs, c):
    """An if ends the clause: its branches meet at the raise after the try."""
    for x in xs:
        try:
            if picky(x):
                continue
            return 1
        except KeyError:
            if c:
                LOG.append(1)
        raise Seen(x)


def clause_breaks_other_raises(xs):
    """One clause breaks, the other goes on to the raise."""
    for x in xs:
        try:
            if picky(x):
                continue
            return 1
        except KeyError:
            break
        except ValueError:
            pass
        raise Seen(x)
    return handled()


def body_always_raises_then_raise(xs):
    """The body always raises: only the clause goes on."""
    for x in xs:
        try:
            raise KeyError(x)
        except KeyError:
            pass
        LOG.append(handled())
        raise Seen(x)


def else_returns_then_raise(xs):
    """The try's else returns: only the clause goes on to the raise."""
    for x in xs:
        try:
            picky(x)
        except KeyError:
            pass
        else:
            return 2
        raise Seen(x)


def endless_loop_then_raise(xs):
    """In a while True loop."""
    items = iter(xs)
    while True:
        x = next(items)
        try:
            if picky(x):
                continue
            return 1
        except KeyError:
            pass
        raise Seen(x)


def inner_loop_then_raise(xs):
    """In a for loop inside another."""
    for _ in [1]:
        for x in xs:
            try:
                if picky(x):
                    continue
                return 1
            except KeyError:
                pass
            raise Seen(x)


def tuple_clause_then_raise(xs):
    """A clause taking two kinds of error."""
    for x in xs:
        try:
            if picky(x):
                continue
            return 1
        except (KeyError, ValueError):
            pass
        raise Seen(x)


def code_after_goes_round(xs):
    """The code after the try, which only the clause reaches, goes on to the next
    round itself."""
    for x in xs:
        try:
            if picky(x):
                continue
            return 1
        except KeyError:
            pass
        if x == 0:
            raise Seen(x)
        LOG.append(handled())


def named_clause_then_return(xs):
    """A named clause, then a return of what is being handled."""
    for x in xs:
        try:
            if picky(x):
                continue
            return 1
        except KeyError as e:
            LOG.append(str(e))
        return handled()


def clause_breaks_on_a_test(xs, c):
    """The clause breaks on a test, else goes on to the raise."""
    for x in xs:
        try:
            if picky(x):
                continue
            return 1
        except KeyError:
            if c:
                break
        raise Seen(x)
    return handled()


def while_else_after_a_clause(n):
    """A while loop with an else, the clause going on to the raise in the loop."""
    while n > 0:
        n -= 1
        try:
            if picky(n):
                continue
            return 1
        except KeyError:
            pass
        raise Seen(n)
    else:
        return handled()


def for_else_after_a_clause(xs):
    """A for loop with an else: the clause goes on to a break after the try."""
    for x in xs:
        try:
            if picky(x):
                continue
            return 1
        except KeyError:
            pass
        LOG.append(handled())
        break
    else:
        return 2
    return handled()


def try_in_a_clause_around(xs):
    """The loop is in a clause: the inner try's clause goes on to the raise, in the
    outer clause (it sees the outer KeyError, not the inner ValueError)."""
    try:
        picky(0)
    except KeyError:
        for x in xs:
            try:
                if picky(x):
                    continue
                return 1
            except ValueError:
                pass
            raise Seen(x)


def several_clauses_at_function_level(x):
    """Two clauses going on to the raise (3.10 copies it to each)."""
    try:
        return picky(x)
    except KeyError:
        LOG.append(1)
    except ValueError:
        LOG.append(2)
    raise Seen(x)


def generator_then_yield(xs):
    """A generator: the clause goes on to a yield after the try."""
    for x in xs:
        try:
            if picky(x):
                continue
            yield 1
            return
        except KeyError:
            pass
        yield handled()


def generated(xs):
    return list(generator_then_yield(xs))


class InAClassBody:
    """The shape in a class body: a break after the try."""

    for x in [7, 0]:
        try:
            if picky(x):
                continue
            break
        except KeyError:
            pass
        got = handled()
        break


def class_body_shape():
    return InAClassBody.got


if True:
    try:
        picky(0)
        LOG.append("not reached")
    except KeyError:
        pass
    LOG.append(("module", handled()))


def module_shape():
    """The shape in a module body (for the record of the module's own run)."""
    return LOG


CASES = [
    ("raise_only_a_clause_reaches", ([7, 0, 3],)),
    ("raise_only_a_clause_reaches", ([7, 3],)),
    ("return_only_a_clause_reaches", ([7, 0, 3],)),
    ("call_then_return_only_a_clause_reaches", ([7, 0, 3],)),
    ("named_clause_then_raise", ([7, 0, 3],)),
    ("several_clauses_then_raise", ([7, 0, 3],)),
    ("several_clauses_then_raise", ([7, 1, 3],)),
    ("clause_continues_other_raises", ([7, 0, 1, 3],)),
    ("while_loop_then_raise", ([7, 0, 3],)),
    ("function_level_then_raise", (0,)),
    ("function_level_then_raise", (3,)),
    ("function_level_then_return", (0,)),
    ("finally_around_then_raise", ([7, 0, 3],)),
    ("finally_around_the_try", ([7, 0, 3],)),
    ("body_breaks_then_raise", ([3, 0],)),
    ("body_breaks_then_raise", ([7, 0],)),
    ("body_falls_through_too", ([7, 0],)),
    ("with_in_a_clause_then_raise", ([7, 0, 3],)),
    ("try_in_a_clause_then_raise", ([7, 0, 3],)),
    ("if_in_a_clause_then_raise", ([7, 0, 3], 1)),
    ("clause_breaks_other_raises", ([7, 0],)),
    ("clause_breaks_other_raises", ([7, 1],)),
    ("body_always_raises_then_raise", ([7, 0],)),
    ("else_returns_then_raise", ([0, 7],)),
    ("else_returns_then_raise", ([7, 0],)),
    ("endless_loop_then_raise", ([7, 0],)),
    ("inner_loop_then_raise", ([7, 0],)),
    ("tuple_clause_then_raise", ([7, 1],)),
    ("code_after_goes_round", ([7, 0],)),
    ("code_after_goes_round", ([7, 3, 8],)),
    ("named_clause_then_return", ([7, 0],)),
    ("clause_breaks_on_a_test", ([7, 0], 0)),
    ("clause_breaks_on_a_test", ([7, 0], 1)),
    ("while_else_after_a_clause", (1,)),
    ("while_else_after_a_clause", (8,)),
    ("for_else_after_a_clause", ([7, 0],)),
    ("for_else_after_a_clause", ([7],)),
    ("try_in_a_clause_around", ([7, 1],)),
    ("several_clauses_at_function_level", (0,)),
    ("several_clauses_at_function_level", (1,)),
    ("generated", ([7, 0],)),
    ("class_body_shape", ()),
    ("module_shape", ()),
]
