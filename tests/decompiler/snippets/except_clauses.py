"""Except clauses: where they go on, and what runs after them."""

import contextlib

LOG = []


def clauses_meet_after_a_raising_body(n, flag):
    # the body always raises: the clauses that go on meet at the code after the try
    while n > 0:
        n -= 1
        try:
            if n % 2:
                raise ValueError(n)
            raise KeyError(n)
        except KeyError:
            if flag:
                LOG.append(("key", n))
        except ValueError as error:
            LOG.append(("value", str(error)))
        with contextlib.suppress(ZeroDivisionError):
            LOG.append(1 // n)
    return n


def clauses_meet_then_return(x):
    try:
        raise (ValueError if x else KeyError)(x)
    except ValueError:
        if x > 1:
            LOG.append("big")
    except KeyError:
        pass
    LOG.append(("after", x))
    return x * 2


def clause_returns_others_meet(x):
    try:
        raise (ValueError if x else KeyError)(x)
    except ValueError:
        return "value"
    except KeyError:
        LOG.append("key")
    except Exception:
        LOG.append("other")
    LOG.append("after")
    return None


def clauses_meet_in_a_for(items):
    total = 0
    for item in items:
        try:
            if item < 0:
                raise KeyError(item)
            raise ValueError(item)
        except KeyError:
            if item < -5:
                break
        except ValueError:
            total += item
        total += 1
    LOG.append(("total", total))
    return total


def returns_under_a_bare_except_in_a_with(x):
    # no chain of clause tests: a bare except's body is no code after the try
    with contextlib.nullcontext(x) as value:
        try:
            return 10 // value
        except:
            LOG.append("cleanup")
            raise


CASES = [
    ("returns_under_a_bare_except_in_a_with", (2,)),
    ("returns_under_a_bare_except_in_a_with", (0,)),
    ("clauses_meet_in_a_for", ([1, -2, 3],)),
    ("clauses_meet_in_a_for", ([1, -7, 3],)),
    ("clauses_meet_in_a_for", ([],)),
    ("clauses_meet_after_a_raising_body", (4, True)),
    ("clauses_meet_after_a_raising_body", (3, False)),
    ("clauses_meet_after_a_raising_body", (0, True)),
    ("clauses_meet_then_return", (0,)),
    ("clauses_meet_then_return", (1,)),
    ("clauses_meet_then_return", (2,)),
    ("clause_returns_others_meet", (0,)),
    ("clause_returns_others_meet", (1,)),
]
