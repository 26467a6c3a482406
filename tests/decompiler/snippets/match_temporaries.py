"""Values the walk once kept in a temporary, which a debugger or ``locals()`` would
show, or a module's namespace:
- a guarded capture, ``case a if g:``, before cases that never go on and a default
  case that does, then more code: the default's body followed the other cases' match
  on the kept subject in the guard's else; a guarded capture whose body never goes
  on (a match whose cases all return), other cases that do, and code after the match
  (in the guard's else, after the other cases' match); a guarded capture whose body
  goes on, in a last ``case _:`` before a return that 3.12+ copy into the guard's
  else, after the other cases' match;
- (the same at module level, nested in another match's case; in a loop and after
  cases that go on, which kept nothing);
- a return through a finally body ending in an if (or an if/elif chain) one of whose
  branches ends in ``while True`` left by a break: that loop goes on nowhere, since
  the compiler copies the way out (the re-raise, the return) to each break, so the
  if has no join either; the return's value was kept in a temporary.
Each reads back as written; one function each, named after the shape, with the seed
it was found on."""

LOG = []


def guarded_capture_before_a_raising_case(x, y, log):
    """``match [x, y]: case a if g: ... case [a, [b, *c]]: raise ... case _: ...``
    inside another match's case, then more code: the cases after the guard, in its
    else, read as a match on the kept subject followed by the default case's body
    (seed 19166 on 3.10-3.13)."""
    match x:
        case None:
            match [x, y]:
                case a if log:
                    log.append(("guard", a))
                case [a, [b, *c]]:
                    raise ValueError(c)
                case _:
                    log.append("default")
        case int(n):
            log.append(n)
    try:
        log.append(x)
    finally:
        log.append(len(log))
    return log


def guarded_capture_before_literal_cases(x, log):
    """``case a if g:`` then literal cases that return and a default case: the
    literal cases read as a match on the kept subject, the default after them."""
    match x * 1:
        case a if a > 5:
            log.append(("big", a))
        case 0:
            return "zero"
        case 1:
            raise ValueError(x)
        case _:
            log.append("other")
    log.append("end")
    return log


def guarded_capture_before_a_capture_in_a_loop(items, log):
    """``case a if g:``, a case that breaks, a last ``case b:``, in a for loop."""
    for x in items:
        match len(log), x:
            case a if x == 3:
                log.append(("three", a))
            case [0, 0]:
                break
            case [n, _]:
                raise ValueError(n)
            case _:
                log.append(x)
        log.append(",")
    return log


def guarded_capture_after_cases_before_a_raising_case(x, log):
    """Cases that go on, then ``case a if g:``, then a case that raises and a default
    (seed 19166's match as it was written)."""
    match [x, len(log)]:
        case [a, *rest] if x == 0:
            log.append(rest)
        case -0.0:
            log.append("never")
        case a if x > 2:
            log.append(a)
        case [a, [b, *c]]:
            raise ValueError(b)
        case _:
            log.append("default")
    log.append("end")
    return log


def guarded_capture_ending_in_a_match_before_a_case_that_goes_on(x, log):
    """``case a if g:`` whose body, a match, never goes on, after a case and before one
    that go on to the code after the match: that code followed the other cases' match
    on the kept subject in the guard's else (seed 3314 on 3.10, 3.12 and 3.13)."""
    match x:
        case 2:
            log.append(2)
        case a if log:
            match [x, a]:
                case b if len(log) > 2:
                    return b
                case b:
                    return 5
        case [0, *_]:
            log.append(3)
    return x


def guarded_capture_first_ending_in_a_match_before_a_literal_case(x, log):
    """The same as the first case, a literal case after it (3.10)."""
    match str(x):
        case a if log:
            match [x, a]:
                case b if len(log) > 2:
                    return b
                case b:
                    return 5
        case "3":
            log.append(3)
    log.append("end")
    return x


def guarded_capture_after_a_looping_case_before_a_return(x, log):
    """``case a if g:`` that goes on, after a case ending in ``while True`` left by a
    break, before one more case, then ``return x``: 3.12+ copy the return to where
    the other cases' match in the guard's else goes on, the guard's body going on
    to the one after the match (seed 11272 on 3.10, 3.12 and 3.13)."""
    match x, len(log):
        case (0 | 1) as a:
            while True:
                log.append(a)
                if len(log) > 3:
                    break
        case a if len(log) == 1:
            log.append(("g", a))
        case [a, 1]:
            log.append(a)
    return x


# the same at module level, before more code: no name is left for the kept subject
VALUES = [5, [2, [3, 4]]]
match [VALUES[0], len(LOG)]:
    case a if VALUES[0] == 5:
        LOG.append(("guard", a))
    case [[b, *c], _]:
        raise ValueError(c)
    case _:
        LOG.append("default")
LOG.append("after")


def returns_through_a_finally_ending_in_a_loop_in_an_else(x, log):
    """``return v`` through ``finally: if c: ... else: while True: ...; if d: break``
    (seed 1149 on 3.10, 3.12 and 3.13)."""
    try:
        return -x
    finally:
        if len(log) > 5:
            log.append(0)
        else:
            while True:
                log.append(x)
                if len(log) > 2:
                    break


def returns_through_a_finally_ending_in_a_loop_in_a_body(x, log):
    """The same with the loop in the if's body, left at its end."""
    try:
        return -x
    finally:
        if not log:
            while True:
                log.append(x)
                if len(log) > 2:
                    break
        else:
            log.append(1)


def returns_through_a_finally_ending_in_a_loop_after_an_elif(x, log):
    """The same after an elif that raises, the loop in the last else."""
    try:
        return -x
    finally:
        if not log:
            log.append(3)
        elif len(log) > 3:
            raise ValueError(len(log))
        else:
            while True:
                log.append(x)
                if len(log) > 5:
                    break


def returns_from_a_loop_through_a_finally_ending_in_a_loop_in_an_else(xs, log):
    """A return from a for loop through the same finally body (a state machine
    before)."""
    for x in xs:
        try:
            if x:
                return -x
        finally:
            if len(log) > 5:
                log.append(0)
            else:
                while True:
                    log.append(x)
                    if len(log) > 2:
                        break
    return log


def logged():
    return LOG


CASES = [
    ("guarded_capture_before_a_raising_case", (None, [], [])),
    ("guarded_capture_before_a_raising_case", (None, [], [1])),
    ("guarded_capture_before_a_raising_case", (None, [1, [2, 3]], [])),
    ("guarded_capture_before_a_raising_case", (4, [], [])),
    ("guarded_capture_before_literal_cases", (9, [])),
    ("guarded_capture_before_literal_cases", (0, [])),
    ("guarded_capture_before_literal_cases", (1, [])),
    ("guarded_capture_before_literal_cases", (2, [])),
    ("guarded_capture_before_a_capture_in_a_loop", ([3, 1, 2], [])),
    ("guarded_capture_before_a_capture_in_a_loop", ([0], [])),
    ("guarded_capture_before_a_capture_in_a_loop", ([1, 3], [])),
    ("guarded_capture_after_cases_before_a_raising_case", (0, [])),
    ("guarded_capture_after_cases_before_a_raising_case", (5, [])),
    ("guarded_capture_after_cases_before_a_raising_case", (1, [])),
    ("guarded_capture_after_cases_before_a_raising_case", ([1], [])),
    ("guarded_capture_ending_in_a_match_before_a_case_that_goes_on", (2, [])),
    ("guarded_capture_ending_in_a_match_before_a_case_that_goes_on", (2, [1])),
    ("guarded_capture_ending_in_a_match_before_a_case_that_goes_on", (7, [1])),
    ("guarded_capture_ending_in_a_match_before_a_case_that_goes_on", (7, [1, 2, 3])),
    ("guarded_capture_ending_in_a_match_before_a_case_that_goes_on", ([0, 1], [])),
    ("guarded_capture_ending_in_a_match_before_a_case_that_goes_on", (7, [])),
    ("guarded_capture_first_ending_in_a_match_before_a_literal_case", (3, [])),
    ("guarded_capture_first_ending_in_a_match_before_a_literal_case", (3, [1])),
    ("guarded_capture_first_ending_in_a_match_before_a_literal_case", (4, [1, 2, 3])),
    ("guarded_capture_first_ending_in_a_match_before_a_literal_case", (4, [])),
    ("guarded_capture_after_a_looping_case_before_a_return", (0, [])),
    ("guarded_capture_after_a_looping_case_before_a_return", (5, [])),
    ("guarded_capture_after_a_looping_case_before_a_return", (5, [9])),
    ("guarded_capture_after_a_looping_case_before_a_return", (5, [8, 9])),
    ("guarded_capture_after_a_looping_case_before_a_return", ("ab", [9])),
    ("returns_through_a_finally_ending_in_a_loop_in_an_else", (3, [])),
    ("returns_through_a_finally_ending_in_a_loop_in_an_else", (3, [1, 2, 3, 4, 5, 6])),
    ("returns_through_a_finally_ending_in_a_loop_in_an_else", ("a", [])),
    ("returns_through_a_finally_ending_in_a_loop_in_a_body", (3, [])),
    ("returns_through_a_finally_ending_in_a_loop_in_a_body", (3, [1])),
    ("returns_through_a_finally_ending_in_a_loop_in_a_body", ("a", [1])),
    ("returns_through_a_finally_ending_in_a_loop_after_an_elif", (3, [])),
    ("returns_through_a_finally_ending_in_a_loop_after_an_elif", (3, [1])),
    ("returns_through_a_finally_ending_in_a_loop_after_an_elif", (3, [1, 2, 3, 4])),
    ("returns_through_a_finally_ending_in_a_loop_after_an_elif", ("a", [1])),
    ("returns_from_a_loop_through_a_finally_ending_in_a_loop_in_an_else", ([0, 2], [])),
    ("returns_from_a_loop_through_a_finally_ending_in_a_loop_in_an_else", ([0, 0], [])),
    ("returns_from_a_loop_through_a_finally_ending_in_a_loop_in_an_else", ([0, 2], [1] * 6)),
    ("returns_from_a_loop_through_a_finally_ending_in_a_loop_in_an_else", ([None], [])),
    ("logged", ()),
]
