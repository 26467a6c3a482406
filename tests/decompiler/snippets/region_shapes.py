"""Ways out of try and with bodies that the walk of an if reads: a continue through a
copy of a finally body that branches, inside a with; a return through a finally body
that never goes on. One function each, named after the shape."""


class Gate:
    """A context manager that logs and suppresses an exception when told to."""

    def __init__(self, log, suppress=False):
        self.log, self.suppress = log, suppress

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, kind, value, traceback):
        self.log.append(("exit", kind.__name__ if kind else None))
        return self.suppress


def continue_through_a_branching_finally_in_a_with(items, log):
    """The continue runs its own copy of the finally body, an if, then the with's exit:
    the body's end is the copy that goes on to the with's own exit, where the with ends
the loop's body too (seeds 1029, 1138)."""
    for item in items:
        with Gate(log):
            try:
                log.append(("body", item))
                if item > 1:
                    continue
            finally:
                if item % 2:
                    log.append(("odd", item))
    return log


def continue_in_a_clause_through_a_branching_finally_in_a_with(items, log):
    """As above, the continue under an except clause inside the finally's try."""
    while items:
        item = items.pop()
        with Gate(log):
            try:
                log[item]
                if item:
                    continue
            except IndexError:
                log.append("index")
            finally:
                if item or len(items) > 1:
                    log.append(("finally", item))
    return log


def returns_through_a_finally_that_raises(flag, mode, log):
    """The return value is kept while the copy of the finally body raises: no branch
    of the if returns it, and the branches leave different stacks (seed 1367)."""
    try:
        if flag:
            return log.append("value") if mode else len(log)
        log.append("on")
    finally:
        raise KeyError(flag)


def returns_a_name_through_a_finally_that_raises(flag, log):
    """A local that may be unbound, kept as a return value while the finally raises."""
    if flag > 1:
        value = flag
    try:
        if flag:
            return value
    finally:
        log.append("finally")
        raise ValueError(flag)


def returns_through_a_with_and_a_finally_that_returns(flag, log):
    """The return runs its copy of the with's exit, then of the finally body, which
    returns: the same code as the way the body ends, block by block (seed 1117)."""
    try:
        with Gate(log):
            log.append("body")
            if flag:
                return "inner"
    finally:
        log.append("finally")
        return "outer"


def returns_from_a_with_in_a_while(items, log):
    """The with's body always returns: its way out, the with's exit and then the
    return, runs on a stack the loop never has, so it is no end of the loop; only the
    exit suppressing an exception goes round again (seeds 1542, 1563, 1714)."""
    while items:
        with Gate(log, suppress=items[-1] == 0):
            log.append(100 // items.pop())
            return "done"
    return "empty"


def breaks_from_nested_withs_in_a_while(items, log):
    """A break through two withs, the code after the loop (the return) copied there."""
    while items and 0 <= items[-1] < 7:
        with Gate(log, suppress=True):
            with Gate(log):
                log.append(100 // items.pop())
                break


def breaks_from_a_with_in_an_endless_loop(items, log):
    """As above, in ``while True``, with a return of a constant after the loop."""
    while True:
        with Gate(log, suppress=True):
            log.append(100 // items.pop())
            break
    return 5


def returns_through_a_finally_in_a_try(flag, mode, log):
    """A return through an inner finally body, inside an outer try: 3.11+ leave the
    return itself out of both, where the outer body ends; the branch that gets there
    returns, the other goes on past the inner try (seed 1152)."""
    try:
        if flag:
            try:
                if mode:
                    return log.append("returned") or len(log)
            finally:
                log.append("finally")
        raise KeyError(flag)
    except KeyError:
        log.append("caught")


def returns_from_a_case_through_a_finally_that_raises(items, log):
    """A return value kept while the finally body's copy raises, from a case inside a
    try inside a clause: the inner try's end only jumps on to that finally body's
    normal copy (seed 1599)."""
    try:
        log[5]
    except IndexError:
        try:
            try:
                match items:
                    case [0, *_]:
                        return log.append("returned") or len(log)
                    case other:
                        log.append(other)
            except (KeyError, TypeError):
                log.append("caught")
        finally:
            raise ValueError(len(log)) from None


CASES = [
    ("returns_from_a_case_through_a_finally_that_raises", ([0, 1], [])),
    ("returns_from_a_case_through_a_finally_that_raises", ([1], [])),
    ("returns_from_a_case_through_a_finally_that_raises", ([0], [1, 2, 3, 4, 5, 6])),
    ("returns_through_a_finally_in_a_try", (True, True, [])),
    ("returns_through_a_finally_in_a_try", (True, False, [])),
    ("returns_through_a_finally_in_a_try", (False, True, [])),
    ("returns_from_a_with_in_a_while", ([1, 0, 0, 4], [])),
    ("returns_from_a_with_in_a_while", ([0], [])),
    ("returns_from_a_with_in_a_while", ([], [])),
    ("breaks_from_nested_withs_in_a_while", ([1, 0, 0, 4], [])),
    ("breaks_from_nested_withs_in_a_while", ([0, 9], [])),
    ("breaks_from_nested_withs_in_a_while", ([0], [])),
    ("breaks_from_a_with_in_an_endless_loop", ([1, 0, 0], [])),
    ("breaks_from_a_with_in_an_endless_loop", ([3], [])),
    ("returns_through_a_with_and_a_finally_that_returns", (True, [])),
    ("returns_through_a_with_and_a_finally_that_returns", (False, [])),
    ("continue_through_a_branching_finally_in_a_with", ([0, 1, 2, 3, 4, 5], [])),
    ("continue_through_a_branching_finally_in_a_with", ([], [])),
    ("continue_in_a_clause_through_a_branching_finally_in_a_with", ([0, 1, 0, 2], [])),
    ("continue_in_a_clause_through_a_branching_finally_in_a_with", ([0], [])),
    ("returns_through_a_finally_that_raises", (True, True, [])),
    ("returns_through_a_finally_that_raises", (True, False, [])),
    ("returns_through_a_finally_that_raises", (False, True, [])),
    ("returns_a_name_through_a_finally_that_raises", (0, [])),
    ("returns_a_name_through_a_finally_that_raises", (1, [])),
    ("returns_a_name_through_a_finally_that_raises", (2, [])),
]
