"""Stack values the walk once spilled to a temporary (``_t1``) that ``locals()`` or a
debugger would show, in functions it structures:
- a return under a finally body that always raises: the compiler writes no
  RETURN_VALUE, so the value stays on the stack through a named clause's clearing of
  its name, then the finally body's copy raises (a finally body that raises only
  sometimes returns the value as usual);
Each reads back as written; one function each, named after the shape, with the seed
it was found on."""


class E1(Exception):
    pass


def returns_in_a_named_clause_under_a_raising_finally(x, c, log):
    """``except Exception as e: if c: return (x, 31)`` under ``finally: raise E1(32)``
    (shape 3: seeds 10222 and 15615 on 3.10-3.13)."""
    try:
        log.append(1 / x)
    except Exception as e:
        if c:
            return (x, 31)
        log.append(str(e))
    finally:
        raise E1(32)


def returns_in_a_named_clause_under_a_finally_raising_sometimes(x, c, log):
    """As above, the finally body's raise under an if: the return is written."""
    try:
        log.append(1 / x)
    except Exception as e:
        if c:
            return (x, 31)
        log.append(str(e))
    finally:
        if log:
            raise E1(32)


def returns_a_failing_value_in_a_named_clause_under_a_raising_finally(x, c, log):
    """The returned value raises: the finally body's raise chains to that error."""
    try:
        log.append(1 / x)
    except ZeroDivisionError as e:
        log.append(type(e).__name__)
        if c:
            return [x, 1 / x]
    finally:
        log.append(len(log))
        raise E1(log)


def returns_from_a_try_under_a_raising_finally(x, c, log):
    """A return in the try body itself, after a test, under a raising finally."""
    try:
        log.append(x)
        if c:
            return {x: c}
    finally:
        raise E1(32)


def logged(x, c, log):
    for name in (
        "returns_in_a_named_clause_under_a_raising_finally",
        "returns_in_a_named_clause_under_a_finally_raising_sometimes",
        "returns_a_failing_value_in_a_named_clause_under_a_raising_finally",
        "returns_from_a_try_under_a_raising_finally",
    ):
        try:
            log.append(globals()[name](x, c, log))
        except E1 as error:
            log.append((error.args, repr(error.__context__), error.__suppress_context__))
    return log


CASES = [
    ("returns_in_a_named_clause_under_a_raising_finally", (0, True, [])),
    ("returns_in_a_named_clause_under_a_raising_finally", (0, False, [])),
    ("returns_in_a_named_clause_under_a_raising_finally", (2, True, [])),
    ("returns_in_a_named_clause_under_a_finally_raising_sometimes", (0, True, [])),
    ("returns_in_a_named_clause_under_a_finally_raising_sometimes", (0, False, [])),
    ("returns_in_a_named_clause_under_a_finally_raising_sometimes", (2, True, [])),
    ("returns_in_a_named_clause_under_a_finally_raising_sometimes", (2, False, [])),
    ("returns_a_failing_value_in_a_named_clause_under_a_raising_finally", (0, True, [])),
    ("returns_a_failing_value_in_a_named_clause_under_a_raising_finally", (0, False, [])),
    ("returns_a_failing_value_in_a_named_clause_under_a_raising_finally", (0.0, True, [])),
    ("returns_a_failing_value_in_a_named_clause_under_a_raising_finally", (4, True, [])),
    ("returns_from_a_try_under_a_raising_finally", (1, True, [])),
    ("returns_from_a_try_under_a_raising_finally", (1, False, [])),
    ("returns_from_a_try_under_a_raising_finally", ([], True, [])),
    ("logged", (0, True, [])),
    ("logged", (0, False, [])),
    ("logged", (3, True, [])),
]
