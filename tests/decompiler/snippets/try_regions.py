"""Try statements whose regions the walks once read so that the result did not
compile, or fell back to the state machine (the trys group's shapes). The module
ends in a named except clause before a small last statement: 3.12+ copy that
statement and the module's return past the clause's clearing of its name, where the
end of the try body runs the original (seeds 11043 and 10337 on 3.12 and 3.13)."""

LOG = []


class Holder:
    def __init__(self, value):
        self.value = value


def log():
    return LOG, x, hasattr(holder, "value"), NamedClausesAtTheEnd.seen


def named_clause_before_the_end(items, key):
    """A named clause before the function's small last statement, which 3.12+ copy
    past the clause's clearing of its name (seed 11043's shape in a function): it
    read as the try's else, then the clearing and the copy after the try."""
    try:
        LOG.append(items.value[key])
    except (KeyError, IndexError) as e:
        LOG.append(type(e).__name__)
    del items.value


def try_ending_a_try_in_a_clause(log, first, second):
    """A try whose body is a try, at the end of an except clause before a return:
    3.13 copies the clause's end (its ``POP_EXCEPT`` and jump on) to the end of the
    inner clause, where the inner try's else goes on through the enclosing try
    body's end, a jump to that end too (seed 10092's shape; also 3.10's layout, which
    copies the return, not read yet)."""
    try:
        log.append(1 // first)
    except ZeroDivisionError:
        try:
            try:
                log.append(1 // second)
            except ZeroDivisionError:
                log.append("inner")
        except TypeError:
            x = 1
    return x


def finally_continue_after_a_named_clause(items, log):
    """``finally: ...; continue`` after a named clause: 3.13 copies the finally body
    to the end of the clause, and its copy on the else's way is the end of the loop's
    body the walk stops at (seeds 10124 and 10789's shape)."""
    for item in items:
        try:
            if item > 2:
                break
        except (KeyError, IndexError) as e:
            log.append(e)
        finally:
            log.append(item)
            continue
    return log


def break_from_a_try_before_a_return(flags, x):
    """A break out of an endless loop from a try body, before a return after the
    loop: 3.12+ copy that return to the break, outside the handler, and it read as
    code after the try under its clauses; it cannot raise, so it is the body's own
    return (seeds 10801, 888, 896, 1109 on 3.13)."""
    while True:
        try:
            if next(flags):
                break
        except KeyError:
            x += 1
        if next(flags):
            return (x, 30)
    return ("end", x)


class NamedClausesAtTheEnd:
    """A class body ending in a try that ends in named clauses, inside another: 3.10
    copies the body's return to the end of each clause, and the walk meets them at
    one copy after the chain of clauses (seeds 10773, 10793, 10822, 1372 on 3.10)."""

    seen = []
    try:
        try:
            seen.append(seen[0])
        except KeyError as e:
            seen.append(("key", e.args))
        except IndexError as e:
            seen.append(("index", e.args))
    except (TypeError, ValueError):
        seen.append(4)


CASES = [
    ("log", ()),
    ("named_clause_before_the_end", (Holder([1, 2]), 1)),
    ("named_clause_before_the_end", (Holder([1, 2]), 5)),
    ("named_clause_before_the_end", (Holder({0: 1}), "b")),
    ("named_clause_before_the_end", (Holder(None), 0)),
    ("try_ending_a_try_in_a_clause", ([], 1, 1)),
    ("try_ending_a_try_in_a_clause", ([], 0, 1)),
    ("try_ending_a_try_in_a_clause", ([], 0, 0)),
    ("try_ending_a_try_in_a_clause", ([], 0, "a")),
    ("try_ending_a_try_in_a_clause", ([], 0, None)),
    ("finally_continue_after_a_named_clause", ([1, 0, 3, 2], [])),
    ("finally_continue_after_a_named_clause", ([], [])),
    ("break_from_a_try_before_a_return", (iter([0, 0, 1]), 1)),
    ("break_from_a_try_before_a_return", (iter([0, 1]), 2)),
    ("break_from_a_try_before_a_return", (iter([0]), 3)),
]

holder = Holder(3)
try:
    x = int("12")
except (ValueError, TypeError) as e:
    LOG.append(str(e))
del holder.value
