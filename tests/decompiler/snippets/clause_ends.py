"""Where an except clause ends when the try body never goes on to the code after the
try (it raises, or returns or continues): only the clauses reach that code, so the
handler dominates it, and where it goes round a loop or on to the end of a with
around, the clauses' way on is where the try ends, not the next round. Written in
the clause, that code would still see the handled exception: what each function
returns says what ``sys.exc_info()`` holds there. Each Box records its enter and
exit; ``suppress`` tells it to swallow an exception.

Also a finally body read as a bare except clause while the try body holds its
copies: one ending in an endless loop left by a break, which the compiler writes as
the re-raise or the way out after it (seed 2840). The copies left in the body would
run under that clause, which would run the finally body again: the error it raises
then has the first as its ``__context__``."""

import sys

LOG = []


class E1(Exception):
    pass


class E2(Exception):
    pass


class Box:
    def __init__(self, key, suppress=False):
        self.key, self.suppress = key, suppress

    def __enter__(self):
        LOG.append(("enter", self.key))
        return self.key

    def __exit__(self, kind, value, traceback):
        LOG.append(("exit", self.key, kind.__name__ if kind else None))
        return self.suppress and kind is not None and issubclass(kind, Exception)


class Spent(Exception):
    """The tape ran out."""


class Tape:
    def __init__(self, values):
        self.values = list(values)

    def next(self):
        if not self.values:
            raise Spent()
        return self.values.pop(0)


def handled():
    """The exception being handled where this is called, by type name."""
    return type(sys.exc_info()[1]).__name__


def with_ends_a_named_clause_in_a_loop(n, suppress, fail):
    """A with ends a named clause of a try whose body raises, in a while loop (seed
    3216): the with's normal exit and its suppressing one both reach the clause's
    end, and the code after the try goes round the loop."""
    del LOG[:]
    seen = []
    while n:
        n -= 1
        try:
            raise E1(n)
        except E1 as e:
            with Box("in", suppress) as x:
                assert fail, x
        seen.append(handled())
    return seen, handled()


def with_ends_a_clause_in_a_for_loop(xs, suppress, fail):
    """The same in a for loop, the clause without a name."""
    del LOG[:]
    seen = []
    for x in xs:
        try:
            raise E1(x)
        except E1:
            with Box(x, suppress):
                assert fail
        seen.append(handled())
    return seen


def with_ends_a_named_clause_in_a_branch_of_a_with(n, suppress, fail):
    """A with ends a named clause in the else of an if inside a with (seed 3216): the
    code after the try goes on to the outer with's exit."""
    del LOG[:]
    seen = []
    with Box("out", suppress):
        if n:
            x = n
        else:
            try:
                raise E1(n)
            except E1 as e:
                with Box("in", suppress) as x:
                    assert fail, x
            seen.append(handled())
    seen.append(x)
    return seen


def with_ends_a_named_clause_in_a_case_of_a_with(n, suppress, fail):
    """The same in the last case of a match inside a with (seed 3216)."""
    del LOG[:]
    seen = []
    with Box("out", suppress):
        match n:
            case 1:
                x = n
            case other:
                try:
                    raise E1(other)
                except E1 as e:
                    with Box("in", suppress) as x:
                        assert fail, x
                seen.append(handled())
    seen.append(x)
    return seen


def named_clause_in_a_loop_whose_body_raises(n, fail):
    """No with: a named clause, then code after the try, in a loop whose try body
    always raises."""
    seen = []
    while n:
        n -= 1
        try:
            raise E1(n)
        except E1 as e:
            if fail:
                seen.append(str(e))
        seen.append(handled())
    return seen


def withs_end_several_clauses_in_a_loop(n, suppress, fail):
    """Two clauses, each ended by a with, meet at the code after the try (read right
    before too, the chain of clause tests ending there: now the try's end)."""
    del LOG[:]
    seen = []
    while n:
        n -= 1
        try:
            if n % 2:
                raise E1(n)
            raise E2(n)
        except E1 as e:
            with Box("one", suppress):
                assert fail
        except E2 as e2:
            with Box("two", suppress):
                assert not fail
        seen.append(handled())
    return seen


def try_finally_ends_a_clause_in_a_loop(n, fail):
    """A try/finally ends the named clause: its finally body runs in the clause, the
    code after the try outside it."""
    seen = []
    while n:
        n -= 1
        try:
            raise E1(n)
        except E1 as e:
            try:
                if fail:
                    raise E2(n)
            finally:
                seen.append(handled())
        seen.append(handled())
    return seen


def with_ends_a_clause_before_a_break(n, suppress, fail):
    """The code after the try breaks out of the loop or goes round."""
    del LOG[:]
    seen = []
    while n:
        n -= 1
        try:
            raise E1(n)
        except E1 as e:
            with Box("in", suppress):
                assert fail
        seen.append(handled())
        if n == 1:
            break
    return seen, handled()


def body_continues_or_returns_in_a_loop(xs, fail):
    """The try body continues, raises or returns, so only the named clause goes on
    to the code after the try, which goes round the loop."""
    seen = []
    for x in xs:
        try:
            if x > 5:
                continue
            if fail:
                raise E1(x)
            return seen
        except E1 as e:
            seen.append(x)
        seen.append(handled())
    return seen


def code_after_a_with_ending_a_named_clause_only_it_reaches(x):
    """The try body always raises, and the named clause ends with a with whose exit
    cannot suppress: the code after the try was written inside the clause, after an
    explicit ``e = None; del e`` (seed 3216 on 3.10 and 3.12; a known gap before)."""
    if x:
        try:
            raise KeyError(x)
        except KeyError as e:
            with Box("plain"):
                LOG.append(1)
        LOG.append(handled())
    return handled()


def finally_loop_left_by_a_break_after_a_return(values):
    """A return in the try body, and a finally body ending in an endless loop left
    only by a break (seed 2840): the copy before the return is no copy found."""
    tape = Tape(values)
    try:
        try:
            if tape.next():
                return "returned"
        finally:
            while True:
                if tape.next():
                    break
                LOG.append("round")
    except Spent as error:
        return "spent", type(error.__context__).__name__


def finally_loop_with_a_continue_through_a_finally(values):
    """The same, the loop going round through an inner finally body (seed 2840)."""
    tape = Tape(values)
    try:
        try:
            if tape.next() and tape.next():
                return "returned"
        finally:
            while True:
                if tape.next():
                    break
                try:
                    continue
                finally:
                    LOG.append(tape.next())
    except Spent as error:
        return "spent", type(error.__context__).__name__


CASES = [
    ("code_after_a_with_ending_a_named_clause_only_it_reaches", (1,)),
    *(
        (name, (values,))
        for name in (
            "finally_loop_left_by_a_break_after_a_return",
            "finally_loop_with_a_continue_through_a_finally",
        )
        for values in ([1], [1, 1], [1, 0, 0], [0], [0, 0, 1], [1, 1, 0, 5, 0, 6])
    ),
    *(
        (name, (3, suppress, fail))
        for name in (
            "with_ends_a_named_clause_in_a_loop",
            "withs_end_several_clauses_in_a_loop",
            "with_ends_a_clause_before_a_break",
        )
        for suppress in (False, True)
        for fail in (False, True)
    ),
    *(
        ("with_ends_a_clause_in_a_for_loop", ([1, 2], suppress, fail))
        for suppress in (False, True)
        for fail in (False, True)
    ),
    *(
        (name, (n, suppress, fail))
        for name in (
            "with_ends_a_named_clause_in_a_branch_of_a_with",
            "with_ends_a_named_clause_in_a_case_of_a_with",
        )
        for n in (0, 1)
        for suppress in (False, True)
        for fail in (False, True)
    ),
    ("named_clause_in_a_loop_whose_body_raises", (2, False)),
    ("named_clause_in_a_loop_whose_body_raises", (2, True)),
    ("try_finally_ends_a_clause_in_a_loop", (2, False)),
    ("try_finally_ends_a_clause_in_a_loop", (2, True)),
    ("body_continues_or_returns_in_a_loop", ([7, 1, 2], True)),
    ("body_continues_or_returns_in_a_loop", ([7, 1], False)),
]
