"""A guarded capture first, then cases on the subject the walk kept in a temporary:
- a later case that goes on into a loop, where the last case takes every subject
  and raises: the loop reads as code after the cases' match in the guard's else, and
  is the body's end of each case that goes on (seed 32432 on 3.10-3.13);
- a literal case whose failing test jumps to a last case that raises, laid out first:
  ``if not _t1 == 0: raise``, then the literal case's body after it;
- code after the match, moved into its last case, that holds a comprehension.
Each is one match again, with no temporary left."""


class E1(Exception):
    pass


def a_later_case_going_on_into_a_loop(subject, flags, log):
    """D (seed 32432): the guarded case goes on; the literal case's loop is read after
    a match whose ``case _:`` raises."""
    match subject:
        case a if flags.pop():
            assert flags.pop()
        case (0 | 1) as a:
            while flags.pop():
                log.append(a)
        case _:
            raise E1(20)
    log.append("after")
    return log


def a_literal_case_after_its_default(subject, flags, log):
    """D2: ``case 0:`` with ``case _: raise`` after it, at the function's end; the
    failing test's raise is laid out before the literal case's body."""
    match subject:
        case a if flags.pop():
            log.append(a)
        case 0:
            while flags.pop():
                log.append("loop")
        case _:
            raise E1(21)
    return log


def a_singleton_case_after_its_default_in_a_loop(subjects, log):
    """D2 in a loop: ``case None:`` tests by identity; the default case breaks."""
    for subject in subjects:
        match subject:
            case a if a == 3:
                log.append(a)
                continue
            case None:
                log.append("none")
            case _:
                break
        log.append("next")
    return log


def a_comprehension_after_the_cases(subject, flags, i, log):
    """Seed 55184 (3.12+): the code after the match, moved into its last case (the
    guarded one never goes on), holds a comprehension whose variable is a local read
    after it: the comprehension must be folded there too, not left as its loop."""
    match subject:
        case a if flags.pop():
            raise E1(10)
        case other:
            log.append(other)
    {i: subject for i in range(3) if not i}
    log.append(i)
    return log


CASES = [
    ("a_later_case_going_on_into_a_loop", (5, [1, 1], [])),
    ("a_later_case_going_on_into_a_loop", (5, [0, 0], [])),
    ("a_later_case_going_on_into_a_loop", (1, [1, 0, 1, 0], [])),
    ("a_later_case_going_on_into_a_loop", (0, [0, 1, 0], [])),
    ("a_later_case_going_on_into_a_loop", (7, [0], [])),
    ("a_literal_case_after_its_default", (0, [0, 0, 1, 1], [])),
    ("a_literal_case_after_its_default", (4, [1], [])),
    ("a_literal_case_after_its_default", (4, [0], [])),
    ("a_literal_case_after_its_default", (0.0, [0, 0], [])),
    ("a_singleton_case_after_its_default_in_a_loop", ([None, 3, None, 7, None], [])),
    ("a_singleton_case_after_its_default_in_a_loop", ([3, 3], [])),
    ("a_comprehension_after_the_cases", (4, [0], "kept", [])),
    ("a_comprehension_after_the_cases", (4, [1], "kept", [])),
]
