"""Code after a try that the compiler copies to the end of an except clause (3.10
copies a small block that returns or raises past the clause's POP_EXCEPT). That code
runs after the clause, so it must not see the handled exception: what it raises or
returns (``Seen``, ``seen``) or logs says what ``sys.exc_info()`` holds there."""

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
    return x > 5


def for_continue_then_raise(xs):
    # for loop: the body continues or falls to a raise after the try
    for x in xs:
        try:
            if picky(x):
                continue
        except KeyError:
            pass
        raise Seen(x)
    return "done"


def for_continue_then_return_call(xs):
    # for loop: a return of a call after the try
    for x in xs:
        try:
            if picky(x):
                continue
        except KeyError:
            pass
        return seen(x)
    return "done"


def for_continue_then_call_and_return(xs):
    # for loop: a call, then a return, after the try
    for x in xs:
        try:
            if picky(x):
                continue
        except KeyError:
            pass
        LOG.append(handled())
        return
    return "done"


def for_named_clause_then_raise(xs):
    # for loop: a named clause (its name cleared) before the raise
    for x in xs:
        try:
            if picky(x):
                continue
        except KeyError as error:
            LOG.append(str(error))
        raise Seen(x)
    return "done"


def while_continue_then_raise(n):
    # while loop: the body continues or falls to a raise after the try
    while n < 10:
        n += 1
        try:
            if picky(n - 1):
                continue
        except KeyError:
            pass
        raise Seen(n)
    return n


def function_level_then_raise(x):
    # no loop: the body returns or falls to a raise after the try
    try:
        if picky(x):
            return "big"
    except KeyError:
        pass
    raise Seen(x)


def function_level_then_return_call(x):
    # no loop: a return of a call after the try
    try:
        if picky(x):
            return "big"
    except KeyError:
        pass
    return seen(x)


def function_level_named_then_return_call(x):
    # no loop: a named clause, then a return of a call after the try
    try:
        if picky(x):
            return "big"
    except KeyError as error:
        LOG.append(str(error))
    return seen(x)


def while_continue_then_return_call(n):
    # while loop: a return of a call after the try
    while n < 10:
        n += 1
        try:
            if picky(n - 1):
                continue
        except KeyError:
            pass
        return seen(n)
    return n


def while_named_clause_then_raise(n):
    # while loop: a named clause before the raise
    while n < 10:
        n += 1
        try:
            if picky(n - 1):
                continue
        except KeyError as error:
            LOG.append(str(error))
        raise Seen(n)
    return n


CASES = [
    ("for_continue_then_raise", ([7, 0, 1],)),
    ("for_continue_then_raise", ([7, 1],)),
    ("for_continue_then_raise", ([7],)),
    ("for_continue_then_return_call", ([7, 0, 1],)),
    ("for_continue_then_return_call", ([1],)),
    ("for_continue_then_call_and_return", ([7, 0, 1],)),
    ("for_continue_then_call_and_return", ([1],)),
    ("for_named_clause_then_raise", ([7, 0, 1],)),
    ("for_named_clause_then_raise", ([1],)),
    ("while_continue_then_raise", (0,)),
    ("while_continue_then_raise", (1,)),
    ("function_level_then_raise", (0,)),
    ("function_level_then_raise", (1,)),
    ("function_level_then_raise", (7,)),
    ("function_level_then_return_call", (0,)),
    ("function_level_then_return_call", (1,)),
    ("function_level_then_return_call", (7,)),
    ("function_level_named_then_return_call", (0,)),
    ("function_level_named_then_return_call", (1,)),
    ("while_continue_then_return_call", (0,)),
    ("while_continue_then_return_call", (1,)),
    ("while_named_clause_then_raise", (0,)),
    ("while_named_clause_then_raise", (1,)),
]
