"""Where a try's else and its except clauses go on when 3.10 copies what follows
them to each: a finally body's end, which re-raises in the copy run on an
exception, and the end of an enclosing named clause with the return after it,
which the copy of a finally body on the normal path holds too; and the code after
a try copied to each way its body ends, beside a return of a constant in it, or
after a try/finally in a for loop, beside a return that pops the loop's iterator;
a finally body ending in a try whose body always raises, its clause ending in the
finally body's re-raise."""


def try_else_finally_in_a_finally_body(a, b, log):
    """try/except/else/finally as the finally body of a try: in the copy run on an
    exception, 3.10 copies the inner finally body, re-raising, to the else's end and
    to the clause's (seed 11's shape on 3.10; seed 11 itself still falls back, a
    comprehension in that finally body keeping the copy from a trial run)."""
    try:
        log.append(10 // a)
    finally:
        try:
            log.append(10 // b)
        except ZeroDivisionError:
            log.append("zero")
        else:
            log.append("else")
        finally:
            log.append("finally")


def try_in_a_named_clause_before_a_return(a, b, log):
    """A try/except ending a named except clause, before a return: 3.10 copies the
    clause's end and the return to the inner body's end and to its clause's, whose
    if raises on one arm (seed 118 on 3.10)."""
    try:
        log.append(10 // a)
    except ZeroDivisionError as e:
        try:
            log.append(10 // b)
        except TypeError:
            if b is None:
                raise ValueError("no b")
            log.append("typed")
    return len(log)


def finally_ending_in_a_try_in_a_named_clause(a, b, log):
    """A try/finally ending a named except clause, whose finally body is a
    try/except: 3.10 and 3.12 copy the clause's end and the return after it to that
    try's body end and to its clause's, in the finally body's copy on the normal path
    (a shape met reducing seed 374, on 3.10 and 3.12)."""
    try:
        log.append(10 // a)
    except ZeroDivisionError as e:
        try:
            log.append(e.args)
        finally:
            try:
                log.append(10 // b)
            except Exception:
                log.append("inner")


def returns_from_a_try_before_copied_code_after(a, b, log):
    """A try/except in an if, its body returning a constant in nested ifs that fall
    off otherwise: 3.10 copies the return after the if to each jump out of the
    body, which, not the constant's return, is where the body ends (seed 249's
    shape; seed 249 itself now falls back further on, a block reached twice)."""
    if a:
        try:
            if b:
                if 10 // b > 1:
                    return "big"
        except ZeroDivisionError:
            return "zero"
    return len(log)


def returns_from_a_try_finally_in_a_for_loop(items, log):
    """A try/finally in a for loop, its body returning a value it computes, the code
    after it a return computing another: each pops the loop's iterator, which is
    where the body ends, the return of the kept value or the code after the try
    (seed 155's shape, 3.10 and 3.12)."""
    for item in items:
        try:
            if item:
                return 10 // item
        finally:
            log.append(item)
        return len(log)


def returns_a_constant_from_a_try_finally_in_a_for_loop(items, log):
    """The same with a return of a constant in the body, which loads it after
    popping the loop's iterator."""
    for item in items:
        try:
            if item:
                return "found"
        finally:
            log.append(item)
        return len(log)


def finally_ending_in_a_try_that_always_raises(a, log):
    """A finally body ending in a try/except whose body always raises: the compiler
    copies the re-raise ending the finally body's copy run on an exception into the
    clause alone, there being no else; written once after the try (seed 374 on 3.10,
    3.12 and 3.13)."""
    try:
        log.append(10 // a)
    finally:
        try:
            raise ValueError(a)
        except ValueError:
            log.append("inner")


CASES = [
    ("try_else_finally_in_a_finally_body", (2, 5, [])),
    ("try_else_finally_in_a_finally_body", (0, 5, [])),
    ("try_else_finally_in_a_finally_body", (2, 0, [])),
    ("try_else_finally_in_a_finally_body", (0, 0, [])),
    ("try_else_finally_in_a_finally_body", (None, 0, [])),
    ("try_else_finally_in_a_finally_body", (2, "x", [])),
    ("try_else_finally_in_a_finally_body", (0, "x", [])),
    ("try_in_a_named_clause_before_a_return", (2, 5, [])),
    ("try_in_a_named_clause_before_a_return", (0, 5, [])),
    ("try_in_a_named_clause_before_a_return", (0, None, [])),
    ("try_in_a_named_clause_before_a_return", (0, "x", [])),
    ("try_in_a_named_clause_before_a_return", (0, 0, [])),
    ("try_in_a_named_clause_before_a_return", ("x", 0, [])),
    ("finally_ending_in_a_try_in_a_named_clause", (2, 5, [])),
    ("finally_ending_in_a_try_in_a_named_clause", (0, 5, [])),
    ("finally_ending_in_a_try_in_a_named_clause", (0, 0, [])),
    ("finally_ending_in_a_try_in_a_named_clause", (None, 0, [])),
    ("returns_from_a_try_before_copied_code_after", (1, 5, [1])),
    ("returns_from_a_try_before_copied_code_after", (1, 9, [])),
    ("returns_from_a_try_before_copied_code_after", (1, 0, [])),
    ("returns_from_a_try_before_copied_code_after", (1, 50, [1, 2])),
    ("returns_from_a_try_before_copied_code_after", (1, "x", [])),
    ("returns_from_a_try_before_copied_code_after", (0, 5, [1, 2])),
    ("returns_from_a_try_finally_in_a_for_loop", ([5, 0], [])),
    ("returns_from_a_try_finally_in_a_for_loop", ([0, 5], [])),
    ("returns_from_a_try_finally_in_a_for_loop", ([], [])),
    ("returns_from_a_try_finally_in_a_for_loop", (["x"], [])),
    ("returns_a_constant_from_a_try_finally_in_a_for_loop", ([5, 0], [])),
    ("returns_a_constant_from_a_try_finally_in_a_for_loop", ([0, 5], [])),
    ("returns_a_constant_from_a_try_finally_in_a_for_loop", ([], [])),
    ("finally_ending_in_a_try_that_always_raises", (2, [])),
    ("finally_ending_in_a_try_that_always_raises", (0, [])),
    ("finally_ending_in_a_try_that_always_raises", (None, [])),
]
