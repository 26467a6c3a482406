"""Code that runs while an except clause handles an exception, inside statements of the
clause (a try, a finally body, a with, a clause in a clause), and code after a try that
the compiler copies to a clause's end. What each returns, raises or logs says what
``sys.exc_info()`` or an error's ``__context__`` holds there; the state machine must
see the same (3.10 leaves a clause without a cleanup on the way to an outer handler)."""

import sys

LOG = []


def handled():
    """The exception being handled where this is called, by type name."""
    return type(sys.exc_info()[1]).__name__


def context(error):
    """An error's chain of contexts, by type name."""
    names = []
    while error is not None:
        names.append(type(error).__name__)
        error = error.__context__
    return names


class Seen(Exception):
    """An error that says what was being handled where it was made."""

    def __init__(self, x):
        super().__init__(x, handled())


def picky(x):
    if x == 0:
        raise KeyError(x)
    return x > 5


def error_in_a_try_in_a_named_clause(t):
    """A try/finally (finally: pass) in a named clause: the error in its body keeps
    the clause's exception as its context (3.10's state machine: seeds 527, 605, 1314)."""
    try:
        try:
            raise KeyError(1)
        except KeyError as e:
            try:
                t.last |= 16
            finally:
                pass
    except AttributeError as error:
        return type(error.__context__).__name__


def try_except_in_a_clause(x):
    """A try/except in a clause whose body ends in a finally: pass: its clause, and the
    clause's code after it, see the inner and then the outer exception again."""
    try:
        raise KeyError(x)
    except KeyError:
        try:
            try:
                raise ValueError(x)
            finally:
                pass
        except ValueError:
            LOG.append(handled())
        LOG.append(handled())
        return handled()


def with_in_a_clause(x):
    """A with in a clause, its body's error leaving through a finally: pass: the with's
    exit, the clause around it and the code after it see what they handle."""
    try:
        if x:
            raise KeyError(x)
    except KeyError:
        try:
            with Box():
                try:
                    LOG.append(handled())
                    raise ValueError(x)
                finally:
                    pass
        except ValueError:
            LOG.append(handled())
        LOG.append(handled())
    return handled()


def clause_in_a_clause(x):
    """A clause in a clause, the inner try in a finally: pass: the inner error's
    context is the inner exception, whose context is the outer one."""
    try:
        try:
            raise KeyError(x)
        except KeyError:
            try:
                try:
                    raise ValueError(x)
                finally:
                    pass
            except ValueError:
                raise TypeError(x)
    except TypeError as error:
        return context(error)


def raise_from_a_finally_in_a_clause(x):
    """A finally body in a clause that raises, reached through a finally: pass: its
    error's context is the finally's exception, then the clause's."""
    try:
        try:
            raise KeyError(x)
        except KeyError:
            try:
                try:
                    raise ValueError(x)
                finally:
                    pass
            finally:
                LOG.append(handled())
                raise TypeError(x)
    except TypeError as error:
        return context(error)


def bare_raise_from_a_nested_clause(x):
    """A bare raise in a clause in a clause, after a finally: pass: it re-raises the
    inner exception, and the outer clause goes on handling its own."""
    try:
        raise KeyError(x)
    except KeyError:
        try:
            try:
                try:
                    raise ValueError(x)
                finally:
                    pass
            except ValueError:
                raise
        except ValueError as error:
            LOG.append(context(error))
        return handled()


def seen(x):
    return (x, handled())


def raise_copied_after_a_clause_and_an_else(xs):
    """A raise after a try that 3.10 and 3.12 copy to the end of the clause and of the
    else: the clause's copy goes on to the else's, after the try (the known gap's
    snippet)."""
    for x in xs:
        try:
            if picky(x):
                continue
        except KeyError:
            LOG.append(1)
        else:
            LOG.append(2)
        raise Seen(x)


def return_copied_after_a_clause_and_an_else(xs):
    """The same with a return of a call (read right before too)."""
    for x in xs:
        try:
            if picky(x):
                continue
        except KeyError:
            LOG.append(1)
        else:
            LOG.append(2)
        return seen(x)


def call_and_return_after_a_clause_and_an_else(xs):
    """The same with a call, then a return (too long to copy)."""
    for x in xs:
        try:
            if picky(x):
                continue
        except KeyError:
            LOG.append(1)
        else:
            LOG.append(2)
        LOG.append(handled())
        return


def raise_copied_after_a_named_clause_and_an_else(xs):
    """The same after a named clause, whose name is cleared before the copy."""
    for x in xs:
        try:
            if picky(x):
                continue
        except KeyError as error:
            LOG.append(str(error))
        else:
            LOG.append(2)
        raise Seen(x)


def raise_copied_after_clauses_and_an_else(xs):
    """The same after two clauses, each with a copy."""
    for x in xs:
        try:
            if picky(x):
                continue
            if x == 1:
                raise ValueError(x)
        except KeyError:
            LOG.append(1)
        except ValueError:
            LOG.append(3)
        else:
            LOG.append(2)
        raise Seen(x)


def raise_copied_after_a_clause_and_an_else_in_a_while(xs):
    """The same inside a while loop (still a state machine on every Python: a block
    reached twice)."""
    while xs:
        x = xs.pop()
        try:
            if picky(x):
                continue
        except KeyError:
            LOG.append(1)
        else:
            LOG.append(2)
        raise Seen(x)


def raise_copied_after_a_clause_and_an_else_without_a_loop(x):
    """The same without a loop, the body's other way out a return (read right before
    too)."""
    try:
        if picky(x):
            return x
    except KeyError:
        LOG.append(1)
    else:
        LOG.append(2)
    raise Seen(x)


def raise_copied_after_a_clause_and_an_else_ending_in_an_if(xs):
    """The same where the else ends in an if, each branch with its own copy and none
    left on its own (a state machine now)."""
    for x in xs:
        try:
            if picky(x):
                continue
        except KeyError:
            LOG.append(1)
        else:
            if x > 1:
                LOG.append(2)
            else:
                LOG.append(4)
        raise Seen(x)


def raise_copied_after_every_clause(x):
    """A raise after a try whose body never goes on there: 3.10 and 3.12 copy it to
    the end of every clause, and no original is left (seed 3865's shape, a module's
    end): the last clause's copy stands for the others, after the try."""
    try:
        if picky(x):
            return x
        raise ValueError(x)
    except KeyError:
        LOG.append(1)
    except ValueError:
        LOG.append(3)
    raise Seen(x)


def raise_copied_after_every_clause_in_a_loop(xs):
    """The same in a for loop, the body's other way out a continue."""
    for x in xs:
        try:
            if picky(x):
                continue
            raise ValueError(x)
        except KeyError:
            LOG.append(1)
        except ValueError:
            LOG.append(3)
        raise Seen(x)


def raise_copied_after_a_named_clause_and_a_match(x):
    """The same after a named clause and a clause ending in a match, whose cases each
    get a copy."""
    try:
        raise ValueError(x)
    except KeyError as error:
        LOG.append(str(error))
    except ValueError:
        match x:
            case 1:
                LOG.append(2)
            case _:
                LOG.append(3)
    raise Seen(x)


class Box:
    def __enter__(self):
        LOG.append(("enter", handled()))
        return self

    def __exit__(self, kind, value, traceback):
        LOG.append(("exit", handled(), context(value)))
        return False


CASES = [
    ("error_in_a_try_in_a_named_clause", (1,)),
    ("try_except_in_a_clause", (1,)),
    ("with_in_a_clause", (1,)),
    ("clause_in_a_clause", (1,)),
    ("raise_from_a_finally_in_a_clause", (1,)),
    ("bare_raise_from_a_nested_clause", (1,)),
    ("raise_copied_after_a_clause_and_an_else", ([7, 0],)),
    ("raise_copied_after_a_clause_and_an_else", ([7, 1],)),
    ("return_copied_after_a_clause_and_an_else", ([7, 0],)),
    ("return_copied_after_a_clause_and_an_else", ([7, 1],)),
    ("call_and_return_after_a_clause_and_an_else", ([7, 0],)),
    ("call_and_return_after_a_clause_and_an_else", ([7, 1],)),
    ("raise_copied_after_a_named_clause_and_an_else", ([7, 0],)),
    ("raise_copied_after_a_named_clause_and_an_else", ([7, 2],)),
    ("raise_copied_after_clauses_and_an_else", ([7, 0],)),
    ("raise_copied_after_clauses_and_an_else", ([7, 1],)),
    ("raise_copied_after_clauses_and_an_else", ([7, 2],)),
    ("raise_copied_after_a_clause_and_an_else_in_a_while", ([0, 7],)),
    ("raise_copied_after_a_clause_and_an_else_in_a_while", ([1, 7],)),
    ("raise_copied_after_a_clause_and_an_else_without_a_loop", (0,)),
    ("raise_copied_after_a_clause_and_an_else_without_a_loop", (1,)),
    ("raise_copied_after_a_clause_and_an_else_ending_in_an_if", ([7, 0],)),
    ("raise_copied_after_a_clause_and_an_else_ending_in_an_if", ([7, 2],)),
    ("raise_copied_after_every_clause", (0,)),
    ("raise_copied_after_every_clause", (1,)),
    ("raise_copied_after_every_clause", (7,)),
    ("raise_copied_after_every_clause_in_a_loop", ([7, 0],)),
    ("raise_copied_after_every_clause_in_a_loop", ([7, 1],)),
    ("raise_copied_after_a_named_clause_and_a_match", (1,)),
    ("raise_copied_after_a_named_clause_and_a_match", (2,)),
]
