"""Values the walk once kept in temporaries (``_t2``), which a debugger or
``locals()`` would show:
- a chained comparison whose failing ways 3.13 lays out as copies of one another;
- a match subject kept for literal cases (with guards of their own) after a guarded
  capture or after other cases, or for a match in a last capture's case, and a
  guarded capture whose case breaks;
- a conditional expression whose arm stores a walrus beside an inlined comprehension;
- a comprehension a try body returns, which 3.12+ return after the try, a return from
  a try's else through its finally body, which 3.11+ return after the try, and one
  from a named except clause, which 3.10 returns after the try around.
Each reads back as written; one function each, named after the shape, with the seed
it was found on."""

import contextlib


def chain_in_a_clause_before_a_return(x, log):
    """A chained comparison with a computed middle operand, as a condition in an
    except clause before a return: 3.13 copies the clause's ``POP_EXCEPT`` and the
    return into the way the first comparison fails (seed 90 on 3.13)."""
    try:
        log.append(1 / x)
    except ZeroDivisionError:
        if 0 < len(log) <= 2:
            raise ValueError(len(log)) from None
    return ("end", x)


def chain_in_a_clause_before_code_after(x, log):
    """The same, before code after the try: the first comparison fails into a copy
    of the clause's end that jumps on there (seeds 90, 715 and 1106 on 3.13)."""
    try:
        log.append(1 / x)
    except ZeroDivisionError:
        if 0 < len(log) <= 2:
            raise ValueError(len(log)) from None
    log.append(x)
    return log


def literal_case_with_a_guard_after_a_guarded_capture(x, log):
    """``case b"" if g:`` after ``case a if g:``: the kept subject's test and the
    guard are one condition, ``_t1 == b"" and g`` (seed 1107)."""
    while True:
        match x:
            case a if len(log) > 2:
                log.append(a)
                break
            case b"" if log and len(log) < 2:
                return log
        log.append(x)
    log.append("end")


def literal_case_after_a_returning_case(items, log):
    """``case "-1":`` after a case that returns, ending a loop body: its test of the
    subject kept in a temporary is the else of the first case's (seed 1500 on 3.13),
    and 3.10 has the else go on to the next round, a ``case _:`` that does nothing."""
    for x in items:
        match str(x):
            case [a]:
                return a
            case "-1":
                log.append(x)


def guarded_literal_case_after_a_case_in_a_loop(items, log):
    """``case 2 if g: break`` after another case, ending a loop body (seed 1411 on
    3.13)."""
    for x in items:
        log.append(x)
        match abs(x):
            case [a]:
                log.append(a)
            case 2 if len(log) > 1:
                break
    log.append("end")


PAIR = [2, 1]


def match_in_a_capture_after_a_raising_case(x, log):
    """A match on a global in the last ``case a:`` after a case that never goes on:
    the global is kept in a temporary (a case may rebind it), read back as ``match
    PAIR:`` once the code after the capture is its case (seed 1733 on 3.13)."""
    match len(log) % 3:
        case 0 if x:
            raise ValueError(x)
        case a:
            match PAIR:
                case [b, c] if b > c:
                    log.append(b)
                case b:
                    log.append((a, b))
            log.append(0)
    log.append(1)


def walrus_arm_beside_a_comprehension(c, y, log):
    """A conditional expression with a comprehension in one arm and a walrus in the
    other: 3.12+ inline the comprehension's loop, so the arms stay statements that
    give one temporary its value, the walrus's store among them (seeds 1858, 1949 on
    3.12+)."""
    x = [i for i in y] if c else (z := -len(y))
    log.append(x)
    return log


def walrus_arms_beside_comprehensions(c, y, log):
    """The same in a loop, a walrus inside the comprehension too."""
    for q in y:
        x = [(w := i) for i in y if i] if c else (z := q)
        log.append(x)
    return log


def returns_a_comprehension_from_a_try(y, log):
    """A return of a comprehension from a try body with clauses: 3.12+ inline its loop
    in the body and return its result after the try, in an else (seed 1996 on
    3.12+)."""
    try:
        log.append(len(y))
        return {i: len(log) for i in y if not i}
    except TypeError:
        log.append("no")
    return log


def returns_a_comprehension_from_a_try_finally(y, log):
    """The same with a finally body."""
    try:
        log.append(len(y))
        return [i for i in y if i]
    except TypeError:
        log.append("no")
    finally:
        log.append("done")


def returns_from_an_else_through_a_finally_in_a_try(x, log):
    """``else: return v`` through a finally body, inside a try with clauses: the
    return runs after the inner try, outside the outer one's body, so the value is
    kept in a temporary across both (seed 1927 on 3.13; 3.10 too)."""
    try:
        try:
            log.append(1 / x)
        except ZeroDivisionError as e:
            log.append(str(e))
            raise ValueError(x) from None
        else:
            return (x, 17)
        finally:
            log.append("finally")
    except ValueError:
        log.append("caught")
    return log


def guarded_capture_that_breaks(x, log):
    """``case a if g: break``, then another case, in a loop: the branches of the guard
    leave the subject its capture kept below the test, the case body popping it first,
    as statements do, not as the operand of an expression (seeds 1096, 1107 and 1411
    on 3.10-3.13)."""
    while len(log) < 5:
        match x:
            case a if a > len(log):
                break
            case 1:
                log.append(1)
        log.append(x)
    log.append("end")


def guarded_capture_that_breaks_between_cases(items, log):
    """The same between other cases, in a for loop."""
    for x in items:
        match [x, len(log)]:
            case None:
                log.append(0)
            case a if x > 2:
                break
            case [b, 0]:
                log.append(b)
            case [b, c]:
                log.append(c)
    log.append("end")


def returns_from_a_named_clause_in_a_try(x, log):
    """A return from an ``except ... as e:`` clause inside a try with clauses: 3.10
    keeps the value across the clearing of ``e`` and returns after the outer try, the
    raise that follows copied into each other way (seed 976 on 3.10)."""
    try:
        try:
            log.append(1 / x)
        except ZeroDivisionError as e:
            log.append(str(e))
            if len(log) > 1 and log[0]:
                return (x, 33)
        raise ValueError(34)
    except ValueError as e:
        log.append(repr(e))
    return log


def returns_a_chain_or_a_comprehension_in_a_with(x, y, log):
    """``return a and chain or [comprehension]`` in a with body: the or's branches,
    each giving the value a temporary (3.12+ inline the comprehension), are one
    value, not returns in an if (seed 712 on 3.13)."""
    with contextlib.nullcontext():
        if log:
            return (len(log) > 1 and x == len(y) != 0) or [w for i in y if (w := i)]
    return log


CASES = [
    ("chain_in_a_clause_before_a_return", (1, [])),
    ("chain_in_a_clause_before_a_return", (0, [])),
    ("chain_in_a_clause_before_a_return", (0, [5])),
    ("chain_in_a_clause_before_a_return", (0, [5, 6, 7])),
    ("chain_in_a_clause_before_code_after", (2, [])),
    ("chain_in_a_clause_before_code_after", (0, [])),
    ("chain_in_a_clause_before_code_after", (0, [1, 2])),
    ("chain_in_a_clause_before_code_after", (0, [1, 2, 3])),
    ("literal_case_with_a_guard_after_a_guarded_capture", (b"", [])),
    ("literal_case_with_a_guard_after_a_guarded_capture", (b"", [0])),
    ("literal_case_with_a_guard_after_a_guarded_capture", (5, [])),
    ("literal_case_with_a_guard_after_a_guarded_capture", (b"", [1, 2, 3])),
    ("literal_case_after_a_returning_case", ([1, -1, 2], [])),
    ("literal_case_after_a_returning_case", ([-1, -1], [0])),
    ("literal_case_after_a_returning_case", ([], [])),
    ("guarded_literal_case_after_a_case_in_a_loop", ([2, 2, 3], [])),
    ("guarded_literal_case_after_a_case_in_a_loop", ([-2, 5], [])),
    ("guarded_literal_case_after_a_case_in_a_loop", ([1, 3], [9])),
    ("match_in_a_capture_after_a_raising_case", (0, [])),
    ("match_in_a_capture_after_a_raising_case", (1, [])),
    ("match_in_a_capture_after_a_raising_case", (0, [5])),
    ("match_in_a_capture_after_a_raising_case", (1, [5, 6])),
    ("walrus_arm_beside_a_comprehension", (True, [1, 2], [])),
    ("walrus_arm_beside_a_comprehension", (False, [1, 2], [])),
    ("walrus_arms_beside_comprehensions", (True, [0, 3], [])),
    ("walrus_arms_beside_comprehensions", (False, [0, 3], [])),
    ("walrus_arms_beside_comprehensions", (True, [], [])),
    ("returns_a_comprehension_from_a_try", ([0, 1, 0.0], [])),
    ("returns_a_comprehension_from_a_try", (5, [])),
    ("returns_a_comprehension_from_a_try", ([], [])),
    ("returns_a_comprehension_from_a_try_finally", ([0, 1, 2], [])),
    ("returns_a_comprehension_from_a_try_finally", (5, [])),
    ("returns_from_an_else_through_a_finally_in_a_try", (2, [])),
    ("returns_from_an_else_through_a_finally_in_a_try", (0, [])),
    ("guarded_capture_that_breaks", (1, [])),
    ("guarded_capture_that_breaks", (3, [])),
    ("guarded_capture_that_breaks", (9, [])),
    ("guarded_capture_that_breaks_between_cases", ([1, 2, 3, 4], [])),
    ("guarded_capture_that_breaks_between_cases", ([0, 1], [5])),
    ("returns_from_a_named_clause_in_a_try", (1, [])),
    ("returns_from_a_named_clause_in_a_try", (0, [])),
    ("returns_from_a_named_clause_in_a_try", (0, [1])),
    ("returns_from_a_named_clause_in_a_try", (0, [0])),
    ("returns_a_chain_or_a_comprehension_in_a_with", (2, [1, 0], [1, 2])),
    ("returns_a_chain_or_a_comprehension_in_a_with", (5, [1, 0], [1, 2])),
    ("returns_a_chain_or_a_comprehension_in_a_with", (2, [1, 0], [1])),
    ("returns_a_chain_or_a_comprehension_in_a_with", (2, [1, 0], [])),
]
