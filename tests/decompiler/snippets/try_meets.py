"""Where a try's else and its except clauses meet, or never do: an else and clauses
that each go on to a copy of the finally body around them (3.10 copies it, with
the return after it, to every way out); an else that never goes on (a break, a
raise), so that the code the clauses go on to is written after the try; a return
from a try body inside an except clause, whose way out leaves the clause (and
clears its name), no code after the try; ``finally: pass``, whose handler only
re-raises."""


class Manager:
    def __init__(self, suppress):
        self.suppress = suppress

    def __enter__(self):
        return self

    def __exit__(self, kind, value, traceback):
        return self.suppress


def else_and_clauses_before_a_finally(a, log):
    """try/except/else/finally at the end of a function: 3.10's else runs on to the
    copy of the finally body that ends the body, the clause to a copy of its own
    (seed 16 on 3.10)."""
    try:
        log.append(10 // a)
    except ZeroDivisionError:
        log.append("zero")
    else:
        log.append("else")
    finally:
        log.append("finally")


def empty_else_before_a_finally(a, log):
    """The same with a named clause and an else that do nothing (seed 162 on 3.10)."""
    try:
        log.append(10 // a)
    except ZeroDivisionError as e:
        pass
    else:
        pass
    finally:
        log.append("finally")


def else_returning_before_a_finally(a, log):
    """An else that returns through the finally body, a clause that goes on to it."""
    try:
        log.append(10 // a)
    except ZeroDivisionError:
        log.append("zero")
    else:
        return "else"
    finally:
        log.append("finally")
    return log


def else_breaks_clauses_go_on(items, log):
    """An else that breaks out of the loop: the code after the try runs after the
    clauses alone, written after the try (seed 370 on 3.10)."""
    while items:
        try:
            log.append(10 // items.pop())
        except ZeroDivisionError as e:
            pass
        except (TypeError, KeyError) as e:
            log.append("type")
        else:
            break
        log.append(44)


def else_raises_clauses_go_on(point, log):
    """An else that raises, in a case of a match (the shape of seed 522 on 3.10)."""
    match point:
        case [x, y] if y:
            try:
                x = 10 // x
            except ZeroDivisionError:
                x = -1
            except TypeError:
                pass
            else:
                raise KeyError(f"{x}-18")
            log.append(x)
    return log


def else_returns_clauses_go_on(a, log):
    """An else that returns, the clause going on to the code after the try."""
    try:
        log.append(10 // a)
    except ZeroDivisionError:
        log.append("zero")
    else:
        return "else"
    log.append("after")
    return log


def else_continues_clauses_go_on(items, log):
    """An else that goes on to the next round, the clause to the code after the try."""
    for x in items:
        try:
            log.append(10 // x)
        except ZeroDivisionError:
            log.append("zero")
        else:
            continue
        log.append("after")
    return log


def one_clause_else_breaks(items, log):
    """One clause, an else that breaks, and more code after the try in the loop."""
    while items:
        x = items.pop()
        try:
            log.append(10 // x)
        except ZeroDivisionError:
            log.append("zero")
        else:
            break
        log.append("after")
        if x is None:
            break
    return log


def returns_from_a_try_in_a_named_clause(a, b, log):
    """A return in a try body inside a named except clause: its way out pops the
    clause's exception and clears its name, no code after the try read into its
    body (seed 663 on 3.11)."""
    try:
        log.append(10 // a)
    except ZeroDivisionError as e:
        try:
            if b:
                return b
        except KeyError as e:
            pass


def returns_from_a_try_in_a_clause(a, b, log):
    """The same in a clause with no name: the return was read as the end of the try
    body (3.11+), its ``if`` given an else returning None."""
    try:
        log.append(10 // a)
    except ZeroDivisionError:
        try:
            if b:
                return b
        except KeyError as e:
            pass


def returns_from_a_try_in_a_named_clause_in_a_loop(items, log):
    """The same in a loop's body, the clause going on to the next round."""
    for a in items:
        try:
            log.append(10 // a)
        except ZeroDivisionError as e:
            try:
                if log[0]:
                    return log
            except (KeyError, IndexError) as e:
                log.append("none")


def empty_finally_after_clauses(a, log):
    """``finally: pass`` around a try with a named clause: the handler only re-raises,
    no clause and no finally body read from it (seed 16 on 3.10)."""
    try:
        for log[0] in range(a):
            pass
    except TypeError as e:
        pass
    finally:
        pass


def empty_finally_returns(a, log):
    """``finally: pass`` around a body that returns on one way."""
    try:
        if a:
            return 1 // (a - 1)
        log.append(a)
    finally:
        pass
    return log


def empty_finally_around_a_with(m, log):
    """``finally: pass`` around a with statement."""
    try:
        with m:
            log.append(1)
    finally:
        pass


CASES = [
    ("else_and_clauses_before_a_finally", (2, [])),
    ("else_and_clauses_before_a_finally", (0, [])),
    ("else_and_clauses_before_a_finally", (None, [])),
    ("empty_else_before_a_finally", (2, [])),
    ("empty_else_before_a_finally", (0, [])),
    ("empty_else_before_a_finally", (None, [])),
    ("else_returning_before_a_finally", (2, [])),
    ("else_returning_before_a_finally", (0, [])),
    ("else_returning_before_a_finally", (None, [])),
    ("else_breaks_clauses_go_on", ([0, "a", 1, 0], [])),
    ("else_breaks_clauses_go_on", ([0, None], [])),
    ("else_breaks_clauses_go_on", ([], [])),
    ("else_raises_clauses_go_on", ([0, 1], [])),
    ("else_raises_clauses_go_on", (["a", 1], [])),
    ("else_raises_clauses_go_on", ([2, 1], [])),
    ("else_raises_clauses_go_on", ([2, 0], [])),
    ("else_raises_clauses_go_on", (None, [])),
    ("else_returns_clauses_go_on", (2, [])),
    ("else_returns_clauses_go_on", (0, [])),
    ("else_returns_clauses_go_on", ("a", [])),
    ("else_continues_clauses_go_on", ([0, 1, 0, 2], [])),
    ("else_continues_clauses_go_on", ([0, "a"], [])),
    ("one_clause_else_breaks", ([1, 0, 0], [])),
    ("one_clause_else_breaks", ([0, 0], [])),
    ("one_clause_else_breaks", ([None, 0], [])),
    ("returns_from_a_try_in_a_named_clause", (2, 1, [])),
    ("returns_from_a_try_in_a_named_clause", (0, 1, [])),
    ("returns_from_a_try_in_a_named_clause", (0, 0, [])),
    ("returns_from_a_try_in_a_named_clause", (None, 1, [])),
    ("returns_from_a_try_in_a_clause", (2, 1, [])),
    ("returns_from_a_try_in_a_clause", (0, 1, [])),
    ("returns_from_a_try_in_a_clause", (0, 0, [])),
    ("returns_from_a_try_in_a_named_clause_in_a_loop", ([1, 0, 2], [])),
    ("returns_from_a_try_in_a_named_clause_in_a_loop", ([0, 1, 0], [])),
    ("returns_from_a_try_in_a_named_clause_in_a_loop", ([1, 0], [0])),
    ("empty_finally_after_clauses", (2, [0])),
    ("empty_finally_after_clauses", ("a", [0])),
    ("empty_finally_after_clauses", (2, [])),
    ("empty_finally_returns", (0, [])),
    ("empty_finally_returns", (2, [])),
    ("empty_finally_returns", (1, [])),
    ("empty_finally_around_a_with", (Manager(False), [])),
    ("empty_finally_around_a_with", (Manager(True), None)),
    ("empty_finally_around_a_with", (Manager(False), None)),
]
