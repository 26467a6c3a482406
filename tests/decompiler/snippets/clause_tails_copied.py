"""Code after a try that the compiler copies to the end of every except clause: a small
exit (a ``del`` of a name or an attribute, a call statement, a bare raise, or a ``del``
then a return that pops a for loop's iterator) after a ``POP_EXCEPT`` and the clearing
of a clause's name. Each copy runs after the clause, where no exception is being
handled: what each returns, logs or raises says what ``sys.exc_info()`` or an error's
``__context__`` holds there."""

import sys

LOG = []


def handled():
    """The exception being handled where this is called, by type name."""
    return type(sys.exc_info()[1]).__name__


def log():
    LOG.append(handled())


def context_of(shape):
    """What ``shape()`` returns, or the chain of contexts of what it raises."""
    try:
        return shape()
    except Exception as error:
        names = []
        while error is not None:
            names.append(type(error).__name__)
            error = error.__context__
        return names


class Seen(Exception):
    """An error that says what was being handled where it was made."""

    def __init__(self, x):
        super().__init__(x, handled())


class Late(Seen):
    """Made by a bare ``raise Late``, at the raise."""

    def __init__(self):
        super().__init__(None)


def raising(error):
    def t():
        if error is not None:
            raise error("t")

    return t


def del_after_named_clauses(error):
    """A del after a try whose clauses are named: each clause ends with the clearing of
    its name and a copy of the del (3.10, 3.12, 3.13; random seed 7936)."""

    def shape():
        try:
            raising(error)()
        except KeyError as e:
            pass
        except Exception as e:
            pass
        del i  # noqa: F821

    return context_of(shape)


def del_after_a_clause_holding_a_try(error):
    """A del after a try whose clause holds a try: the inner clause's end (two
    POP_EXCEPTs) has a copy too (3.12, 3.13; random seed 7936)."""

    def shape():
        try:
            raising(error)()
        except KeyError:
            try:
                raising(error)()
            except Exception:
                pass
        del i  # noqa: F821

    return context_of(shape)


def call_after_several_clauses(error):
    """A call statement after a try with a named and a plain clause: 3.12 copies the
    call, its POP_TOP and the return to each clause."""
    del LOG[:]
    try:
        raising(error)()
    except KeyError as e:
        pass
    except ValueError:
        pass
    log()  # (LOG, a global, says where it ran)


def del_and_return_in_a_loop(xs, error):
    """A del then a return of a constant after a try in a for loop: each copy pops the
    loop's iterator before it returns (3.10, 3.12)."""

    def shape():
        for x in xs:
            try:
                raising(error)()
            except KeyError as e:
                pass
            del i  # noqa: F821
            return 5

    return context_of(shape)


class Spot:
    """An object whose attributes come and go."""


SPOT = Spot()


def attribute_deleted_after_several_clauses(error):
    """``del SPOT.a`` after a try with a named and a plain clause: each clause ends with
    a copy of it (3.10, 3.12, 3.13)."""

    def shape():
        try:
            raising(error)()
        except KeyError as e:
            pass
        except Exception:
            pass
        del SPOT.a

    return context_of(shape)


def bare_raise_after_a_clause(error):
    """A bare raise after a try: the copy at the clause's end re-raises what is handled
    around the try (nothing here: a RuntimeError), not the clause's exception (3.10,
    3.12, 3.13)."""

    def shape():
        try:
            raising(error)()
        except KeyError:
            pass
        raise

    return context_of(shape)


def raise_after_a_clause_ending_in_an_if(xs, error):
    """A raise after a try in a loop whose clause ends in an if: 3.10 jumps from both
    ends of the clause to one copy of the raise."""
    for x in xs:
        try:
            raising(error)()
        except KeyError:
            if x:
                log()
        raise Late


CASES = [
    ("del_after_named_clauses", (None,)),
    ("del_after_named_clauses", (KeyError,)),
    ("del_after_named_clauses", (ValueError,)),
    ("del_after_a_clause_holding_a_try", (None,)),
    ("del_after_a_clause_holding_a_try", (KeyError,)),
    ("call_after_several_clauses", (None,)),
    ("call_after_several_clauses", (KeyError,)),
    ("call_after_several_clauses", (ValueError,)),
    ("del_and_return_in_a_loop", ([1, 2], None)),
    ("del_and_return_in_a_loop", ([1, 2], KeyError)),
    ("attribute_deleted_after_several_clauses", (None,)),
    ("attribute_deleted_after_several_clauses", (KeyError,)),
    ("attribute_deleted_after_several_clauses", (ValueError,)),
    ("bare_raise_after_a_clause", (None,)),
    ("bare_raise_after_a_clause", (KeyError,)),
    ("raise_after_a_clause_ending_in_an_if", ([1, 2], None)),
    ("raise_after_a_clause_ending_in_an_if", ([0, 2], KeyError)),
    ("raise_after_a_clause_ending_in_an_if", ([1, 2], KeyError)),
]
