"""Values the walk kept in temporaries (``_t2``) that ``locals()`` or a debugger
would show, in functions it structures (3.10 mostly):
- a return through an inner try/finally ending in an if, inside a try with a clause:
  3.10 copies the outer try's ``POP_BLOCK`` and the return into each arm of the if,
  so the walk leaves one return after the try, where the else runs on into it;
- a chained comparison in an except clause before the return after the try: 3.10
  copies the clause's ``POP_EXCEPT`` and jump on into the first comparison's failing
  pop, or sends that pop through a lone jump to a copy of the return the last
  comparison's failure goes to.
- a return through a finally body ending in ``if a and b: return``, after a with
  holding a try: the normal path's copy, with the return after the try copied into
  both failures, reads as nested ifs, the copy on an exception as the ``and``.
- ``x = a or (b if c else d)`` ending the function, an arm an f-string: 3.10 and
  3.12+ copy the store and the return into the arm that would jump to them, while
  the other falls into them, where the ``or`` jumps too.
Each reads back as written; one function each, named after the shape, with the seed
it was found on."""


def returns_through_an_inner_finally_ending_in_an_if(x, log):
    """``try: return v / finally: if c: f()`` inside a try with an except clause
    (seed 4044 on 3.10)."""
    try:
        try:
            x = x * 2 - 9
            return x
        finally:
            if (z := len(log)) > 1:
                log.append(z)
    except (KeyError, TypeError):
        log.append(1)


def chain_in_a_clause_before_the_return_after_the_try(x, log):
    """``if 0 < f() <= 6:`` in an except clause, the return after the try next: the
    first comparison's failing pop holds its own copy of the clause's end (seed 18593
    on 3.10)."""
    try:
        log.remove(x)
    except (ValueError, TypeError):
        if x:
            if 0 < len(log) <= 6:
                return (z := x + len(log))
    return log


def chain_looping_in_a_case_before_a_copied_return(t, x, log):
    """``while a and 0 < f() <= 8:`` in a case after a guarded one, inside a try
    before the return: the first comparison's failing pop jumps to a lone jump on to a
    copy of the return that the last comparison's failure reaches (seed 19091 on
    3.10)."""
    try:
        match t:
            case (a,) if a:
                log.append(1)
            case [b, c]:
                while log and 0 < len(log) <= 8:
                    log.pop()
    except KeyError:
        log.append(2)
    return ("end", x)


class Box:
    """A context manager that logs its enter and exit."""

    def __init__(self, log):
        self.log = log

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, *exc):
        self.log.append("exit")
        return False


def returns_through_a_finally_ending_in_an_and(x, log):
    """``try: return v / finally: with m: ... / if a and b: return x``: the two copies
    of the finally body read the ``and`` apart (seed 7797 on 3.10)."""
    try:
        return (x, 2)
    finally:
        with Box(log):
            assert x != 4
            try:
                log.append(x)
            except KeyError:
                x = 1
        if (n := len(log)) > 3 and x:
            return x


def stores_an_or_of_a_conditional_whose_arm_copies_the_tail(t, log):
    """``log[0] = a or (b if c else d)`` ending the function: one arm has its own copy
    of the store and the return, the other falls into the original (seed 4988 on 3.12;
    a state machine on 3.10)."""
    log[0] = t[0] and f"{log!s:.3}" or (log[1:] if t[1] else f"{t=}")


def assigns_an_or_of_a_conditional_whose_arm_copies_the_tail(t, y):
    """``x = a or (b if c else f"{x=}")`` ending the function (seed 4988's own)."""
    x = t[0] and f"{y!s:.3}" or (y[1:] if t[1] else f"{x=}")


CASES = [
    ("returns_through_an_inner_finally_ending_in_an_if", (5, [])),
    ("returns_through_an_inner_finally_ending_in_an_if", (5, [1, 2])),
    ("returns_through_an_inner_finally_ending_in_an_if", ("a", [1, 2])),
    ("returns_through_an_inner_finally_ending_in_an_if", ("a", [])),
    ("returns_through_an_inner_finally_ending_in_an_if", (None, [1, 2])),
    ("chain_in_a_clause_before_the_return_after_the_try", (1, [])),
    ("chain_in_a_clause_before_the_return_after_the_try", (1, [1, 2])),
    ("chain_in_a_clause_before_the_return_after_the_try", (0, [1])),
    ("chain_in_a_clause_before_the_return_after_the_try", (5, [1, 2])),
    ("chain_in_a_clause_before_the_return_after_the_try", (5, list(range(9)))),
    ("chain_in_a_clause_before_the_return_after_the_try", (5, None)),
    ("chain_looping_in_a_case_before_a_copied_return", ((1,), 0, [])),
    ("chain_looping_in_a_case_before_a_copied_return", ((0,), 0, [])),
    ("chain_looping_in_a_case_before_a_copied_return", ([1, 2], 3, [1, 2, 3])),
    ("chain_looping_in_a_case_before_a_copied_return", ([1, 2], 3, list(range(12)))),
    ("chain_looping_in_a_case_before_a_copied_return", ([1, 2], 3, [])),
    ("chain_looping_in_a_case_before_a_copied_return", ([1, 2], 3, None)),
    ("chain_looping_in_a_case_before_a_copied_return", (5, 3, [])),
    ("returns_through_a_finally_ending_in_an_and", (1, [])),
    ("returns_through_a_finally_ending_in_an_and", (1, [1])),
    ("returns_through_a_finally_ending_in_an_and", (0, [1])),
    ("returns_through_a_finally_ending_in_an_and", (4, [1])),
    ("returns_through_a_finally_ending_in_an_and", (4, [1, 2])),
    ("returns_through_a_finally_ending_in_an_and", (3, None)),
    ("returns_through_a_finally_ending_in_an_and", (3, {})),
    ("stores_an_or_of_a_conditional_whose_arm_copies_the_tail", ((1, 0), [1, 2])),
    ("stores_an_or_of_a_conditional_whose_arm_copies_the_tail", ((0, 1), [1, 2])),
    ("stores_an_or_of_a_conditional_whose_arm_copies_the_tail", ((0, 0), [1, 2])),
    ("stores_an_or_of_a_conditional_whose_arm_copies_the_tail", ((1, 1), [])),
    ("assigns_an_or_of_a_conditional_whose_arm_copies_the_tail", ((1, 0), "abcd")),
    ("assigns_an_or_of_a_conditional_whose_arm_copies_the_tail", ((0, 1), "abcd")),
    ("assigns_an_or_of_a_conditional_whose_arm_copies_the_tail", ((0, 0), "abcd")),
    ("assigns_an_or_of_a_conditional_whose_arm_copies_the_tail", ((1, 0), "")),
]
