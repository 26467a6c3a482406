"""Code after a try that 3.10 copies to each way the try goes on: where the try's
body, a with inside it whose ``__exit__`` suppresses, and an except clause all go on
to a small raise, the one the clause reaches too is where the try goes on. Read as
the with's copy, the clause's copy was written inside the clause, where the raise
chains to the exception the clause handled (seed 21473 on 3.10). Each returns the
raised exception's context, so a raise moved into a clause shows."""


class Suppressing:
    def __init__(self, log, suppress):
        self.log, self.suppress = log, suppress

    def __enter__(self):
        self.log.append("enter")
        return len(self.log)

    def __exit__(self, kind, value, traceback):
        self.log.append(("exit", kind.__name__ if kind else None))
        return self.suppress


def _raised(function, *args):
    log = []
    try:
        function(log, *args)
    except LookupError as error:
        return log, type(error.__context__).__name__
    return log, None


def _raises_after_a_with_in_a_try(log, answers, suppress):
    while answers.pop(0):
        try:
            if answers.pop(0):
                assert answers.pop(0), "asserted"
            else:
                with Suppressing(log, suppress) as x:
                    continue
        except Exception as e:
            pass
        raise LookupError(41)


def raises_after_a_with_in_a_try(answers, suppress):
    """A loop's try whose body, a with in it that suppresses, and its named clause each
    go on to a raise after the try (seed 21473)."""
    return _raised(_raises_after_a_with_in_a_try, answers, suppress)


def _raises_after_a_with_in_an_unnamed_clause(log, answers):
    while answers.pop(0):
        try:
            if answers.pop(0):
                log.append(1 // answers.pop(0))
            else:
                with Suppressing(log, True):
                    continue
        except Exception:
            pass
        raise LookupError(41)


def raises_after_a_with_in_an_unnamed_clause(answers):
    """The same with an unnamed clause and a body that can raise."""
    return _raised(_raises_after_a_with_in_an_unnamed_clause, answers)


CASES = [
    ("raises_after_a_with_in_a_try", ([1, 1, 0], False)),
    ("raises_after_a_with_in_a_try", ([1, 1, 1], False)),
    ("raises_after_a_with_in_a_try", ([1, 0, 1, 1, 0], True)),
    ("raises_after_a_with_in_a_try", ([1, 0, 0], False)),
    ("raises_after_a_with_in_a_try", ([0], True)),
    ("raises_after_a_with_in_an_unnamed_clause", ([1, 1, 0],)),
    ("raises_after_a_with_in_an_unnamed_clause", ([1, 1, 2],)),
    ("raises_after_a_with_in_an_unnamed_clause", ([1, 0, 1, 1, 0],)),
    ("raises_after_a_with_in_an_unnamed_clause", ([0],)),
]
