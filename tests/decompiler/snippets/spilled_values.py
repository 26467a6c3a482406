"""Stack values the walk once spilled to a temporary (``_t1``) that ``locals()`` or a
debugger would show, in functions it structures:
- a return under a finally body that always raises: the compiler writes no
  RETURN_VALUE, so the value stays on the stack through a named clause's clearing of
  its name, then the finally body's copy raises (a finally body that raises only
  sometimes returns the value as usual); from a loop, the value is kept above the
  stack where the loop goes on, and was dropped with a break (a wrong result: the
  value was never computed);
- a chained comparison, ``0 < x <= 1``, whose first comparison's failing pop holds
  its own copy of where the chain fails, split into blocks by a handler's range: the
  load of a returned cell apart from the ``RETURN_VALUE`` (3.10, 3.12+), or 3.13's
  copy of an inner clause's ``POP_EXCEPT`` apart from the jump on; the middle
  operand was kept in a temporary (or, a plain local, read twice in nested ifs);
- a call ending the function whose argument is a conditional expression with an
  inlined comprehension for an arm (3.12+): the call and the return are copied into
  each arm, the comprehension is a loop, not a value, and the callee was spilled to
  a temporary, the call written in each branch.
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


def returns_from_a_for_loop_under_a_raising_finally(x, c, log):
    """``for i in x: if i == c: return i * 2`` under a raising finally: the value's
    error is the finally body's raise's context."""
    try:
        for i in x:
            if i == c:
                return i * 2
            log.append(i)
    finally:
        log.append(0)
        raise E1(log)


def returns_from_a_while_loop_under_a_raising_finally(x, c, log):
    """The same from a while loop."""
    try:
        while x:
            if x.pop() is None:
                return [c, x[-1]]
            log.append(len(x))
    finally:
        raise E1(len(log))


def chain_on_a_cell_before_its_return(x, c, log):
    """``if c and 0 < x <= 1: raise`` then ``return x`` in a try, ``x`` a cell (shape
    4: seed 9609 on 3.10, 3.12, 3.13)."""
    try:
        if log is not None:
            if c and 0 < x <= 1:
                raise E1(16)
            return x
    except KeyError:
        log.append(1)

    def g():
        nonlocal x

    x = 1
    return g


def chain_on_a_local_before_its_return(x, c, log):
    """As above, ``x`` a plain local: one comparison, not ``if 0 < x: if x <= 1:``."""
    try:
        if log is not None:
            if c and 0 < x <= 1:
                raise E1(16)
            return x
    except KeyError:
        log.append(1)
    x = 1
    return x


def chain_on_a_cell_in_a_clause_inside_a_try(x, c, log):
    """``if c and 0 < x <= 5: raise`` ending an except clause inside another try, ``x``
    a cell (shape 4: seed 15237 on 3.13, there in an ``except*`` clause)."""
    try:
        try:
            log.append(1 / c)
        except ZeroDivisionError:
            if log and 0 < x <= 5:
                raise E1(13)
    except E1:
        log.append(2)

    def g():
        nonlocal x

    x = 1
    return g


def call_ending_the_function_on_a_comprehension_arm(x, c, log):
    """``log.append([...] if c else True)`` ending the function (shape 5: seeds 20843,
    21055 on 3.12 and 3.13)."""
    log.append([i * 2 for i in x] if c else True)


def call_returned_on_a_comprehension_arm(x, c, log):
    """The call's value returned, the callee an attribute, its first argument computed
    before the test (seed 8285 on 3.12, 3.13, there in a finally body)."""
    return log.insert(len(log), [i for i in x if i] if c else [c])


def raise_on_a_comprehension_arm(x, c, log):
    """A raise whose exception's argument is the conditional expression, after an
    operand computed before the test."""
    raise E1(len(log), {i: i for i in x} if c else c)


def logged(x, c, log):
    for name in (
        "returns_in_a_named_clause_under_a_raising_finally",
        "returns_in_a_named_clause_under_a_finally_raising_sometimes",
        "returns_a_failing_value_in_a_named_clause_under_a_raising_finally",
        "returns_from_a_try_under_a_raising_finally",
        "returns_from_a_for_loop_under_a_raising_finally",
        "returns_from_a_while_loop_under_a_raising_finally",
    ):
        try:
            log.append(globals()[name](list(x) if isinstance(x, list) else x, c, log))
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
    ("returns_from_a_for_loop_under_a_raising_finally", ([1, 2], 2, [])),
    ("returns_from_a_for_loop_under_a_raising_finally", ([1, 2], 3, [])),
    ("returns_from_a_for_loop_under_a_raising_finally", ([None], None, [])),
    ("returns_from_a_while_loop_under_a_raising_finally", ([1, None], 0, [])),
    ("returns_from_a_while_loop_under_a_raising_finally", ([None], 0, [])),
    ("returns_from_a_while_loop_under_a_raising_finally", ([1, 2], 0, [])),
    ("chain_on_a_cell_before_its_return", (1, True, [])),
    ("chain_on_a_cell_before_its_return", (1, False, [])),
    ("chain_on_a_cell_before_its_return", (0, True, [])),
    ("chain_on_a_cell_before_its_return", (2, True, [])),
    ("chain_on_a_cell_before_its_return", ("a", True, [])),
    ("chain_on_a_cell_before_its_return", (1, True, None)),
    ("chain_on_a_local_before_its_return", (1, True, [])),
    ("chain_on_a_local_before_its_return", (0.5, False, [])),
    ("chain_on_a_local_before_its_return", (0, True, [])),
    ("chain_on_a_local_before_its_return", (2, True, [])),
    ("chain_on_a_local_before_its_return", (1, True, None)),
    ("chain_on_a_cell_in_a_clause_inside_a_try", (3, 0, [])),
    ("chain_on_a_cell_in_a_clause_inside_a_try", (3, 0, [5])),
    ("chain_on_a_cell_in_a_clause_inside_a_try", (0, 0, [5])),
    ("chain_on_a_cell_in_a_clause_inside_a_try", (6, 0, [5])),
    ("chain_on_a_cell_in_a_clause_inside_a_try", ("a", 0, [5])),
    ("chain_on_a_cell_in_a_clause_inside_a_try", (3, 1, [5])),
    ("call_ending_the_function_on_a_comprehension_arm", ([1, 2], True, [])),
    ("call_ending_the_function_on_a_comprehension_arm", ([1, 2], False, [])),
    ("call_ending_the_function_on_a_comprehension_arm", (None, True, [])),
    ("call_returned_on_a_comprehension_arm", ([0, 1], True, [])),
    ("call_returned_on_a_comprehension_arm", ([0, 1], 0, [])),
    ("call_returned_on_a_comprehension_arm", (None, 1, [])),
    ("raise_on_a_comprehension_arm", ([1, 2], True, [])),
    ("raise_on_a_comprehension_arm", ([1, 2], False, [])),
    ("raise_on_a_comprehension_arm", ([[1]], True, [])),
    ("logged", (0, True, [])),
    ("logged", (0, False, [])),
    ("logged", (3, True, [])),
    ("logged", ([None], None, [])),
]
